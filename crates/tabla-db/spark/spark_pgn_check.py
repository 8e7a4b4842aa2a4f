#!/usr/bin/env python3
"""Checks the Spark data source of tabla's Python package (`tabla.spark`, Spark 4 in local mode)
against `tabla convert`: the same games and positions from the same PGN files. Not run in CI: it
needs PyPI's `pyspark` 4 (with `pyarrow`) and a Java 17 runtime (Debian's
`openjdk-17-jre-headless`), in a Python environment where `pip install ./crates/tabla-py` ran.

Steps, in a temporary directory:
  1. the inputs: the given PGN files (default: the corpus's pgn/*.pgn, else testdata/pgn), plus
     one made of all of them compressed by pzstd (several frames: Spark's partitions cut it at
     frames) and by zstd (one frame: read whole by one partition), when those tools are there;
  2. `tabla convert --positions --out parquet INPUTS` on every core;
  3. Spark, local[2]: `spark.read.format("pgn")` of the same inputs cut into --partitions
     pieces, the games and the positions tables;
  4. compared: the row counts, the game ids (each once), the plies per game, the positions'
     (game_id, ply, zobrist) rows.
Prints the figures; exit status 1 on any difference, 2 when a tool is missing.

Usage: python3 crates/tabla-db/spark/spark_pgn_check.py [--tabla BIN] [--partitions N] [--keep] [PGN...]
"""

import argparse
import collections
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))


def fail(message: str, status: int = 2) -> None:
    print(f"spark_pgn_check: {message}", file=sys.stderr)
    sys.exit(status)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="*", type=pathlib.Path)
    parser.add_argument("--tabla", type=pathlib.Path)
    parser.add_argument("--partitions", type=int, default=7)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    try:
        import pyarrow.dataset as ds
        from pyspark.sql import SparkSession

        import tabla.spark
    except ImportError as e:
        fail(f"{e}: pip install pyspark pyarrow ./crates/tabla-py")
    if shutil.which("java") is None:
        fail("no java: apt-get install openjdk-17-jre-headless")
    binary = args.tabla
    if binary is None:
        for candidate in (ROOT / "target" / "release" / "tabla", ROOT / "target" / "debug" / "tabla"):
            if candidate.exists():
                binary = candidate
                break
    if binary is None or not binary.exists():
        fail("no tabla binary: cargo build --release -p tabla-cli, or --tabla BIN")
    inputs = list(args.pgn)
    if not inputs:
        from corpus import corpus_path

        folder = corpus_path() / "pgn"
        if not folder.is_dir():
            folder = ROOT / "testdata" / "pgn"
        inputs = sorted(folder.glob("*.pgn"))

    work = pathlib.Path(tempfile.mkdtemp(prefix="spark-pgn-"))
    try:
        joined = work / "all.pgn"
        with open(joined, "wb") as out:
            for path in inputs:
                out.write(path.read_bytes())
                out.write(b"\n\n")
        if shutil.which("pzstd"):
            subprocess.run(["pzstd", "-q", "-1", "-p", "2", str(joined), "-o", str(work / "all-frames.pgn.zst")], check=True)
            inputs.append(work / "all-frames.pgn.zst")
        if shutil.which("zstd"):
            subprocess.run(["zstd", "-q", "-3", str(joined), "-o", str(work / "all-one.pgn.zst")], check=True)
            inputs.append(work / "all-one.pgn.zst")
        joined.unlink()
        names = [str(p) for p in inputs]
        print(f"{len(names)} inputs, {sum(p.stat().st_size for p in inputs):,} bytes")

        start = time.perf_counter()
        out = work / "parquet"
        subprocess.run([str(binary), "convert", *names, "--out", str(out), "--positions"], check=True, stdout=subprocess.DEVNULL)
        print(f"tabla convert: {time.perf_counter() - start:.1f} s")
        games_pq = ds.dataset(out / "games", format="parquet", partitioning="hive").to_table(columns=["game_id", "plies"])
        pos_pq = ds.dataset(out / "positions", format="parquet", partitioning="hive").to_table(columns=["game_id", "ply", "zobrist"])

        # Spark's Python workers run this interpreter, the one tabla is installed in.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        spark = (
            SparkSession.builder.master("local[2]")
            .appName("tabla-spark-pgn-check")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .getOrCreate()
        )
        tabla.spark.register(spark)
        start = time.perf_counter()
        reader = spark.read.format("pgn").option("partitions", str(args.partitions))
        games_sp = reader.load(",".join(names)).select("game_id", "plies").collect()
        positions_sp = (
            reader.option("table", "positions").load(",".join(names)).select("game_id", "ply", "zobrist").collect()
        )
        print(f"Spark, {args.partitions} partitions: {time.perf_counter() - start:.1f} s")
        spark.stop()

        problems = []
        want = dict(zip(games_pq["game_id"].to_pylist(), games_pq["plies"].to_pylist()))
        got = collections.Counter(r.game_id for r in games_sp)
        if len(want) != games_pq.num_rows:
            problems.append("tabla convert repeats a game id")
        if any(n > 1 for n in got.values()):
            problems.append(f"Spark gives {sum(n > 1 for n in got.values())} games more than once")
        if set(got) != set(want):
            problems.append(f"game ids differ: {len(set(want) - set(got))} missing in Spark, {len(set(got) - set(want))} extra")
        plies = {r.game_id: r.plies for r in games_sp}
        if plies != want:
            problems.append("plies differ")
        pos_want = collections.Counter(zip(pos_pq["game_id"].to_pylist(), pos_pq["ply"].to_pylist(), pos_pq["zobrist"].to_pylist()))
        pos_got = collections.Counter((r.game_id, r.ply, int(r.zobrist)) for r in positions_sp)
        if pos_got != pos_want:
            problems.append(f"positions differ: {sum((pos_want - pos_got).values())} missing, {sum((pos_got - pos_want).values())} extra")
        print(
            f"games: tabla convert {games_pq.num_rows:,}, Spark {len(games_sp):,}; "
            f"positions: tabla convert {pos_pq.num_rows:,}, Spark {len(positions_sp):,}"
        )
        for p in problems:
            print("DIFFERENCE:", p)
        print("same games and positions" if not problems else f"{len(problems)} differences")
        sys.exit(1 if problems else 0)
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
