#!/usr/bin/env bash
# The whole test suite: every crate's tests (cargo test), the end-to-end check of `tabla convert`
# (scripts/convert_e2e.py, DuckDB), then the web app's browser tests (headless Chromium from
# Debian, driven by playwright-core, against `tabla serve` on loopback).
# Installs what is missing: Debian's zstd (pzstd), PyPI's duckdb, Debian's chromium and web/'s npm
# packages.
set -euo pipefail
cd "$(dirname "$0")/.."
# tabla-convert's tests compress with pzstd (Debian's zstd package).
if ! command -v pzstd >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zstd >/dev/null
fi
cargo test --workspace

# tabla convert end to end: DuckDB's counts on its Parquet against tabla pgn's own, with the
# binary cargo test just built (optimised: the test profile).
python3 -c "import duckdb" 2>/dev/null || pip install -q duckdb
python3 scripts/convert_e2e.py --tabla target/debug/tabla

if ! command -v chromium >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
cargo build -p tabla-cli
(cd web && { [ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund; } \
  && TABLA_SERVE="$PWD/../target/debug/tabla serve --port 0" npm test)
