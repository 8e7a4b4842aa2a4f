#!/usr/bin/env bash
# The whole test suite: every crate's tests with every feature (cargo test), the end-to-end check of `tabla convert`
# (scripts/ci/convert_e2e.py, DuckDB), the Python package's pytest suite (crates/tabla-py, built into
# a virtual environment under the target directory), then the web app's unit tests (node) and
# browser tests (headless Chromium from Debian, driven by playwright-core, against `tabla serve`
# on loopback). Installs what is missing: Debian's zstd (pzstd) and stockfish, PyPI's duckdb,
# maturin, pytest, pyarrow and chess (python-chess, the Python tests' oracle), Debian's chromium and
# web/'s npm packages.
set -euo pipefail
cd "$(dirname "$0")/.."
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
# tabla-convert's tests compress with pzstd (Debian's zstd package).
if ! command -v pzstd >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zstd >/dev/null
fi
# tabla-review's engine tests drive Debian's Stockfish (/usr/games/stockfish).
if [ ! -x /usr/games/stockfish ]; then
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stockfish >/dev/null
fi
# Every feature: the game database (`db`, off in the quick build the README runs) is tested here;
# the build without it is tested at the end.
cargo test --workspace --all-features
phase "cargo test --workspace --all-features"
# The binaries cargo just built, wherever CARGO_TARGET_DIR puts them.
target=$(realpath "${CARGO_TARGET_DIR:-target}")

# tabla convert end to end: DuckDB's counts on its Parquet against tabla pgn's own, on testdata/pgn
# and the corpus, with the binary cargo test just built (optimised: the test profile).
python3 -c "import duckdb" 2>/dev/null || pip install -q duckdb
python3 scripts/ci/convert_e2e.py --tabla "$target/debug/tabla"
phase "convert_e2e.py"

# tabla for Python: the wheel built from a clone as the README says (`pip install
# ./crates/tabla-py`, maturin through pip), into a virtual environment of its own, then its tests
# against python-chess.
venv="$target/py-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check pytest chess pyarrow
# The dev profile, which the test profile inherits (Cargo.toml): with the same features for every
# dependency (crates/tabla-py/Cargo.toml's pins, checked by scripts/ci/wheel_features.py), the wheel
# links the units cargo test just built, so only pyo3 and tabla-py are compiled.
CARGO_TARGET_DIR="$target" MATURIN_PEP517_ARGS="--profile dev" \
  "$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps ./crates/tabla-py
phase "the wheel's build"
"$venv/bin/python" -m pytest -q -p no:cacheprovider crates/tabla-py/tests
phase "pytest"

if ! command -v chromium >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
# The front end's unit tests (pure modules, under node), then its browser tests against the
# `tabla` binary cargo test built for tabla-cli's tests (no second build in another profile).
(cd web && { [ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund; } \
  && npm run unit \
  && TABLA_SERVE="$target/debug/tabla serve --port 0" npm test)
phase "the web app's tests"

# The quick build's own tabla-cli and tabla-web (the README's run command: without the feature
# `db`): `tabla db` and `/api/db` say how to get the database, everything else as above. Last, as
# it rebuilds the binary the tests above ran.
cargo test -p tabla-cli -p tabla-web
phase "cargo test -p tabla-cli -p tabla-web (without db)"
