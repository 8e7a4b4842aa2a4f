"""Raw PGN on Spark: a Python data source (Spark 4) that reads ``.pgn`` and ``.pgn.zst`` files
straight into the tables of ``tabla convert``, no conversion step::

    from pyspark.sql import SparkSession
    import tabla.spark

    spark = SparkSession.builder.getOrCreate()
    tabla.spark.register(spark)
    games = spark.read.format("pgn").load("/data/lichess_db_standard_rated_2013-*.pgn.zst")
    positions = spark.read.format("pgn").option("table", "positions").load("/data/*.pgn.zst")

Options: ``table`` (``games``, the default, or ``positions``) and ``partitions`` (how many
pieces the files are cut into: byte ranges of plain files and the zstd frames of pzstd files,
as ``tabla convert`` cuts them; default twice the driver's cores). ``path`` may hold several
paths separated by commas, each a glob pattern, on a file system every executor sees.

Spark has no unsigned integers: ``plies`` (UInt32) comes as a long and ``zobrist`` (UInt64) as
``decimal(20,0)``, the types Spark gives those columns when it reads ``tabla convert``'s Parquet.
Needs ``pyspark`` 4 and ``pyarrow`` beside ``tabla``.
"""

import glob
import os

import pyarrow as pa
from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

from . import _tabla, read_pgn_arrow

__all__ = ["PgnDataSource", "register"]


def _spark_type(t: pa.DataType) -> pa.DataType:
    """An Arrow type Spark reads (unsigned integers widened, nested types by their parts)."""
    if t == pa.uint64():
        return pa.decimal128(20, 0)
    if pa.types.is_unsigned_integer(t):
        return pa.int64()
    if pa.types.is_list(t):
        return pa.list_(pa.field(t.value_field.name, _spark_type(t.value_type), t.value_field.nullable))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, _spark_type(f.type), f.nullable) for f in t])
    return t


def _spark_schema(table: str) -> pa.Schema:
    schema = pa.RecordBatchReader.from_stream(_tabla.empty_table_stream(table)).schema
    return pa.schema([pa.field(f.name, _spark_type(f.type), f.nullable) for f in schema])


def _files(path: str) -> list[str]:
    files = []
    for pattern in (p.strip() for p in path.split(",")):
        if not pattern:
            continue
        matched = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        if not matched:
            raise FileNotFoundError(f"no file matches {pattern!r}")
        files.extend(matched)
    if not files:
        raise ValueError("the pgn data source needs a path: spark.read.format('pgn').load(PATH)")
    return files


class _Slice(InputPartition):
    def __init__(self, part: int, parts: int):
        super().__init__((part, parts))
        self.part, self.parts = part, parts


class _Reader(DataSourceReader):
    def __init__(self, files: list[str], table: str, parts: int, schema: pa.Schema):
        self.files, self.table, self.parts, self.schema = files, table, parts, schema

    def partitions(self):
        return [_Slice(k, self.parts) for k in range(self.parts)]

    def read(self, partition):
        piece = (partition.part, partition.parts)
        if self.table == "positions":
            _, table = read_pgn_arrow(self.files, positions=True, threads=1, slice=piece)
        else:
            table = read_pgn_arrow(self.files, threads=1, slice=piece)
        yield from table.cast(self.schema).to_batches()


class PgnDataSource(DataSource):
    """``spark.read.format("pgn")``: PGN and ``.pgn.zst`` files as ``tabla convert``'s tables."""

    @classmethod
    def name(cls) -> str:
        return "pgn"

    def _table(self) -> str:
        table = self.options.get("table", "games")
        if table not in ("games", "positions"):
            raise ValueError(f"option table={table!r}: 'games' or 'positions'")
        return table

    def schema(self):
        from pyspark.sql.pandas.types import from_arrow_schema

        return from_arrow_schema(_spark_schema(self._table()))

    def reader(self, schema):
        table = self._table()
        files = _files(self.options.get("path", ""))
        parts = int(self.options.get("partitions", 2 * (os.cpu_count() or 1)))
        if parts < 1:
            raise ValueError(f"option partitions={parts}: at least 1")
        return _Reader(files, table, parts, _spark_schema(table))


def register(spark) -> None:
    """Makes ``spark.read.format("pgn")`` available in this session."""
    spark.dataSource.register(PgnDataSource)
