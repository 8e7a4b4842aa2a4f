"""tabla: chess in Rust for Python.

The game model (``Position``, ``Move``) and the PGN reader (``read_games``, ``Game``) of tabla,
a chess toolkit written in Rust, with an API that python-chess users find familiar::

    >>> import tabla
    >>> pos = tabla.Position()
    >>> pos.push_san("e4")
    Move.from_uci('e2e4')
    >>> pos.fen()
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1'
    >>> len(pos.legal_moves)
    20
    >>> game = next(tabla.read_games(b"1. e4 e5 2. Nf3 {[%clk 0:05:01]} *"))
    >>> [m.san for m in game.moves], game.moves[-1].clock
    (['e4', 'e5', 'Nf3'], 301.0)

Games reviewed as lichess reviews them, by tabla's engine or any UCI engine (``review``,
``Engine``; see ``help(tabla.review)``)::

    >>> r = tabla.review(game, depth=6)
    >>> r.moves[0].san, r.white.name
    ('e4', None)

Errors are subclasses of ``ValueError`` (``TablaError`` and below) carrying tabla's messages.
"""

import os as _os

from ._tabla import (
    AmbiguousMoveError,
    EngineError,
    Eval,
    FenError,
    Game,
    GameMove,
    GameReader,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Position,
    TablaError,
    __version__,
    read_games,
    read_pgn_streams as _read_pgn_streams,
)
from ._review import DEFAULT_NODES, BestMove, Engine, MoveReview, Review, Side, review


def read_pgn_arrow(paths, positions=False, threads=None, *, slice=None):
    """The games of PGN files (``.pgn`` or ``.pgn.zst``) as a ``pyarrow.Table``, built on every
    core: the columns of ``tabla convert``'s ``games`` table (tags, ``uci`` moves, ``plies``,
    ``final_fen``, ``error``, ``warnings``, ...), one row per game, damaged games included with
    their ``error``. With ``positions=True``, a tuple ``(games, positions)``: one row per
    position of every mainline (``zobrist`` as unsigned 64 bits, ``fen``, ``san``, ``uci``,
    ``ply``, ``game_id``, ...). ``threads`` defaults to every core. Rows come in the order the
    threads finish them. ``slice=(part, parts)`` reads one of ``parts`` pieces of the work (byte
    ranges and zstd frames, as ``tabla convert`` cuts its input): the pieces together hold every
    game once, which is how the Spark data source (``tabla.spark``) shares files out. Needs
    ``pyarrow``.

        >>> import tabla, pyarrow.compute as pc               # doctest: +SKIP
        >>> games = tabla.read_pgn_arrow("lichess_db_standard_rated_2013-01.pgn.zst")
        >>> pc.mean(games["plies"])
    """
    import pyarrow as pa

    if isinstance(paths, (str, bytes, _os.PathLike)):
        paths = [paths]
    games, positions_stream = _read_pgn_streams(
        [_os.fsdecode(p) for p in paths], positions, threads, slice
    )
    table = pa.RecordBatchReader.from_stream(games).read_all()
    if positions:
        return table, pa.RecordBatchReader.from_stream(positions_stream).read_all()
    return table


__all__ = [
    "DEFAULT_NODES",
    "AmbiguousMoveError",
    "BestMove",
    "Engine",
    "EngineError",
    "Eval",
    "FenError",
    "Game",
    "GameMove",
    "GameReader",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Move",
    "MoveReview",
    "Position",
    "Review",
    "Side",
    "TablaError",
    "__version__",
    "read_games",
    "read_pgn_arrow",
    "review",
]
