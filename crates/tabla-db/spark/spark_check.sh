#!/usr/bin/env bash
# Checks that the explorer's aggregate written by Apache Spark (crates/tabla-db/spark/spark_explorer.py, Spark in
# local mode) gives the same `tabla db explore --json` answers as the one `tabla db import` makes
# with DataFusion. Not run in CI: it needs PyPI's `pyspark` (3.5) and a Java 17 runtime (Debian's
# `openjdk-17-jre-headless`), and takes a few minutes.
#
# Steps, in a temporary directory:
#   1. tabla db import PGN... --db df --max-ply 50 --threads 1    (DataFusion's aggregate)
#   2. tabla convert --positions --max-ply 49 --out parquet --threads 1 --number-games 1
#      (the same PGN; on one thread both number the games 1, 2, 3... in the inputs' order, so
#      that game ids are the same in both databases)
#   3. crates/tabla-db/spark/spark_explorer.py parquet --max-ply 50        (Spark writes parquet/explorer/)
#   4. tabla db import parquet --db spark --max-ply 50       (takes the three tables as they are)
#   5. the row counts of games and positions, the explorer table summed per group (sorted), the
#      column types Spark wrote, and `tabla db explore --json` for 7 positions (a transposition
#      among them) under 11 filters, compared byte for byte between the two databases.
# Prints every difference and a summary; exits 1 on any difference, 2 when a tool is missing.
#
# Usage: crates/tabla-db/spark/spark_check.sh [--tabla BIN] [--keep] [PGN...]
#   BIN: the tabla binary (default $TABLA_BIN, else target/release/tabla, else target/debug/tabla);
#   PGN: the inputs (default the corpus's pgn/*.pgn, see scripts/corpus.py, else testdata/pgn);
#   --keep: keep the temporary directory and print where it is.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)

tabla=${TABLA_BIN:-}
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --tabla) tabla=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
if [ -z "$tabla" ]; then
  for candidate in "$root/target/release/tabla" "$root/target/debug/tabla"; do
    if [ -x "$candidate" ]; then tabla=$candidate; break; fi
  done
fi
if [ -z "$tabla" ] || ! "$tabla" db --help >/dev/null 2>&1; then
  echo "spark_check: no tabla binary with \`db\` (${tabla:-none found}); build it" \
    "(cargo build --release -p tabla-cli --features db) or give --tabla BIN" >&2
  exit 2
fi
if [ $# -gt 0 ]; then
  pgn=("$@")
else
  corpus=${TABLA_CORPUS:+$root/$TABLA_CORPUS}
  corpus=${corpus:-$root/../shared/data}
  if [ -d "$corpus/pgn" ]; then pgn=("$corpus"/pgn/*.pgn); else pgn=("$root"/testdata/pgn/*.pgn); fi
fi
python3 -c 'import pyspark' 2>/dev/null || {
  echo "spark_check: no pyspark; pip install 'pyspark==3.5.*' (and a Java 17 runtime)" >&2
  exit 2
}

work=$(mktemp -d)
if [ "$keep" = 1 ]; then echo "keeping $work"; else trap 'rm -rf "$work"' EXIT; fi
max_ply=50
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

echo "== tabla: $tabla"
echo "== inputs: ${#pgn[@]} PGN files"
echo "== java: $(java -version 2>&1 | head -1)"
echo "== pyspark: $(python3 -c 'import pyspark; print(pyspark.__version__)')"

echo "== 1. DataFusion: tabla db import PGN... --db df --max-ply $max_ply --threads 1"
t=$(now)
"$tabla" db import --db "$work/df" --max-ply "$max_ply" --threads 1 "${pgn[@]}"
echo "   $(elapsed "$t") s"

echo "== 2. tabla convert --positions --max-ply $((max_ply - 1)) --threads 1 --number-games 1"
t=$(now)
"$tabla" convert --positions --max-ply "$((max_ply - 1))" --out "$work/parquet" --threads 1 \
  --number-games 1 "${pgn[@]}"
echo "   $(elapsed "$t") s"

echo "== 3. Spark: crates/tabla-db/spark/spark_explorer.py parquet --max-ply $max_ply --master local[2]"
t=$(now)
python3 "$root/crates/tabla-db/spark/spark_explorer.py" "$work/parquet" --max-ply "$max_ply" \
  --master 'local[2]' 2>"$work/spark.err" >"$work/spark.out" || {
  cat "$work/spark.out" "$work/spark.err" >&2
  echo "spark_check: spark_explorer.py failed" >&2
  exit 1
}
sed 's/^/   /' "$work/spark.out"
spark_seconds=$(elapsed "$t")
echo "   $spark_seconds s (spark_explorer.py, JVM start included)"

echo "== 4. tabla db import parquet --db spark --max-ply $max_ply (attach)"
t=$(now)
"$tabla" db import --db "$work/spark" --max-ply "$max_ply" "$work/parquet"
echo "   $(elapsed "$t") s"

compared=0
differ=0
with_games=0
# compare LABEL SUBCOMMAND ARGS...: runs `tabla db SUBCOMMAND --db X ARGS...` on both databases;
# both must succeed and print the same bytes.
compare() {
  local label=$1 sub=$2 a=0 b=0
  shift 2
  compared=$((compared + 1))
  "$tabla" db "$sub" --db "$work/df" "$@" >"$work/a.out" 2>&1 || a=$?
  "$tabla" db "$sub" --db "$work/spark" "$@" >"$work/b.out" 2>&1 || b=$?
  if [ "$a" = 0 ] && [ "$b" = 0 ] && cmp -s "$work/a.out" "$work/b.out"; then
    if [ "$sub" = explore ] && ! grep -q '^{"fen":"[^"]*","games":0,' "$work/a.out"; then
      with_games=$((with_games + 1))
    fi
    printf '   same      %s\n' "$label"
  else
    differ=$((differ + 1))
    printf '   DIFFERENT %s (exit status %s and %s)\n' "$label" "$a" "$b"
    diff <(tr ',' '\n' <"$work/a.out") <(tr ',' '\n' <"$work/b.out") | head -20 | sed 's/^/      /'
  fi
}

echo "== 5. Comparisons (left: DataFusion's database, right: Spark's)"
for table in games positions; do
  compare "rows of $table" sql --csv "SELECT COUNT(*) AS n FROM $table"
done
# An import aggregates each positions file apart (a key in two files has a row in each part, and
# queries sum them), Spark all at once: the tables are compared as sums per group. The import
# keeps the positions it counts for at least 32 games, Spark's table every position: the popular
# ones are compared as they are, and Spark's whole table with crates/tabla-db/sql/explorer.sql run by DataFusion
# over the first database's positions.
groups="key_hi, key_lo, uci, rating_group, speed, year, month"
sums="SUM(games) AS games, SUM(white) AS white, SUM(draws) AS draws, SUM(black) AS black, \
SUM(rating_sum) AS rating_sum, SUM(rated) AS rated"
popular="explorer e JOIN (SELECT key_hi AS h, key_lo AS l FROM explorer GROUP BY key_hi, key_lo \
HAVING SUM(games) >= 32) k ON e.key_hi = k.h AND e.key_lo = k.l"
compare "groups of the explorer's popular positions" sql --csv \
  "SELECT COUNT(*) AS n FROM (SELECT $groups FROM $popular GROUP BY $groups)"
compare "the explorer's popular positions, summed per group" sql --csv \
  "SELECT $groups, $sums FROM $popular GROUP BY $groups ORDER BY $groups"
compared=$((compared + 1))
counted=$(grep -v '^--' "$root/sql/explorer.sql" | sed "s/\${max_ply}/$max_ply/")
"$tabla" db sql --db "$work/df" --csv \
  "SELECT $groups, $sums FROM ($counted) c GROUP BY $groups ORDER BY $groups" >"$work/a.out"
"$tabla" db sql --db "$work/spark" --csv \
  "SELECT $groups, $sums FROM explorer GROUP BY $groups ORDER BY $groups" >"$work/b.out"
if cmp -s "$work/a.out" "$work/b.out"; then
  echo "   same      crates/tabla-db/sql/explorer.sql on DataFusion over positions, and Spark's table ($(wc -l <"$work/a.out") lines)"
else
  differ=$((differ + 1))
  echo "   DIFFERENT crates/tabla-db/sql/explorer.sql on DataFusion over positions, and Spark's table"
  diff "$work/a.out" "$work/b.out" | head -20 | sed 's/^/      /'
fi
compared=$((compared + 1))
expected="key_hi bigint, key_lo bigint, uci string, rating_group bigint, speed string, year int, \
month int, games bigint, white bigint, draws bigint, black bigint, rating_sum bigint, rated bigint"
if grep -qxF "schema: $expected" "$work/spark.out"; then
  echo "   same      the columns Spark wrote and explorer_schema()'s"
else
  differ=$((differ + 1))
  echo "   DIFFERENT the columns Spark wrote: $(grep '^schema:' "$work/spark.out")"
  echo "      expected: $expected"
fi

# Players with the most counted games: overall, and among games with a known speed (lichess's).
player_query() {
  "$tabla" db sql --db "$work/df" --csv "SELECT name FROM (SELECT white AS name, speed, result \
    FROM games UNION ALL SELECT black, speed, result FROM games) \
    WHERE name IS NOT NULL AND name <> '?' AND result IN ('1-0', '0-1', '1/2-1/2') $1 \
    GROUP BY name ORDER BY COUNT(*) DESC, name LIMIT 1" |
    python3 -c 'import csv, sys; rows = list(csv.reader(sys.stdin)); print(rows[1][0])'
}
player1=$(player_query "")
player2=$(player_query "AND speed IS NOT NULL")
echo "   players: \"$player1\", \"$player2\""

positions=("" "e4" "e4 c5" "e4 e5 Nf3 Nc6" "d4 Nf6 c4 e6" "c4 e6 d4 Nf6" "d4 d5")
filters=(
  ""
  "--rating 1600-1999"
  "--rating 1600-2000"
  "--rating 2000-"
  "--speed blitz"
  "--speed bullet,rapid,classical"
  "--since 2015-01"
  "--until 2014-12"
  "--rating 1400-2199 --speed blitz --since 2013-01"
)
for moves in "${positions[@]}"; do
  for f in "${filters[@]}"; do
    # shellcheck disable=SC2086 # each filter string is its words
    compare "explore \"${moves:-start}\" ${f:-(no filter)}" explore --moves "$moves" $f --json
  done
  for player in "$player1" "$player2"; do
    compare "explore \"${moves:-start}\" --player \"$player\"" explore --moves "$moves" \
      --player "$player" --json
  done
done

echo "== Summary: $compared comparisons, $((compared - differ)) identical, $differ different" \
  "($with_games explore answers with games); Spark step $spark_seconds s"
if [ "$differ" -gt 0 ]; then
  echo "spark_check: Spark's aggregate differs from DataFusion's" >&2
  exit 1
fi
echo "spark_check: Spark's aggregate gives the same answers as DataFusion's"
