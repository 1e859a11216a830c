#!/usr/bin/env bash
# The main job, end to end on the default data set: generate the 244,292-well stand-in, import it
# into a seed store (monolithic Well plus WellSummary/WellDetail), inspect and query it, run the
# fetch-strategy bench against raw SQLite and write the reports. Output goes to ./out (OUT=dir).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
OUT="${OUT:-out}"
ROWS="${ROWS:-244292}"
mkdir -p "$OUT"
swift build -c release --product seedstore
BIN="$(swift build -c release --show-bin-path)/seedstore"
START=$(date +%s)

echo "== generate: $ROWS wells with operators (seed 42)"
"$BIN" generate wells --rows "$ROWS" --seed 42 --out "$OUT/wells"

echo "== import: seed store $OUT/Wells.sqlite"
"$BIN" import --mapping "$OUT/wells/wells.mapping.json" --out "$OUT/Wells.sqlite" --progress plain

echo "== inspect"
# The whole listing goes to a file (a pipe into head could stop inspect mid-write, which pipefail fails on).
"$BIN" inspect "$OUT/Wells.sqlite" > "$OUT/inspect.txt"
grep -E '^(Store|Journal|[A-Za-z]+ — table|indexes)' "$OUT/inspect.txt"
echo "(every property: $OUT/inspect.txt)"

echo "== query: the first wells by name, batch size 20"
"$BIN" query "$OUT/Wells.sqlite" --entity WellSummary --sort well_name --batch-size 20 --limit 5 --stats

echo "== bench: fetch strategies side by side, each next to raw sqlite3"
"$BIN" bench "$OUT/Wells.sqlite" --json "$OUT/bench.json" --markdown "$OUT/bench.md" --html "$OUT/bench.html"

echo "== done in $(( $(date +%s) - START )) s (after the build): reports in $OUT/bench.html, $OUT/bench.md, $OUT/bench.json"
