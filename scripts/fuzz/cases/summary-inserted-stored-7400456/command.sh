#!/bin/sh
# Run from this directory; SEEDSTORE is the seedstore binary.
cd "$(dirname "$0")" && rm -f store.sqlite store.rejects.csv rejects.csv summary.json
${SEEDSTORE:-seedstore} import --mapping mapping.json --out store.sqlite --progress none --summary-json summary.json --on-error skip --rejects rejects.csv --batch-size 10000 --no-read-ahead
