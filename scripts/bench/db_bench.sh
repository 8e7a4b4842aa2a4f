#!/usr/bin/env bash
# Benchmarks of `tabla db`, for docs/performance.md: import throughput on 1 and 2 threads with peak
# memory, each table's size against the `.pgn.zst` input, explorer latency (1,000 random positions,
# cold and warm, without and with filters) and position search throughput.
#
# Data: the corpus's lichess and TWIC files (../shared/data/pgn or $TABLA_CORPUS/pgn), and a
# generated collection of GAMES games (default 2,000,000) written by tabla-pgn's gen_games example
# from those files' openings (seed 1; its doc says how the games are made), compressed with
# `pzstd -p 2` as the lichess database ships its files; and the same games written as the
# lichess database writes them (`--style lichess`: its tags, a clock comment after every move),
# imported too, since throughput in MB/s and sizes against the input depend on how many bytes
# a game takes (about 710 bytes plain, 2,340 in the lichess style; the corpus's lichess games
# take 2,280).
#
# Usage: scripts/bench/db_bench.sh [ROUNDS [GAMES]] (default 3 rounds of the corpus import; the
# generated import runs once per thread count). Work files go to
# ${TABLA_BENCH_DIR:-${TMPDIR:-/tmp}/tabla-db-bench} (about 20 GB for 2 million games).
# Check that nothing else runs on the machine first: every figure is a wall time.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
games=${2:-2000000}
data=${TABLA_CORPUS:-../shared/data}/pgn
if [ ! -d "$data" ]; then
  echo "db_bench.sh: corpus not found at $data; set TABLA_CORPUS to the folder holding pgn/" >&2
  exit 2
fi
work=${TABLA_BENCH_DIR:-${TMPDIR:-/tmp}/tabla-db-bench}
mkdir -p "$work"
for tool in pzstd /usr/bin/time; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "db_bench.sh: $tool is missing: sudo apt-get install zstd time" >&2
    exit 2
  fi
done

# One invocation (one feature resolution) for the three binaries.
cargo build --release -p tabla-cli --features db --bin tabla -p tabla-db --example db_bench -p tabla-pgn --example gen_games
# Copies, so that a rebuild in the tree during the runs cannot swap the binaries.
cp target/release/tabla target/release/examples/db_bench target/release/examples/gen_games "$work/"
tabla=$work/tabla

corpus=$work/corpus.pgn
cat "$data/lichess_db_1000k.pgn" <(echo) "$data/twic1599_1000k.pgn" >"$corpus"
gen=$work/gen-$games.pgn
if [ ! -s "$gen.zst" ]; then
  "$work/gen_games" --games "$games" --seed 1 "$data/lichess_db_1000k.pgn" \
    "$data/twic1599_1000k.pgn" >"$gen"
  pzstd -q -f -p 2 -o "$gen.zst" "$gen"
fi
lichess=$work/gen-lichess-$games.pgn
if [ ! -s "$lichess.zst" ]; then
  "$work/gen_games" --games "$games" --seed 1 --style lichess "$data/lichess_db_1000k.pgn" \
    "$data/twic1599_1000k.pgn" >"$lichess"
  pzstd -q -f -p 2 -o "$lichess.zst" "$lichess"
fi

# import INPUT THREADS DB: prints "threads T: S s, X MB/s, peak RSS R MB" (MB/s of decompressed PGN).
import() {
  local input=$1 threads=$2 db=$3 bytes=$4
  rm -rf "$db"
  /usr/bin/time -f "%e %M" -o "$work/time.txt" "$tabla" db import --db "$db" --threads "$threads" \
    "$input" >"$work/import.out" 2>"$work/import.err"
  read -r secs rss <"$work/time.txt"
  python3 -c "import sys; s, r, b = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]); \
print(f'threads {sys.argv[4]}: {s:.2f} s, {b / s / 1e6:.1f} MB/s, peak RSS {r / 1024:.0f} MB')" \
    "$secs" "$rss" "$bytes" "$threads"
  tail -1 "$work/import.out"
}

echo "== corpus import ($(stat -c %s "$corpus") bytes of PGN), $rounds rounds"
for r in $(seq "$rounds"); do
  for t in 1 2; do
    import "$corpus" "$t" "$work/corpus-$t.db" "$(stat -c %s "$corpus")"
  done
done

pgn_bytes=$(stat -c %s "$gen")
zst_bytes=$(stat -c %s "$gen.zst")
echo "== generated import: $games games, $pgn_bytes bytes of PGN, $zst_bytes bytes .pgn.zst"
for t in 2 1; do
  import "$gen.zst" "$t" "$work/gen-$t.db" "$pgn_bytes"
done
# sizes DB ZST: each table's bytes against the input's .pgn.zst.
sizes() {
  "$tabla" db info --db "$1" --json >"$work/info.json"
  python3 - "$work/info.json" "$2" <<'EOF'
import json, sys
info = json.load(open(sys.argv[1]))
zst = int(sys.argv[2])
print(f"games {info['games']}, positions {info['positions']}")
for t in info["table_bytes"]:
    print(f"table {t['table']}: {t['bytes']} bytes in {t['files']} files, {t['bytes'] / zst:.2f}x the .pgn.zst")
EOF
}
sizes "$work/gen-2.db" "$zst_bytes"

lichess_bytes=$(stat -c %s "$lichess")
lichess_zst=$(stat -c %s "$lichess.zst")
echo "== the same games in the lichess style: $lichess_bytes bytes of PGN, $lichess_zst bytes .pgn.zst"
for t in 2 1; do
  import "$lichess.zst" "$t" "$work/lichess-$t.db" "$lichess_bytes"
done
sizes "$work/lichess-2.db" "$lichess_zst"
rm -rf "$work/lichess-1.db" "$work/lichess-2.db"

db=$work/gen-2.db
drop_caches() {
  sync
  if echo 3 >/proc/sys/vm/drop_caches 2>/dev/null; then
    echo "(page cache dropped)"
  else
    echo "(page cache could not be dropped here: the first pass is cold for the process only)"
  fi
}

echo "== explorer latency, 1000 random positions: pass 1 cold, pass 3 warm"
drop_caches
"$work/db_bench" latency --db "$db" --queries 1000 --passes 3
echo "-- with --rating 1600-1999 --speed blitz,rapid (answered from the aggregate)"
"$work/db_bench" latency --db "$db" --queries 1000 --passes 2 --rating 1600-1999 --speed blitz,rapid
echo "-- with --since 2020-01 (answered from the aggregate)"
"$work/db_bench" latency --db "$db" --queries 1000 --passes 2 --since 2020-01
echo "-- with --rating 1650-1999 (not on the aggregate's buckets: counted from the positions)"
"$work/db_bench" latency --db "$db" --queries 1000 --passes 2 --rating 1650-1999
echo "-- with --player 'Player 00042'"
"$work/db_bench" latency --db "$db" --queries 1000 --passes 2 --player "Player 00042"
echo "-- the most popular positions, one at a time (3 passes each)"
for moves in "" "e4" "e4 e5 Nf3" "e4 e5 Nf3 Nc6 Bb5 a6"; do
  "$work/db_bench" explore --db "$db" --moves "$moves" --passes 3
done

echo "== search over every ply of every game"
"$work/db_bench" search --db "$db"
