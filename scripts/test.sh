#!/usr/bin/env bash
# The whole test suite: every crate's tests with every feature (cargo test), the end-to-end check
# of `tabla convert` (scripts/ci/convert_e2e.py, DuckDB), the Python package's pytest suite
# (crates/tabla-py, built into a virtual environment under the target directory), then the web
# app's unit tests (node) and browser tests (headless Chromium from Debian, driven by
# playwright-core, against `tabla serve` on loopback).
#
# Usage: scripts/test.sh [--install]
#
# What it needs beyond Rust, checked before anything runs:
#   Debian   zstd (pzstd: tabla-convert's tests), chromium (the browser tests), nodejs and npm
#            (the front end's build and tests), python3-venv; stockfish (/usr/games/stockfish)
#            is optional: the tests that drive it say they are skipped without it, unless
#            TABLA_REQUIRE_CORPUS=1 (CI), which makes it required
#   PyPI     duckdb, pytest, chess (python-chess, the Python tests' oracle) and pyarrow, in the
#            virtual environment <target>/py-venv (not the system's Python)
#   npm      web/'s packages (web/node_modules; the build of tabla-web installs them too)
# Nothing is installed unless CI is set (CI sets CI=true) or --install is given: then Debian's
# packages with apt-get (through sudo when not root), the PyPI packages into the virtual
# environment, and web/'s with `npm ci`. Otherwise a missing requirement is listed with the
# command that installs it, and the script stops with exit status 2 before running any test.
set -euo pipefail
cd "$(dirname "$0")/.."
install=
case "${1:-}" in
  --install) install=1 ;;
  "") ;;
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "usage: scripts/test.sh [--install]" >&2; exit 2 ;;
esac
[ -n "${CI:-}" ] && install=1
# Each phase's end, in seconds from the start, so that a slow phase shows in CI's log.
phase() { echo "== test.sh: $1 done at ${SECONDS} s"; }
# The tests use testdata/ always; the real-world corpus ($TABLA_CORPUS, relative to the repository
# root, else ../shared/data) adds tests that are skipped without it, or fail with
# TABLA_REQUIRE_CORPUS=1 (CI). Cargo hides a passing test's output, so say here which it is.
corpus=${TABLA_CORPUS:-../shared/data}
if [ -d "$corpus" ]; then
  echo "corpus: $corpus found, corpus tests run"
elif [ "${TABLA_REQUIRE_CORPUS:-}" = 1 ]; then
  echo "corpus: not found at $corpus, and TABLA_REQUIRE_CORPUS=1: set TABLA_CORPUS" >&2
  exit 2
else
  echo "corpus: not found at $corpus (set TABLA_CORPUS), corpus tests skipped"
fi

# What is missing, before anything runs: Debian packages, the virtual environment's PyPI
# packages, web/'s npm packages.
target=$(realpath -m "${CARGO_TARGET_DIR:-target}")
venv="$target/py-venv"
py_packages=(duckdb pytest chess pyarrow)
debian=()
command -v pzstd >/dev/null 2>&1 || debian+=(zstd)
command -v chromium >/dev/null 2>&1 || debian+=(chromium)
command -v node >/dev/null 2>&1 || debian+=(nodejs)
command -v npm >/dev/null 2>&1 || debian+=(npm)
[ -x "$venv/bin/python" ] || python3 -c "import ensurepip, venv" 2>/dev/null || debian+=(python3-venv)
if [ ! -x /usr/games/stockfish ]; then
  if [ "${TABLA_REQUIRE_CORPUS:-}" = 1 ] || [ -n "$install" ]; then
    debian+=(stockfish)
  else
    echo "stockfish: not found at /usr/games/stockfish (apt-get install stockfish), its tests skipped"
  fi
fi
pypi=
"$venv/bin/python" -c "import duckdb, pytest, chess, pyarrow" 2>/dev/null || pypi=1
npm_packages=
[ -d web/node_modules/playwright-core ] || npm_packages=1
if [ -z "$install" ] && { [ ${#debian[@]} -gt 0 ] || [ -n "$pypi" ] || [ -n "$npm_packages" ]; }; then
  echo "scripts/test.sh: missing (no test was run):" >&2
  [ ${#debian[@]} -gt 0 ] && echo "  Debian's ${debian[*]}: sudo apt-get install ${debian[*]}" >&2
  [ -n "$pypi" ] && echo "  PyPI's ${py_packages[*]} in $venv:" \
    "python3 -m venv $venv && $venv/bin/pip install ${py_packages[*]}" >&2
  [ -n "$npm_packages" ] && echo "  web/'s npm packages: (cd web && npm ci)" >&2
  echo "Install them with those commands, or run scripts/test.sh --install." >&2
  exit 2
fi
if [ ${#debian[@]} -gt 0 ]; then
  sudo=
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${debian[@]}" >/dev/null
fi
if [ -n "$pypi" ]; then
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "${py_packages[@]}"
fi
if [ -n "$npm_packages" ]; then
  (cd web && npm ci --no-audit --no-fund)
fi
phase "requirements"

# Every feature: the game database (`db`, off in the quick build the README runs) is tested here;
# the build without it is tested at the end.
cargo test --workspace --all-features
phase "cargo test --workspace --all-features"

# tabla convert end to end: DuckDB's counts on its Parquet against tabla pgn's own, on testdata/pgn
# and the corpus, with the binary cargo test just built (optimised: the test profile).
"$venv/bin/python" scripts/ci/convert_e2e.py --tabla "$target/debug/tabla"
phase "convert_e2e.py"

# tabla for Python: the wheel built from a clone as the README says (`pip install
# ./crates/tabla-py`, maturin through pip), into the virtual environment, then its tests against
# python-chess.
# The dev profile, which the test profile inherits (Cargo.toml): with the same features for every
# dependency (crates/tabla-py/Cargo.toml's pins, checked by scripts/ci/wheel_features.py), the wheel
# links the units cargo test just built, so only pyo3 and tabla-py are compiled.
CARGO_TARGET_DIR="$target" MATURIN_PEP517_ARGS="--profile dev" \
  "$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps ./crates/tabla-py
phase "the wheel's build"
"$venv/bin/python" -m pytest -q -p no:cacheprovider crates/tabla-py/tests
phase "pytest"

# The front end's unit tests (pure modules, under node), then its browser tests against the
# `tabla` binary cargo test built for tabla-cli's tests (no second build in another profile).
(cd web && npm run unit && TABLA_SERVE="$target/debug/tabla serve --port 0" npm test)
phase "the web app's tests"

# The quick build's own tabla-cli and tabla-web (the README's run command: without the feature
# `db`): `tabla db` and `/api/db` say how to get the database, everything else as above. Last, as
# it rebuilds the binary the tests above ran.
cargo test -p tabla-cli -p tabla-web
phase "cargo test -p tabla-cli -p tabla-web (without db)"
