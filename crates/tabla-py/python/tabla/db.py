"""A ``tabla db`` database from Python: the opening explorer, position search and SQL, with the
answers of ``tabla db explore --json`` and ``tabla db search --json`` as dicts::

    import tabla.db

    tabla.db.import_pgn("games.db", ["lichess_db_standard_rated_2013-01.pgn.zst"])
    db = tabla.db.open("games.db")
    answer = db.explore(moves="e4 e5", rating="2000-", speed="blitz,rapid")
    print(answer["games"], [(m["san"], m["games"]) for m in answer["moves"]])
    print(db.search(material="KRPvKR", limit=5)["total"])
    table = db.sql("SELECT speed, count(*) AS n FROM games GROUP BY speed")  # a pyarrow.Table

Filters (``explore``, ``search`` and ``review``), as text as on the command line: ``rating``
(``"1600-1999"``, ``"2000-"``, ``"-1500"``), ``speed`` (``"blitz,rapid"``), ``since`` and
``until`` (``"YYYY-MM"``; a game dated by its year alone is in when its whole year is),
``player`` (a name exactly as in the tags), ``player_match`` (a part of a name, in any case:
``"karpov"``) and ``color`` (``"white"`` or ``"black"``, with ``player`` or ``player_match``).
Bad arguments raise ``tabla.TablaError`` with the command line's message.
"""

import json
import os

from . import _tabla

if not hasattr(_tabla, "NativeDatabase"):
    raise ImportError(
        "tabla.db is not in this build of tabla: it was built without the cargo feature `db` "
        "(on by default); reinstall with `pip install ./crates/tabla-py`"
    )

__all__ = ["Database", "import_pgn", "open"]


class Database:
    """An open database directory (``tabla db import`` made it)."""

    def __init__(self, path, *, threads=None, memory=None):
        self._db = _tabla.NativeDatabase(os.fspath(path), threads, memory)

    def info(self) -> dict:
        """What the database holds: games, positions, table sizes, max-ply (``tabla db info``)."""
        return json.loads(self._db.info_json())

    def explore(self, fen=None, moves=None, **filters) -> dict:
        """The opening explorer at a position (``fen``, ``"startpos"`` by default, or ``moves``
        from the start): games, results and every move played from it, with top and recent
        games, as ``tabla db explore --json`` answers."""
        return json.loads(self._db.explore_json(fen, moves, **filters))

    def search(
        self,
        fen=None,
        moves=None,
        material=None,
        pattern=None,
        *,
        either_color=False,
        limit=20,
        offset=0,
        **filters,
    ) -> dict:
        """The games that reached a position (``fen`` or ``moves``, at any ply), a material
        balance (``material="KRPvKR"``, ``either_color``) or pieces on squares
        (``pattern="wKg1,wRf1,bKg8"``): ``{"total", "games": [...]}`` as ``tabla db search
        --json`` answers, ``limit`` games from ``offset``."""
        return json.loads(
            self._db.search_json(
                fen, moves, material, either_color, pattern, limit, offset, **filters
            )
        )

    def review(
        self,
        engine=None,
        *,
        engine_options=None,
        nodes: int | None = None,
        depth: int | None = None,
        movetime: int | None = None,
        engines: int | None = None,
        rules: str = "lichess",
        from_evals: bool = False,
        **filters,
    ) -> dict:
        """Reviews the games the ``filters`` select (those of ``explore``: ``rating``,
        ``speed``, ``since``, ``until``, ``player``, ``color``) into the tables ``review_moves``
        and ``review_games``, their evaluations into ``evals``, as ``tabla db review`` does:
        games reviewed before with the same engine, budget and rules are skipped, and each
        position is evaluated once (the ``evals`` table is the evaluation cache). ``engine``,
        ``engine_options``, ``nodes``, ``depth``, ``movetime``, ``engines``, ``rules`` and
        ``from_evals`` as for ``tabla.review``. Answers what the run did: ``{"engine",
        "rules", "selected", "already", "games", "positions", "evaluated", "from_cache",
        "errors", "not_evaluated", "engine_faults", "engine_notes", "hung", "warnings"}``:
        ``engine_notes`` says what the engine did wrong (a crash and its restart), ``hung`` why
        the run stopped early (the engine hung; the games left wait for the next run), and a
        game the engine failed on is not stored; query the reviews with ``sql``.

            >>> db.review(depth=8, player="DrNykterstein")             # doctest: +SKIP
            >>> db.sql("SELECT AVG(white_accuracy) FROM review_games")  # doctest: +SKIP
        """
        from ._review import Engine, _no_engine_arguments

        if from_evals:
            _no_engine_arguments(
                engine=engine,
                engine_options=engine_options,
                engines=engines,
                nodes=nodes,
                depth=depth,
                movetime=movetime,
            )
            return json.loads(self._db.review_json(None, None, None, None, rules, **filters))
        if isinstance(engine, Engine):
            if engine_options is not None or engines is not None:
                raise _tabla.TablaError(
                    "engine_options and engines are set when an Engine starts, not per review"
                )
            return json.loads(
                self._db.review_json(engine._native, nodes, depth, movetime, rules, **filters)
            )
        _tabla.check_review_args(nodes, depth, movetime, rules)
        with Engine(engine, engine_options, engines) as started:
            return json.loads(
                self._db.review_json(started._native, nodes, depth, movetime, rules, **filters)
            )

    def sql(self, query: str):
        """A read-only SQL query (DataFusion, with tabla's chess functions) over the tables
        ``games``, ``positions``, ``game_refs``, ``explorer``, and after reviews ``evals``,
        ``review_moves`` and ``review_games``: a ``pyarrow.Table``."""
        import pyarrow as pa

        return pa.RecordBatchReader.from_stream(self._db.sql(query)).read_all()


def open(path, *, threads=None, memory=None) -> Database:  # noqa: A001 (the module's verb)
    """Opens a database directory."""
    return Database(path, threads=threads, memory=memory)


def import_pgn(db, inputs, *, max_ply=None, threads=None, memory=None) -> dict:
    """Adds PGN or ``.pgn.zst`` files to a database (created when missing) as one import, as
    ``tabla db import`` does; returns what it added (games, errors, warnings, positions, ...)."""
    if isinstance(inputs, (str, bytes, os.PathLike)):
        inputs = [inputs]
    return _tabla.db_import(
        os.fspath(db), [os.fsdecode(p) for p in inputs], max_ply, threads, memory
    )
