#!/usr/bin/env python3
"""The opening explorer's aggregate (crates/tabla-db/sql/explorer.sql) on Apache Spark, with no tabla code on the
machines that run it.

Input: a directory written by `tabla convert --positions --max-ply N-1`, holding `positions/`
and `games/` (Parquet, Hive-partitioned `year=Y/month=M`). The script registers both tables (games
only when it is there: the query reads only positions, which repeat their game's outcome, Elo sum
and speed) with Spark's partition discovery (`year` and `month` as int,
`__HIVE_DEFAULT_PARTITION__` as null), runs the text of crates/tabla-db/sql/explorer.sql with the literal
`${max_ply}` replaced by `--max-ply` (as `tabla db import` does), and writes the result as
Parquet into `DIR/explorer/` (or `--out`), sorted by key. `tabla db import DIR` then takes the
three tables as they are (no aggregation on the importing machine). The query casts every
output column to the type of tabla's `explorer` table (`key_hi`, `key_lo`, `rating_group`, the
counts: bigint; `year`, `month`: int; `uci`, `speed`: string), so the script writes the DataFrame
unchanged.

`--max-ply` must be the database's max-ply (tabla's default, 50), and the positions must cover
plies 0 to max-ply - 1: convert with `--max-ply` one less. Beside the Parquet files the script
writes `_tabla.json`, `{"max_ply": N}`: `tabla db import` refuses an aggregate without it or
made with another max-ply than the database's.

Locally (PyPI `pyspark` 3.5 and a Java 17 runtime, e.g. Debian's `openjdk-17-jre-headless`):

    tabla convert --positions --max-ply 49 --out /data/lichess games.pgn.zst
    python3 crates/tabla-db/spark/spark_explorer.py /data/lichess --max-ply 50
    tabla db import /data/lichess --db lichess.db --max-ply 50

On a cluster, the driver runs this script and the executors run only Spark: copy `positions/`
(all the query reads) to the cluster's storage, submit from a checkout of the repository (client
deploy mode, so the driver reads crates/tabla-db/sql/explorer.sql from the checkout), and copy `explorer/` back
beside `games/` and `positions/` for `tabla db import DIR`:

    spark-submit --master yarn --deploy-mode client \\
        --num-executors 50 --executor-memory 8g --executor-cores 4 \\
        crates/tabla-db/spark/spark_explorer.py s3a://bucket/lichess --max-ply 50 --partitions 2000
    spark-submit --master k8s://https://HOST:443 --deploy-mode client \\
        --conf spark.kubernetes.container.image=apache/spark-py:v3.5.x \\
        crates/tabla-db/spark/spark_explorer.py hdfs:///data/lichess --max-ply 50

In cluster deploy mode, ship the query with `--files crates/tabla-db/sql/explorer.sql` and pass
`--sql explorer.sql`. Under spark-submit, the master is spark-submit's unless `--master` is
given. Paths are Hadoop URIs (`s3a://`, `hdfs://`, `gs://`, `file://`) or local paths.

Options: --max-ply N (default 50), --master URL (default local[2] outside spark-submit),
--partitions N (the shuffle's partitions: at most that many explorer files; default Spark's),
--out DIR, --sql FILE, --overwrite (replace an existing explorer/).

Verified against `tabla db import` on DataFusion by crates/tabla-db/spark/spark_check.sh.
"""

import argparse
import json
import os
import pathlib
import sys
import time

DEFAULT_SQL = pathlib.Path(__file__).resolve().parents[1] / "sql" / "explorer.sql"


def join(base, name):
    """`base/name` for a local path or a URI (s3a://..., hdfs://...)."""
    return base.rstrip("/") + "/" + name


def main():
    parser = argparse.ArgumentParser(
        description="Run crates/tabla-db/sql/explorer.sql on Spark over a `tabla convert --positions` directory "
        "and write DIR/explorer/ for `tabla db import DIR`."
    )
    parser.add_argument("dir", help="directory (path or URI) holding positions/ (and games/)")
    parser.add_argument("--max-ply", type=int, default=50, help="the database's max-ply (50)")
    parser.add_argument(
        "--master", help="Spark master (default: spark-submit's, else local[2])"
    )
    parser.add_argument(
        "--partitions",
        type=int,
        help="shuffle partitions: at most that many explorer files (default Spark's)",
    )
    parser.add_argument("--out", help="where to write the aggregate (default DIR/explorer)")
    parser.add_argument("--sql", default=str(DEFAULT_SQL), help="the query (crates/tabla-db/sql/explorer.sql)")
    parser.add_argument("--overwrite", action="store_true", help="replace an existing output")
    args = parser.parse_args()
    if not 1 <= args.max_ply <= 1000:
        parser.error(f"--max-ply {args.max_ply}: from 1 to 1000, as tabla accepts")
    try:
        query = pathlib.Path(args.sql).read_text(encoding="utf-8")
    except OSError as e:
        parser.error(f"--sql {args.sql}: {e.strerror}; give the path of crates/tabla-db/sql/explorer.sql")
    if "${max_ply}" not in query:
        parser.error(f"--sql {args.sql}: no ${{max_ply}} in it; is it crates/tabla-db/sql/explorer.sql?")
    query = query.replace("${max_ply}", str(args.max_ply))
    out = args.out or join(args.dir, "explorer")

    from pyspark.errors import AnalysisException
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("tabla explorer aggregate")
    # spark-submit starts the JVM first and says so in PYSPARK_GATEWAY_PORT; a master set here
    # would override its --master.
    under_submit = "PYSPARK_GATEWAY_PORT" in os.environ
    master = args.master or (None if under_submit else "local[2]")
    if master:
        builder = builder.master(master)
    if args.partitions:
        builder = builder.config("spark.sql.shuffle.partitions", str(args.partitions))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")

    start = time.monotonic()
    for table in ("positions", "games"):
        # Partition discovery gives `year` and `month` (null for Hive's default partition).
        # Files starting with `.` (convert's unfinished ones) are skipped by Spark.
        try:
            frame = spark.read.parquet(join(args.dir, table))
        except AnalysisException:
            if table == "positions":
                raise
            continue
        # The casts are tabla's view over the files (crates/tabla-db/src/engine.rs); Spark infers
        # int already, except for a table whose partitions are all unknown.
        for column in ("year", "month"):
            frame = frame.withColumn(column, frame[column].cast("int"))
        frame.createOrReplaceTempView(table)
    aggregate = spark.sql(query)
    mode = "overwrite" if args.overwrite else "errorifexists"
    (
        aggregate.orderBy("key_hi", "key_lo", "uci")
        .write.mode(mode)
        .option("compression", "zstd")
        .parquet(out)
    )
    # Beside the aggregate, how it was made: `tabla db import` refuses an aggregate without it,
    # or made with another max-ply than the database's. Written through Hadoop's file system,
    # so that it lands wherever the Parquet files did (local, HDFS, S3). Spark skips files
    # starting with `_`; tabla reads only `*.parquet` as table data.
    jvm = spark.sparkContext._jvm
    sidecar = jvm.org.apache.hadoop.fs.Path(out + "/_tabla.json")
    fs = sidecar.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    stream = fs.create(sidecar, True)
    stream.write(bytearray(json.dumps({"max_ply": args.max_ply}).encode()))
    stream.close()
    seconds = time.monotonic() - start
    rows = spark.read.parquet(out).count()
    print(f"{out}: {rows} explorer rows (max-ply {args.max_ply}) in {seconds:.1f} s", flush=True)
    print("schema: " + ", ".join(f"{f.name} {f.dataType.simpleString()}"
                                 for f in aggregate.schema.fields), flush=True)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
