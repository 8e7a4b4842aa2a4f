#!/usr/bin/env bash
# Checks the engine review on Apache Spark (crates/tabla-db/spark/spark_review.py, Spark in local mode, Stockfish
# through python-chess or tabla's Python package) against `tabla review --json` and against
# `tabla db review` on the same games with the same engine and node budget, one thread per engine. Not run in CI: it needs PyPI's `pyspark` (3.5) and `chess`
# (or the `tabla` wheel), a Java 17 runtime (Debian's `openjdk-17-jre-headless`) and a UCI engine, and takes minutes.
#
# Steps, in a temporary directory:
#   1. the first N games of the PGN (default 20 of the corpus's lichess_db_1000k.pgn)
#   2. tabla convert --positions --out parquet --threads 1 --number-games 1   (game i is id i)
#   3. crates/tabla-db/spark/spark_review.py parquet --evaluator EVALUATOR --engine ENGINE --nodes NODES
#      (evaluates the distinct positions into parquet/evals/, then writes parquet/review/)
#   4. tabla review --json --engine ENGINE --nodes NODES --engines 1 --cache cache
#   5. tabla db import games.pgn --db db; tabla db review --db db --engine ENGINE --nodes NODES
#      --engines 1 (the database numbers the games 1, 2, ... as step 2 does)
#   6. compared with tabla review: every position's evaluation, choice and line (Spark's evals
#      table against the Parquet files of tabla's cache), every move's evaluation, choice, win
#      percentage, judgement and accuracy, and every side's accuracy, ACPL and marks (floats
#      within 1e-6); and the same with tabla db review's evals, review_moves and review_games
#      (read with `tabla db sql --json`).
#   BIN needs the feature `db` (cargo build --release -p tabla-cli --features db).
# Prints the differences and a summary; exits 1 on any difference, 2 when a tool is missing.
#
# Usage: crates/tabla-db/spark/spark_review_check.sh [--tabla BIN] [--engine PATH] [--nodes N] [--games N]
#                                      [--evaluator python-chess|tabla] [--python PY] [--keep] [PGN]
#   BIN: the tabla binary (default $TABLA_BIN, else target/release/tabla, else target/debug/tabla);
#   PY: a Python with pyspark, pyarrow and the evaluator's package (default $PYTHON, else python3);
#   ENGINE: default /usr/games/stockfish; NODES: default 20000; --keep: keep the directory.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)

tabla=${TABLA_BIN:-}
python=${PYTHON:-python3}
engine=/usr/games/stockfish
nodes=20000
count=20
evaluator=python-chess
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --tabla) tabla=$2; shift 2 ;;
    --engine) engine=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --games) count=$2; shift 2 ;;
    --evaluator) evaluator=$2; shift 2 ;;
    --python) python=$2; shift 2 ;;
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
if [ -z "$tabla" ] || ! "$tabla" review --help >/dev/null 2>&1 \
  || ! "$tabla" db review --help >/dev/null 2>&1; then
  echo "spark_review_check: no tabla binary with \`review\` and \`db review\` (${tabla:-none found});" \
    "build it (cargo build --release -p tabla-cli --features db) or give --tabla BIN" >&2
  exit 2
fi
corpus=${TABLA_CORPUS:+$root/$TABLA_CORPUS}
corpus=${corpus:-$root/../shared/data}
pgn=${1:-$corpus/pgn/lichess_db_1000k.pgn}
[ -f "$pgn" ] || { echo "spark_review_check: no $pgn; give a PGN" >&2; exit 2; }
[ -x "$engine" ] || { echo "spark_review_check: no engine $engine; give --engine" >&2; exit 2; }
java -version >/dev/null 2>&1 || {
  echo "spark_review_check: no Java; apt-get install openjdk-17-jre-headless" >&2
  exit 2
}
package=chess
[ "$evaluator" = tabla ] && package=tabla
"$python" -c "import pyspark, pyarrow, $package" 2>/dev/null || {
  echo "spark_review_check: $python lacks pyspark, pyarrow or $package;" \
    "pip install 'pyspark==3.5.*' pyarrow and chess (or the tabla wheel)" >&2
  exit 2
}

work=$(mktemp -d)
if [ "$keep" = 1 ]; then echo "keeping $work"; else trap 'rm -rf "$work"' EXIT; fi
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

echo "== tabla: $tabla"
echo "== engine: $engine ($("$engine" <<<$'uci\nquit' 2>/dev/null | grep -m1 '^id name' | cut -c9-)), $nodes nodes, one thread"
echo "== java: $(java -version 2>&1 | head -1)"
echo "== pyspark: $("$python" -c 'import pyspark; print(pyspark.__version__)'), evaluator: $evaluator"

echo "== 1. the first $count games of $pgn"
"$python" - "$pgn" "$count" "$work/games.pgn" <<'EOF'
import re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
starts = [m.start() for m in re.finditer(r"(?m)^\[Event ", text)]
count = int(sys.argv[2])
end = starts[count] if len(starts) > count else len(text)
open(sys.argv[3], "w", encoding="utf-8").write(text[starts[0]:end])
EOF

echo "== 2. tabla convert --positions --threads 1 --number-games 1"
"$tabla" convert --positions --out "$work/parquet" --threads 1 --number-games 1 "$work/games.pgn"

echo "== 3. Spark: crates/tabla-db/spark/spark_review.py --evaluator $evaluator --master local[2]"
t=$(now)
"$python" "$root/crates/tabla-db/spark/spark_review.py" "$work/parquet" --evaluator "$evaluator" \
  --engine "$engine" --nodes "$nodes" --master 'local[2]' \
  2>"$work/spark.err" >"$work/spark.out" || {
  cat "$work/spark.out" "$work/spark.err" >&2
  echo "spark_review_check: spark_review.py failed" >&2
  exit 1
}
sed 's/^/   /' "$work/spark.out"
spark_seconds=$(elapsed "$t")
echo "   $spark_seconds s (JVM start included)"

echo "== 4. tabla review --json --engine $engine --nodes $nodes --engines 1"
t=$(now)
"$tabla" review --json --engine "$engine" --nodes "$nodes" --engines 1 --cache "$work/cache" \
  --out "$work/tabla.ndjson" "$work/games.pgn" 2>&1 | tail -1 | sed 's/^/   /'
tabla_seconds=$(elapsed "$t")
echo "   $tabla_seconds s"

echo "== 5. tabla db import; tabla db review --engine $engine --nodes $nodes --engines 1"
t=$(now)
"$tabla" db import "$work/games.pgn" --db "$work/db" --threads 1 | tail -1 | sed 's/^/   /'
"$tabla" db review --db "$work/db" --engine "$engine" --nodes "$nodes" --engines 1 2>&1 \
  | tail -1 | sed 's/^/   /'
db_seconds=$(elapsed "$t")
echo "   $db_seconds s"
for table in evals review_moves review_games; do
  "$tabla" db sql --db "$work/db" --json "SELECT * FROM $table" > "$work/db_$table.json"
done

echo "== 6. Comparisons (Spark against tabla review, then against tabla db review)"
status=0
"$python" - "$work" <<'EOF' || status=$?
import glob, json, sys
import pyarrow.parquet as pq

work = sys.argv[1]
differences = []

def table(pattern):
    files = sorted(f for f in glob.glob(pattern, recursive=True))
    rows = []
    for f in files:
        rows.extend(pq.read_table(f).to_pylist())
    return rows

def differ(what, a, b):
    differences.append(what)
    if len(differences) <= 30:
        print(f"   DIFFERENT {what}: Spark {a!r}, tabla {b!r}")

def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) < 1e-6

# Every position's evaluation: Spark's evals table and tabla's cache (one folder).
spark_evals = {(r["key_hi"], r["key_lo"]): r for r in table(f"{work}/parquet/evals/*.parquet")}
cache_evals = {(r["key_hi"], r["key_lo"]): r for r in table(f"{work}/cache/**/*.parquet")}
if set(spark_evals) != set(cache_evals):
    differ("the positions evaluated", len(spark_evals), len(cache_evals))
same_evals = 0
for key in sorted(set(spark_evals) & set(cache_evals)):
    a, b = spark_evals[key], cache_evals[key]
    fields = ("cp", "mate", "best", "pv")
    if all(a[f] == b[f] for f in fields):
        same_evals += 1
    else:
        differ(f"evaluation of {key}", [a[f] for f in fields], [b[f] for f in fields])
print(f"   positions: {same_evals} of {len(cache_evals)} evaluations identical"
      f" (cp, mate, best, pv)")

moves = {}
for r in table(f"{work}/parquet/review/review_moves/*.parquet"):
    moves.setdefault(r["game_id"], []).append(r)
figures = {r["game_id"]: r for r in table(f"{work}/parquet/review/review_games/*.parquet")}
reviews = [json.loads(line) for line in open(f"{work}/tabla.ndjson", encoding="utf-8")]
checked_moves = marks = games = errors = 0
for i, review in enumerate(reviews):
    game_id = i + 1
    name = f"game {game_id}"
    if review["error"]:
        errors += 1
        if game_id in moves or game_id in figures:
            differ(f"{name}: reviewed by Spark, tabla says", "reviewed", review["error"])
        continue
    games += 1
    rows = sorted(moves.get(game_id, []), key=lambda r: r["ply"])
    if len(rows) != len(review["moves"]):
        differ(f"{name}: moves", len(rows), len(review["moves"]))
        continue
    for row, m in zip(rows, review["moves"]):
        what = f"{name}, ply {m['ply']} {m['san']}"
        ev = m["eval"] or {}
        pairs = [
            ("ply", row["ply"], m["ply"]),
            ("san", row["san"], m["san"]),
            ("uci", row["uci"], m["uci"]),
            ("cp", row["cp"], ev.get("cp")),
            ("mate", row["mate"], ev.get("mate")),
            ("best", row["best"], (m["best"] or {}).get("uci")),
            ("pv", (row["pv"] or "").split(), m["pv"]),
            ("judgement", row["judgement"], m["judgement"]),
        ]
        for field, a, b in pairs:
            if a != b:
                differ(f"{what}: {field}", a, b)
        for field in ("win", "accuracy"):
            if not close(row[field], m[field]):
                differ(f"{what}: {field}", row[field], m[field])
        checked_moves += 1
        marks += m["judgement"] is not None
    row = figures.get(game_id)
    if row is None:
        differ(f"{name}: figures", None, "a review")
        continue
    for side in ("white", "black"):
        s = review[side]
        if not close(row[f"{side}_accuracy"], s["accuracy"]):
            differ(f"{name}: {side} accuracy", row[f"{side}_accuracy"], s["accuracy"])
        for field, key in (("acpl", "acpl"), ("inaccuracies", "inaccuracies"),
                           ("mistakes", "mistakes"), ("blunders", "blunders")):
            if row[f"{side}_{field}"] != s[key]:
                differ(f"{name}: {side} {field}", row[f"{side}_{field}"], s[key])
extra = set(moves) - set(range(1, len(reviews) + 1))
if extra:
    differ("games Spark reviewed that tabla did not read", sorted(extra), [])
print(f"   reviews: {games} games ({errors} refused by both), {checked_moves} moves"
      f" ({marks} marked) compared: {len(differences)} differences")

# tabla db review: the same positions, moves and figures, from the database's tables.
before = len(differences)
db_evals = {(r["key_hi"], r["key_lo"]): r for r in json.load(open(f"{work}/db_evals.json"))}
if set(db_evals) != set(spark_evals):
    differ("the positions evaluated (tabla db review)", len(spark_evals), len(db_evals))
for key in sorted(set(spark_evals) & set(db_evals)):
    a, b = spark_evals[key], db_evals[key]
    for f in ("cp", "mate", "best", "pv"):
        if a[f] != b.get(f):
            differ(f"db evaluation of {key}: {f}", a[f], b.get(f))
db_moves = {(r["game_id"], r["ply"]): r for r in json.load(open(f"{work}/db_review_moves.json"))}
spark_moves = {(g, r["ply"]): r for g, rows in moves.items() for r in rows}
if set(db_moves) != set(spark_moves):
    differ("the moves reviewed (tabla db review)", len(spark_moves), len(db_moves))
for key in sorted(set(spark_moves) & set(db_moves)):
    a, b = spark_moves[key], db_moves[key]
    for f in ("san", "uci", "cp", "mate", "best", "judgement"):
        if a[f] != b.get(f):
            differ(f"db game {key[0]}, ply {key[1]}: {f}", a[f], b.get(f))
    for f in ("win", "accuracy"):
        if not close(a[f], b.get(f)):
            differ(f"db game {key[0]}, ply {key[1]}: {f}", a[f], b.get(f))
db_figures = {r["game_id"]: r for r in json.load(open(f"{work}/db_review_games.json")) if not r.get("error")}
if set(db_figures) != set(figures):
    differ("the games reviewed (tabla db review)", sorted(figures), sorted(db_figures))
for g in sorted(set(figures) & set(db_figures)):
    a, b = figures[g], db_figures[g]
    for side in ("white", "black"):
        if not close(a[f"{side}_accuracy"], b.get(f"{side}_accuracy")):
            differ(f"db game {g}: {side} accuracy", a[f"{side}_accuracy"], b.get(f"{side}_accuracy"))
        for field in ("acpl", "inaccuracies", "mistakes", "blunders"):
            if a[f"{side}_{field}"] != b.get(f"{side}_{field}"):
                differ(f"db game {g}: {side} {field}", a[f"{side}_{field}"], b.get(f"{side}_{field}"))
print(f"   tabla db review: {len(db_evals)} evaluations, {len(db_moves)} moves, {len(db_figures)} games"
      f" compared: {len(differences) - before} differences")
for g in sorted(figures)[:3]:
    r = figures[g]
    print(f"   game {g}: White {r['white_accuracy']:.1f}% ACPL {r['white_acpl']}"
          f" ({r['white_inaccuracies']}/{r['white_mistakes']}/{r['white_blunders']}),"
          f" Black {r['black_accuracy']:.1f}% ACPL {r['black_acpl']}"
          f" ({r['black_inaccuracies']}/{r['black_mistakes']}/{r['black_blunders']})")
sys.exit(1 if differences else 0)
EOF
echo "== Summary: Spark step $spark_seconds s, tabla review $tabla_seconds s, tabla db review $db_seconds s"
if [ "$status" != 0 ]; then
  echo "spark_review_check: Spark's review differs from tabla review's or tabla db review's" >&2
  exit 1
fi
echo "spark_review_check: Spark's review equals tabla review's and tabla db review's"
