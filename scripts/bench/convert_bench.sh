#!/usr/bin/env bash
# Benchmark of `tabla convert` on one and two threads, for docs/performance.md.
#
# Input: the corpus's lichess and TWIC files (../shared/data/pgn/, or $TABLA_CORPUS/pgn relative
# to the repository root) repeated COPIES times (default
# 215: about 430 MB of PGN, a 50 MB `.pgn.zst`), compressed with `pzstd -p 2` (independent
# frames, as the lichess database ships them). Each
# round converts it with --threads 1 and --threads 2 (the order alternating between rounds, so
# that the machine's drift does not favour one), without and with --positions, under
# /usr/bin/time -v for the peak resident memory. Prints every run, then the medians: games/s,
# MB/s of compressed and of decompressed input, the speed-up from 1 to 2 threads (as the ratio
# of the medians and as the median of each round's ratio), peak RSS.
#
# Usage: scripts/bench/convert_bench.sh [ROUNDS [COPIES]] (default 5 rounds); TABLA_BIN=path measures
# that binary instead of building target/release/tabla; TABLA_BENCH_MODES=no (or yes) runs only
# without (or with) --positions. Work files go to
# ${TABLA_BENCH_DIR:-${TMPDIR:-/tmp}/tabla-convert-bench}.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
copies=${2:-215}
data=${TABLA_CORPUS:-../shared/data}/pgn
if [ ! -d "$data" ]; then
  echo "convert_bench.sh: corpus not found at $data; set TABLA_CORPUS to the folder holding pgn/" >&2
  exit 2
fi
work=${TABLA_BENCH_DIR:-${TMPDIR:-/tmp}/tabla-convert-bench}
mkdir -p "$work"

if ! command -v pzstd >/dev/null 2>&1; then
  echo "convert_bench.sh: pzstd is missing: sudo apt-get install zstd" >&2
  exit 2
fi
if [ ! -x /usr/bin/time ]; then
  echo "convert_bench.sh: /usr/bin/time is missing: sudo apt-get install time" >&2
  exit 2
fi

if [ -n "${TABLA_BIN:-}" ]; then
  cp "$TABLA_BIN" "$work/tabla"
else
  cargo build --release -p tabla-cli
  # A copy, so that a rebuild in the tree during the rounds cannot swap the binary.
  cp target/release/tabla "$work/tabla"
fi
tabla=$work/tabla

pgn=$work/bench-$copies.pgn
zst=$work/bench-$copies.pgn.zst
if [ ! -s "$zst" ]; then
  # Each file COPIES times, the empty line keeping the last game of one copy apart from the next.
  for _ in $(seq "$copies"); do
    cat "$data/lichess_db_1000k.pgn"
    echo
    cat "$data/twic1599_1000k.pgn"
    echo
  done >"$pgn"
  pzstd -q -f -p 2 -o "$zst" "$pgn"
fi
pgn_bytes=$(stat -c %s "$pgn")
zst_bytes=$(stat -c %s "$zst")
frames=$(zstd -lv "$zst" 2>/dev/null | sed -n 's/^# Zstandard Frames: *//p')
echo "input: $pgn_bytes bytes of PGN, $zst_bytes bytes compressed with pzstd -p 2, $frames zstd frames"

results=$work/results.tsv
printf 'round\tpositions\tthreads\tseconds\tcpu_seconds\tpeak_rss_kb\tgames\n' >"$results"
one_run() { # round positions threads
  local out=$work/out flags=()
  rm -rf "$out"
  [ "$2" = yes ] && flags+=(--positions)
  /usr/bin/time -v -o "$work/time.txt" \
    "$tabla" convert "$zst" --out "$out" --threads "$3" "${flags[@]}" >"$work/stdout.txt" 2>/dev/null
  local wall cpu rss games
  # "Elapsed (wall clock) time (h:mm:ss or m:ss): 0:03.21"
  wall=$(sed -n 's/^.*Elapsed (wall clock).*: //p' "$work/time.txt" |
    awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
  cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$work/time.txt")
  rss=$(sed -n 's/^.*Maximum resident set size (kbytes): //p' "$work/time.txt")
  games=$(grep -o 'games [0-9]*' "$work/stdout.txt" | head -1 | cut -d' ' -f2)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$wall" "$cpu" "$rss" "$games" |
    tee -a "$results"
}
printf 'round\tpositions\tthreads\tseconds\tcpu_seconds\tpeak_rss_kb\tgames\n'
for round in $(seq "$rounds"); do
  for positions in ${TABLA_BENCH_MODES:-no yes}; do
    if [ $((round % 2)) -eq 1 ]; then order="1 2"; else order="2 1"; fi
    for threads in $order; do
      one_run "$round" "$positions" "$threads"
    done
  done
done
rm -rf "$work/out"

python3 - "$results" "$pgn_bytes" "$zst_bytes" <<'EOF'
import csv
import statistics
import sys

path, pgn_bytes, zst_bytes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = list(csv.DictReader(open(path), delimiter="\t"))
print()
print("medians over", max(int(r["round"]) for r in rows), "rounds (MB = 10^6 bytes)")
print("positions threads  seconds  cpu s  games/s  MB/s(zst)  MB/s(pgn)  peak RSS")
for positions in sorted({r["positions"] for r in rows}):
    median = {}
    for threads in ("1", "2"):
        runs = [r for r in rows if r["positions"] == positions and r["threads"] == threads]
        secs = statistics.median(float(r["seconds"]) for r in runs)
        cpu = statistics.median(float(r["cpu_seconds"]) for r in runs)
        rss = statistics.median(int(r["peak_rss_kb"]) for r in runs)
        games = int(runs[0]["games"])
        median[threads] = secs
        print(
            f"{positions:9} {threads:7} {secs:8.2f} {cpu:6.2f} {games / secs:8.0f} "
            f"{zst_bytes / secs / 1e6:10.2f} {pgn_bytes / secs / 1e6:10.1f} {rss / 1024:7.1f} MiB"
        )
    # Each round runs 1 and 2 threads back to back, so their ratio is less exposed to the
    # machine's drift than the ratio of the medians; both are printed.
    by_round = {}
    for r in rows:
        if r["positions"] == positions:
            by_round.setdefault(r["round"], {})[r["threads"]] = float(r["seconds"])
    paired = statistics.median(t["1"] / t["2"] for t in by_round.values() if len(t) == 2)
    print(
        f"{positions:9} speed-up 1 -> 2 threads: {median['1'] / median['2']:.2f}x "
        f"(ratio of medians), {paired:.2f}x (median of the rounds' ratios)"
    )
EOF
