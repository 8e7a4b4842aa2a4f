"""Type stubs of the package tabla (its native part in _tabla.pyi)."""

import os
from typing import Literal, overload

import pyarrow

from ._tabla import (
    AmbiguousMoveError as AmbiguousMoveError,
    EngineError as EngineError,
    Eval as Eval,
    FenError as FenError,
    Game as Game,
    GameMove as GameMove,
    GameReader as GameReader,
    IllegalMoveError as IllegalMoveError,
    InvalidMoveError as InvalidMoveError,
    InvalidPositionError as InvalidPositionError,
    Move as Move,
    Position as Position,
    TablaError as TablaError,
    __version__ as __version__,
    read_games as read_games,
)
from ._review import (
    DEFAULT_NODES as DEFAULT_NODES,
    BestMove as BestMove,
    Engine as Engine,
    MoveReview as MoveReview,
    Review as Review,
    Side as Side,
    review as review,
)

_Paths = str | os.PathLike[str] | list[str | os.PathLike[str]]

@overload
def read_pgn_arrow(
    paths: _Paths,
    positions: Literal[False] = False,
    threads: int | None = None,
    *,
    slice: tuple[int, int] | None = None,
) -> pyarrow.Table: ...
@overload
def read_pgn_arrow(
    paths: _Paths,
    positions: Literal[True],
    threads: int | None = None,
    *,
    slice: tuple[int, int] | None = None,
) -> tuple[pyarrow.Table, pyarrow.Table]: ...
