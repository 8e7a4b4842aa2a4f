#!/usr/bin/env bash
# The performance goal's two figures: perft speed ratio shakmaty time / tabla time (above 1 means
# tabla is faster) for startpos depth 6 without bulk counting and Kiwipete depth 5 with it.
# Both libraries run alternately in one process, RUNS times each (default 5, at least 3); the
# medians and their ratio are printed. Usage: scripts/bench/bench_ratio.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-5}"
cargo bench -p tabla --bench ratio -- --runs "$runs"
