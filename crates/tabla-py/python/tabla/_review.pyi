"""Type stubs of tabla._review: tabla.review, tabla.Engine and the Review they answer with."""

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, overload

from ._tabla import Eval, Game

DEFAULT_NODES: int

Rules = Literal["lichess", "lichess-database", "lichess_database"]
Judgement = Literal["Inaccuracy", "Mistake", "Blunder"]
QueryOptions = Mapping[str, str | int | bool] | Iterable[str]
Pgn = str | bytes | bytearray | memoryview

@dataclass(frozen=True)
class BestMove:
    san: str
    uci: str
    def to_dict(self) -> dict[str, str]: ...

@dataclass(frozen=True)
class MoveReview:
    ply: int
    san: str
    uci: str
    eval: Eval | None
    best: BestMove | None
    pv: tuple[str, ...]
    win: float | None
    judgement: Judgement | None
    accuracy: float | None
    @classmethod
    def from_dict(cls, d: Mapping[str, object]) -> MoveReview: ...
    def to_dict(self) -> dict[str, object]: ...

@dataclass(frozen=True)
class Side:
    name: str | None
    accuracy: float | None
    acpl: int | None
    inaccuracies: int
    mistakes: int
    blunders: int
    @classmethod
    def from_dict(cls, d: Mapping[str, object]) -> Side: ...
    def to_dict(self) -> dict[str, object]: ...

@dataclass(frozen=True)
class Review:
    white: Side
    black: Side
    moves: tuple[MoveReview, ...]
    error: str | None
    game: Game | None = None
    @classmethod
    def from_dict(cls, d: Mapping[str, object], game: Game | None = None) -> Review: ...
    def to_dict(self) -> dict[str, object]: ...
    def side(self, color: Literal["white", "black"]) -> Side: ...
    def annotated_pgn(self) -> str: ...

class Engine:
    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        options: QueryOptions | None = None,
        engines: int | None = None,
    ) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def path(self) -> str | None: ...
    @property
    def engines(self) -> int: ...
    @property
    def closed(self) -> bool: ...
    @overload
    def review(
        self,
        game_or_pgn: Game,
        *,
        nodes: int | None = None,
        depth: int | None = None,
        movetime: int | None = None,
        rules: Rules = "lichess",
        cache: bool | str | os.PathLike[str] | None = None,
    ) -> Review: ...
    @overload
    def review(
        self,
        game_or_pgn: Pgn | Iterable[Game],
        *,
        nodes: int | None = None,
        depth: int | None = None,
        movetime: int | None = None,
        rules: Rules = "lichess",
        cache: bool | str | os.PathLike[str] | None = None,
    ) -> list[Review]: ...
    @overload
    def analyse(
        self,
        fen_or_fens: str,
        *,
        nodes: int | None = None,
        depth: int | None = None,
        movetime: int | None = None,
    ) -> dict[str, Any]: ...
    @overload
    def analyse(
        self,
        fen_or_fens: Iterable[str],
        *,
        nodes: int | None = None,
        depth: int | None = None,
        movetime: int | None = None,
    ) -> list[dict[str, Any]]: ...
    def close(self) -> None: ...
    def __enter__(self) -> Engine: ...
    def __exit__(self, *exc: object) -> None: ...

@overload
def review(
    game_or_pgn: Game,
    engine: str | os.PathLike[str] | Engine | None = None,
    *,
    engine_options: QueryOptions | None = None,
    nodes: int | None = None,
    depth: int | None = None,
    movetime: int | None = None,
    engines: int | None = None,
    rules: Rules = "lichess",
    from_evals: bool = False,
    cache: bool | str | os.PathLike[str] | None = None,
) -> Review: ...
@overload
def review(
    game_or_pgn: Pgn | Iterable[Game],
    engine: str | os.PathLike[str] | Engine | None = None,
    *,
    engine_options: QueryOptions | None = None,
    nodes: int | None = None,
    depth: int | None = None,
    movetime: int | None = None,
    engines: int | None = None,
    rules: Rules = "lichess",
    from_evals: bool = False,
    cache: bool | str | os.PathLike[str] | None = None,
) -> list[Review]: ...
