#!/usr/bin/env bash
# Installs the system libraries SeedStore links (sqlite3, libcsv) when they are missing.
set -euo pipefail
missing=()
# sqlite3 (the shell) is only the reference `seedstore speed import` compares with.
for pkg in libsqlite3-dev libcsv-dev sqlite3; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "bootstrap: swift is not on PATH (Swift 6.1 or later is needed)" >&2; exit 1; }
