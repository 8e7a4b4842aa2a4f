#!/usr/bin/env bash
# The whole test suite: every crate's tests (cargo test), then the web app's browser tests
# (headless Chromium from Debian, driven by playwright-core, against `tabla serve` on loopback).
# Installs what the browser tests need when it is missing: Debian's chromium and web/'s npm packages.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace

if ! command -v chromium >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
cargo build -p tabla-cli
(cd web && { [ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund; } \
  && TABLA_SERVE="$PWD/../target/debug/tabla serve --port 0" npm test)
