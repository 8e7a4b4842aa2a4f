#!/usr/bin/env python3
"""The engine review of games (crates/tabla-db/sql/review.sql, crates/tabla-db/sql/review_games.sql) on Apache Spark: positions
evaluated on the executors, one engine per task, with no tabla code there beyond the `tabla`
Python package (and none at all with `--evaluator python-chess`).

Input: a directory written by `tabla convert --positions` (no --max-ply, or one above the
games' length: the review needs whole games), holding `positions/` and `games/`. Steps:

1. The positions of the games convert read to their end (`games.error` null: tabla review
   refuses the others).
2. Their distinct positions (by `key_hi`, `key_lo`; each with the FEN of its first occurrence,
   the smallest (game_id, ply), as tabla review takes it), less those the evals table already
   has, so that a second run over more games evaluates only the new positions.
3. Each evaluated by `mapInArrow`: every task starts one engine with one thread (and stops it
   at the task's end), and searches each position afresh (`ucinewgame`) with a fixed
   node budget, so that the answer does not depend on the task, the order or the machine. A
   position without a legal move is answered without searching: checkmate as mate 0, stalemate
   as cp 0, as tabla's engines answer them (crates/tabla-db/sql/review.sql relies on it).
4. The new rows appended to the evals table (`DIR/evals/`, or --evals): Parquet with
   tabla_review::evals_schema()'s columns key_hi, key_lo (bigint), cp, mate (int, White's point
   of view, one of them set), best (UCI, null without a legal move), pv (UCI moves separated by
   spaces). Beside them `_tabla.json` holds the engine, its options and the node budget; a run
   with others is refused (evaluations of two configurations must not mix), as tabla review
   keeps one cache folder per configuration.
5. crates/tabla-db/sql/review.sql over `positions` and `evals`, written to `OUT/review_moves/`, then
   crates/tabla-db/sql/review_games.sql over it, written to `OUT/review_games/` (OUT: DIR/review, or --out).

Evaluators (--evaluator):
- `tabla` (the default): `tabla.Engine(path=ENGINE or None, options={...}, engines=1)` and its
  `analyse(fens, nodes=N)`, which answers `cp`, `mate` (White's point of view), `best` and `pv`
  (UCI) for each FEN of an Arrow batch; ENGINE is a UCI engine's path, none for tabla's own
  engine.
- `python-chess`: python-chess's UCI driver (PyPI `chess`) running ENGINE as tabla review runs a
  UCI engine: `Threads=1` unless --engine-option sets it, `ucinewgame`, `position fen FEN` and
  `go nodes N`; the evaluation is the last report with an exact score (else the last bound), the
  line that report's, the choice that line's first move (the `bestmove` only without a line: a
  `bestmove` can come from an iteration the budget cut short).

Locally (PyPI `pyspark` 3.5, a Java 17 runtime such as Debian's `openjdk-17-jre-headless`, and
`chess` or `tabla` installed):

    tabla convert --positions --out /data/games games.pgn
    python3 crates/tabla-db/spark/spark_review.py /data/games --evaluator python-chess \\
        --engine /usr/games/stockfish --nodes 1000000

On a cluster the driver runs this script from a checkout (client deploy mode, so that it reads
crates/tabla-db/sql/ there; in cluster mode ship `--files crates/tabla-db/sql/review.sql,crates/tabla-db/sql/review_games.sql` and pass
`--sql-dir .`), and the executors need Python with `tabla` (or `chess`) and, for a UCI engine,
the engine's binary. The `tabla` wheel holds native code, which --py-files cannot ship: install
it in the nodes' image, or pack a virtual environment (`venv-pack`, `conda-pack`) and ship it
with --archives. Give each engine one core: tasks take one core each (`spark.task.cpus=1`, the
default) and each engine searches with one thread, so an executor with 8 cores runs 8 engines.
Spread the evaluation over many more tasks than cores (--tasks), so that slow positions even out.

    venv-pack -o review_env.tar.gz      # a venv with pyspark's and tabla's wheels
    spark-submit --master yarn --deploy-mode client \\
        --archives review_env.tar.gz#env --files /usr/games/stockfish \\
        --conf spark.pyspark.python=./env/bin/python \\
        --conf spark.pyspark.driver.python=$(which python3) \\
        --num-executors 50 --executor-cores 8 --executor-memory 8g \\
        crates/tabla-db/spark/spark_review.py s3a://bucket/games --evaluator tabla --engine stockfish \\
        --engine-option Hash=64 --nodes 1000000 --tasks 4000

An --engine that is not a path on the executor is looked up among the files shipped with
--files (SparkFiles), as `stockfish` above. Paths are Hadoop URIs (`s3a://`, `hdfs://`,
`file://`) or local paths.

Options: --evals DIR, --out DIR, --nodes N (default 450000, as tabla review), --engine PATH,
--engine-option NAME=VALUE (repeatable), --evaluator tabla|python-chess, --tasks N (evaluation
tasks; default 4 per core), --master URL (default local[2] outside spark-submit), --sql-dir DIR,
--overwrite (replace OUT's tables; the evals table is only ever appended to).

Checked against `tabla review --json` by crates/tabla-db/spark/spark_review_check.sh.
"""

import argparse
import json
import os
import pathlib
import sys
import time

SQL_DIR = pathlib.Path(__file__).resolve().parents[1] / "sql"


def join(base, name):
    """`base/name` for a local path or a URI (s3a://..., hdfs://...)."""
    return base.rstrip("/") + "/" + name


# --- Evaluation on the executors: nothing here but the standard library, pyarrow and the
# --- evaluator's package.

def _engine_path(path):
    """The engine's path on this machine: as given, else the file shipped with --files."""
    if path is None or os.path.exists(path):
        return path
    try:
        from pyspark import SparkFiles

        shipped = SparkFiles.get(os.path.basename(path))
        if os.path.exists(shipped):
            return shipped
    except Exception:  # noqa: BLE001 - outside Spark, or no such file: the path as given
        pass
    return path


class TablaEvaluator:
    """tabla's Python package: `tabla.Engine(...).analyse(fens, nodes=N)`."""

    def __init__(self, path, options):
        import tabla

        self.engine = tabla.Engine(path=_engine_path(path), options=options, engines=1)

    def evaluate_all(self, fens, nodes):
        rows = []
        for fen, answer in zip(fens, self.engine.analyse(fens, nodes=nodes)):
            if answer.get("error"):
                raise RuntimeError(f"{fen}: {answer['error']}")
            pv = answer.get("pv") or []
            if isinstance(pv, str):
                pv = pv.split()
            rows.append((answer.get("cp"), answer.get("mate"), answer.get("best"), " ".join(pv)))
        return rows

    def close(self):
        self.engine.close()


class PythonChessEvaluator:
    """A UCI engine through python-chess, driven as tabla review drives one."""

    def __init__(self, path, options):
        import chess.engine

        self.chess = chess
        self.engine = chess.engine.SimpleEngine.popen_uci(_engine_path(path))
        config = dict(options)
        if not any(name.lower() == "threads" for name in config):
            config["Threads"] = 1
        self.engine.configure(config)
        # python-chess turns UCI_AnalyseMode on for analyses unless told; tabla leaves the
        # engine's default.
        self.analysis_options = {}
        if "UCI_AnalyseMode" in self.engine.options and not any(
            name.lower() == "uci_analysemode" for name in config
        ):
            self.analysis_options["UCI_AnalyseMode"] = self.engine.options[
                "UCI_AnalyseMode"
            ].default

    def evaluate(self, fen, nodes):
        chess = self.chess
        board = chess.Board(fen)
        limit = chess.engine.Limit(nodes=nodes)
        exact, bound = None, None
        # A new game object each time: python-chess sends `ucinewgame`.
        with self.engine.analysis(
            board, limit, game=object(), options=self.analysis_options
        ) as analysis:
            for info in analysis:
                if "score" not in info or info.get("multipv", 1) != 1:
                    continue
                if info.get("lowerbound") or info.get("upperbound"):
                    bound = info
                else:
                    exact = info
            best = analysis.wait().move
        info = exact or bound
        cp = mate = None
        pv = []
        if info is not None:
            score = info["score"].white()
            if score.is_mate():
                mate = score.mate()
            else:
                cp = score.score()
            pv = [move.uci() for move in info.get("pv", [])]
        # The first move of the line the evaluation comes from: a `bestmove` can come from an
        # iteration the node budget cut short, whose score is unknown (tabla's rule).
        best = pv[0] if pv else (best.uci() if best else None)
        return cp, mate, best, " ".join(pv)

    def evaluate_all(self, fens, nodes):
        rows = []
        for fen in fens:
            ended = _without_moves(fen)
            rows.append((*ended, None, "") if ended else self.evaluate(fen, nodes))
        return rows

    def close(self):
        self.engine.quit()


def _without_moves(fen):
    """(cp, mate) of a position without a legal move (checkmate: mate 0, stalemate: cp 0), or
    None when it has one; tabla's engines answer these without searching."""
    import chess

    board = chess.Board(fen)
    if any(True for _ in board.legal_moves):
        return None
    return (None, 0) if board.is_check() else (0, None)


def _evaluator(kind, path, options):
    if kind == "tabla":
        return TablaEvaluator(path, options)
    return PythonChessEvaluator(path, options)


def evaluate_batches(kind, path, options, nodes):
    """The function mapInArrow runs: rows (key_hi, key_lo, fen) to evals rows."""
    import pyarrow as pa

    schema = pa.schema(
        [
            ("key_hi", pa.int64()),
            ("key_lo", pa.int64()),
            ("cp", pa.int32()),
            ("mate", pa.int32()),
            ("best", pa.string()),
            ("pv", pa.string()),
        ]
    )

    def run(batches):
        evaluator = None  # started at the task's first batch
        try:
            for batch in batches:
                rows = batch.to_pydict()
                if evaluator is None:
                    evaluator = _evaluator(kind, path, options)
                answers = evaluator.evaluate_all(rows["fen"], nodes)
                cp, mate, best, pv = zip(*answers) if answers else ([], [], [], [])
                columns = [rows["key_hi"], rows["key_lo"], list(cp), list(mate), list(best),
                           list(pv)]
                yield pa.RecordBatch.from_arrays(
                    [pa.array(c, type=f.type) for c, f in zip(columns, schema)], schema=schema
                )
        finally:
            if evaluator is not None:
                evaluator.close()

    return run


# --- The driver.


def read_sidecar(spark, path):
    jvm = spark.sparkContext._jvm
    hadoop_path = jvm.org.apache.hadoop.fs.Path(path)
    fs = hadoop_path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    if not fs.exists(hadoop_path):
        return None
    stream = fs.open(hadoop_path)
    reader = jvm.java.io.BufferedReader(jvm.java.io.InputStreamReader(stream, "UTF-8"))
    lines = []
    while True:
        line = reader.readLine()
        if line is None:
            break
        lines.append(line)
    reader.close()
    return json.loads("\n".join(lines))


def write_sidecar(spark, path, value):
    jvm = spark.sparkContext._jvm
    hadoop_path = jvm.org.apache.hadoop.fs.Path(path)
    fs = hadoop_path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    stream = fs.create(hadoop_path, True)
    stream.write(bytearray(json.dumps(value, sort_keys=True).encode()))
    stream.close()


def main():
    parser = argparse.ArgumentParser(
        description="Review the games of a `tabla convert --positions` directory on Spark: "
        "evaluate their distinct positions, then run crates/tabla-db/sql/review.sql and crates/tabla-db/sql/review_games.sql."
    )
    parser.add_argument("dir", help="directory (path or URI) holding positions/ and games/")
    parser.add_argument("--evals", help="the evals table (default DIR/evals)")
    parser.add_argument("--out", help="where the review tables go (default DIR/review)")
    parser.add_argument("--evaluator", choices=["tabla", "python-chess"], default="tabla")
    parser.add_argument("--engine", help="a UCI engine's path (tabla's own engine without)")
    parser.add_argument(
        "--engine-option", action="append", default=[], metavar="NAME=VALUE",
        help="an option of the UCI engine (repeatable)",
    )
    parser.add_argument("--nodes", type=int, default=450_000, help="nodes per position")
    parser.add_argument("--tasks", type=int, help="evaluation tasks (default 4 per core)")
    parser.add_argument("--master", help="Spark master (default: spark-submit's, else local[2])")
    parser.add_argument("--sql-dir", default=str(SQL_DIR), help="where review.sql is (crates/tabla-db/sql/)")
    parser.add_argument("--overwrite", action="store_true", help="replace OUT's tables")
    args = parser.parse_args()
    if args.evaluator == "python-chess" and not args.engine:
        parser.error("--evaluator python-chess needs --engine PATH (a UCI engine)")
    if args.nodes < 1:
        parser.error("--nodes: at least 1")
    options = {}
    for text in args.engine_option:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            parser.error(f"--engine-option {text!r}: NAME=VALUE")
        options[name.strip()] = value
    queries = {}
    for name in ("review.sql", "review_games.sql"):
        try:
            queries[name] = (pathlib.Path(args.sql_dir) / name).read_text(encoding="utf-8")
        except OSError as e:
            parser.error(f"--sql-dir {args.sql_dir}: {name}: {e.strerror}")
    evals_dir = args.evals or join(args.dir, "evals")
    out = args.out or join(args.dir, "review")
    config = {
        "evaluator": "tabla" if args.evaluator == "tabla" else "uci",
        "engine": os.path.basename(args.engine) if args.engine else "tabla",
        "options": options,
        "nodes": args.nodes,
    }

    from pyspark.errors import AnalysisException
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    builder = SparkSession.builder.appName("tabla review")
    under_submit = "PYSPARK_GATEWAY_PORT" in os.environ
    master = args.master or (None if under_submit else "local[2]")
    if master:
        builder = builder.master(master)
    if (master or "").startswith("local"):
        # Local workers run this Python, which has the evaluator's package.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    start = time.monotonic()

    # 1. The positions of the games read to their end.
    positions = spark.read.parquet(join(args.dir, "positions"))
    try:
        games = spark.read.parquet(join(args.dir, "games"))
        broken = games.where(F.col("error").isNotNull()).select("game_id")
        positions = positions.join(broken, "game_id", "left_anti")
    except AnalysisException:
        print("no games/ table: every game taken as read to its end", file=sys.stderr)
    positions = positions.select(
        "game_id", "ply", "key_hi", "key_lo", "fen", "san", "uci", "next_uci"
    )

    # 2. The distinct positions the evals table lacks.
    existing = None
    sidecar = read_sidecar(spark, join(evals_dir, "_tabla.json"))
    if sidecar is not None and sidecar != config:
        print(
            f"{evals_dir} holds evaluations of {json.dumps(sidecar, sort_keys=True)}, not of "
            f"{json.dumps(config, sort_keys=True)}: give another --evals",
            file=sys.stderr,
        )
        return 2
    try:
        existing = spark.read.parquet(evals_dir).select("key_hi", "key_lo")
    except AnalysisException:
        pass
    distinct = positions.groupBy("key_hi", "key_lo").agg(
        F.min(F.struct("game_id", "ply", "fen")).alias("first")
    ).select("key_hi", "key_lo", F.col("first.fen").alias("fen"))
    if existing is not None:
        distinct = distinct.join(existing, ["key_hi", "key_lo"], "left_anti")
    # 3. Evaluated, one engine per task.
    tasks = args.tasks or 4 * spark.sparkContext.defaultParallelism
    evals_ddl = "key_hi bigint, key_lo bigint, cp int, mate int, best string, pv string"
    evaluated = distinct.repartition(tasks).mapInArrow(
        evaluate_batches(args.evaluator, args.engine, options, args.nodes), evals_ddl
    )
    # 4. Appended to the evals table.
    write_sidecar(spark, join(evals_dir, "_tabla.json"), config)
    evaluated.write.mode("append").option("compression", "zstd").parquet(evals_dir)
    evals = spark.read.parquet(evals_dir)
    evaluated_seconds = time.monotonic() - start
    new = evals.count() - (existing.count() if existing is not None else 0)
    print(f"{evals_dir}: {new} positions evaluated in {evaluated_seconds:.1f} s", flush=True)

    # 5. The review tables.
    positions.createOrReplaceTempView("positions")
    evals.createOrReplaceTempView("evals")
    mode = "overwrite" if args.overwrite else "errorifexists"
    moves_dir, games_dir = join(out, "review_moves"), join(out, "review_games")
    spark.sql(queries["review.sql"]).write.mode(mode).option("compression", "zstd").parquet(
        moves_dir
    )
    spark.read.parquet(moves_dir).createOrReplaceTempView("review_moves")
    spark.sql(queries["review_games.sql"]).write.mode(mode).option(
        "compression", "zstd"
    ).parquet(games_dir)
    moves = spark.read.parquet(moves_dir).count()
    reviewed = spark.read.parquet(games_dir).count()
    seconds = time.monotonic() - start
    print(f"{out}: {reviewed} games, {moves} moves reviewed in {seconds:.1f} s", flush=True)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
