#!/usr/bin/env bash
# Runs every test: unit, real-world fixtures (from ../shared when present) and end-to-end CLI tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
swift build --build-tests "$@"
swift test --skip-build "$@"
