#!/usr/bin/env bash
# The main job, end to end on the default data set: generate the 244,292-well stand-in, import it
# into a seed store, inspect and query it, and measure the engine against raw SQLite.
# Output goes to ./out (override with OUT=dir).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
OUT="${OUT:-out}"
ROWS="${ROWS:-244292}"
mkdir -p "$OUT"
swift build -c release --product seedstore
BIN="$(swift build -c release --show-bin-path)/seedstore"

echo "== generate: $ROWS wells with operators (seed 42)"
"$BIN" generate wells --rows "$ROWS" --seed 42 --out "$OUT/wells"

if "$BIN" help import >/dev/null 2>&1; then
  echo "== import: seed store $OUT/Wells.sqlite"
  "$BIN" import --mapping "$OUT/wells/wells.mapping.json" --out "$OUT/Wells.sqlite" --progress plain
  echo "== inspect"
  "$BIN" inspect "$OUT/Wells.sqlite"
  echo "== query: the first wells by name"
  "$BIN" query "$OUT/Wells.sqlite" --entity WellSummary --sort well_name --limit 5 2>/dev/null \
    || "$BIN" query "$OUT/Wells.sqlite" --entity WellSummary | head -8
fi

echo "== speed: engine core against raw sqlite3 (same run)"
"$BIN" speed engine --runs 5
