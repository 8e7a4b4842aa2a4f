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

Errors are subclasses of ``ValueError`` (``TablaError`` and below) carrying tabla's messages.
"""

from ._tabla import (
    AmbiguousMoveError,
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
)

__all__ = [
    "AmbiguousMoveError",
    "Eval",
    "FenError",
    "Game",
    "GameMove",
    "GameReader",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Move",
    "Position",
    "TablaError",
    "__version__",
    "read_games",
]
