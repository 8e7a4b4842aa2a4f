"""Engine review of games, as lichess reviews them: ``tabla.review``, ``tabla.Engine`` and the
``Review`` they answer with (``Side``, ``MoveReview``, ``BestMove``).

A review evaluates every position of a game's mainline with an engine (tabla's own, in process,
or any UCI engine such as Stockfish), marks each move by lichess's published rules (inaccuracy,
mistake, blunder) and gives each move and each side an accuracy and each side its average
centipawn loss. Its shape is the JSON of ``tabla review --json``: ``Review.to_dict()`` is that
object.

    >>> import tabla
    >>> r = tabla.review("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0", depth=6)[0]
    >>> r.moves[5].san, r.moves[5].judgement, r.moves[5].eval
    ('Nf6', 'Blunder', Eval(mate=1))
    >>> r.black.blunders, r.moves[5].best.san != "Nf6"
    (1, True)
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterable, Mapping

from . import _tabla
from ._tabla import Eval, Game, TablaError

__all__ = ["DEFAULT_NODES", "BestMove", "Engine", "MoveReview", "Review", "Side", "review"]

DEFAULT_NODES: int = _tabla.DEFAULT_NODES
"""Nodes searched in each position when no budget is given (``tabla review``'s default too)."""


@dataclasses.dataclass(frozen=True)
class BestMove:
    """The engine's choice in a position: the move in SAN and in UCI."""

    san: str
    uci: str

    def to_dict(self) -> dict:
        return {"san": self.san, "uci": self.uci}


def _eval_dict(e: Eval | None) -> dict | None:
    if e is None:
        return None
    return {"cp": e.cp} if e.cp is not None else {"mate": e.mate}


def _eval(d: Mapping | None) -> Eval | None:
    if d is None:
        return None
    return Eval(cp=d["cp"]) if "cp" in d else Eval(mate=d["mate"])


@dataclasses.dataclass(frozen=True)
class MoveReview:
    """One move's review.

    ``ply`` counts from 1 for White's first move of a game from the usual start; ``eval`` is the
    evaluation after the move from White's point of view (``None`` after a mating move, as
    lichess); ``best`` is the engine's choice before the move and ``pv`` its line (UCI moves;
    ``None`` and empty when the review is from ``[%eval]`` comments); ``win`` is White's win
    percentage after the move; ``judgement`` is ``"Inaccuracy"``, ``"Mistake"``, ``"Blunder"``
    or ``None``; ``accuracy`` is the move's, 0 to 100.
    """

    ply: int
    san: str
    uci: str
    eval: Eval | None
    best: BestMove | None
    pv: tuple[str, ...]
    win: float | None
    judgement: str | None
    accuracy: float | None

    @classmethod
    def from_dict(cls, d: Mapping) -> MoveReview:
        best = d.get("best")
        return cls(
            ply=d["ply"],
            san=d["san"],
            uci=d["uci"],
            eval=_eval(d.get("eval")),
            best=BestMove(best["san"], best["uci"]) if best is not None else None,
            pv=tuple(d.get("pv", ())),
            win=d.get("win"),
            judgement=d.get("judgement"),
            accuracy=d.get("accuracy"),
        )

    def to_dict(self) -> dict:
        return {
            "ply": self.ply,
            "san": self.san,
            "uci": self.uci,
            "eval": _eval_dict(self.eval),
            "best": self.best.to_dict() if self.best is not None else None,
            "pv": list(self.pv),
            "win": self.win,
            "judgement": self.judgement,
            "accuracy": self.accuracy,
        }


@dataclasses.dataclass(frozen=True)
class Side:
    """One side's figures: the player's ``name`` (the ``White`` or ``Black`` tag), the game
    ``accuracy`` (0 to 100) and average centipawn loss ``acpl`` (``None`` without a judged
    move), and how many of the side's moves are ``inaccuracies``, ``mistakes`` and
    ``blunders``."""

    name: str | None
    accuracy: float | None
    acpl: int | None
    inaccuracies: int
    mistakes: int
    blunders: int

    @classmethod
    def from_dict(cls, d: Mapping) -> Side:
        return cls(**{f.name: d[f.name] for f in dataclasses.fields(cls)})

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Review:
    """A game's review: ``white`` and ``black`` (``Side``), ``moves`` (a ``MoveReview`` for every
    mainline move, none when the game could not be reviewed) and ``error`` (why the game could
    not be reviewed, or ``None``). ``game`` is the ``Game`` reviewed (not part of ``to_dict`` or
    of comparisons)."""

    white: Side
    black: Side
    moves: tuple[MoveReview, ...]
    error: str | None
    game: Game | None = dataclasses.field(default=None, repr=False, compare=False)

    @classmethod
    def from_dict(cls, d: Mapping, game: Game | None = None) -> Review:
        """A review from its JSON object (``to_dict``, or a line of ``tabla review --json``)."""
        return cls(
            white=Side.from_dict(d["white"]),
            black=Side.from_dict(d["black"]),
            moves=tuple(MoveReview.from_dict(m) for m in d["moves"]),
            error=d.get("error"),
            game=game,
        )

    def to_dict(self) -> dict:
        """The review as the JSON object of ``tabla review --json``: ``{"white": {...},
        "black": {...}, "moves": [...], "error": ...}``, evaluations as ``{"cp": 17}`` or
        ``{"mate": -3}``."""
        return {
            "white": self.white.to_dict(),
            "black": self.black.to_dict(),
            "moves": [m.to_dict() for m in self.moves],
            "error": self.error,
        }

    def side(self, color: str) -> Side:
        """``"white"`` or ``"black"``'s figures."""
        if color not in ("white", "black"):
            raise TablaError(f'color={color!r}: expected "white" or "black"')
        return self.white if color == "white" else self.black

    def annotated_pgn(self) -> str:
        """The game annotated as ``tabla review`` writes it (and as lichess annotates): each
        move's ``[%eval]``, its mark as a NAG with a comment and the engine's line, the sides'
        accuracies and ACPL in the tags ``WhiteAccuracy``, ``BlackAccuracy``, ``WhiteACPL`` and
        ``BlackACPL``. A review with an ``error`` gives the game as read, unannotated.

            >>> r = tabla.review("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0", depth=6)[0]
            >>> "3... Nf6 $4" in r.annotated_pgn()
            True
        """
        if self.game is None:
            raise TablaError("this review has no game to annotate (it was made by from_dict)")
        return _tabla.annotated_pgn_of(self.game, json.dumps(self.to_dict()))


def _games(game_or_pgn) -> tuple[list[Game], bool]:
    """The games to review, and whether one ``Review`` (not a list) is the answer."""
    if isinstance(game_or_pgn, Game):
        return [game_or_pgn], True
    if isinstance(game_or_pgn, str):
        game_or_pgn = game_or_pgn.encode("utf-8")
    if isinstance(game_or_pgn, (bytes, bytearray, memoryview)):
        return list(_tabla.read_games(bytes(game_or_pgn))), False
    if isinstance(game_or_pgn, os.PathLike) or not isinstance(game_or_pgn, Iterable):
        raise TypeError(
            "review takes a Game, PGN text (str or bytes) or an iterable of Games, not "
            f"{type(game_or_pgn).__name__}; for a file, pass tabla.read_games(path)"
        )
    games = list(game_or_pgn)
    for g in games:
        if not isinstance(g, Game):
            raise TypeError(f"review takes an iterable of Games, and it held a {type(g).__name__}")
    return games, False


def _options(options) -> list[tuple[str, str]]:
    """Engine options as ``(name, value)`` pairs: from a mapping ``{"Hash": 64, "Ponder":
    False}`` (booleans as UCI's ``true``/``false``) or an iterable of ``"Name=Value"``."""
    if options is None:
        return []
    if isinstance(options, Mapping):
        pairs = []
        for name, value in options.items():
            if not isinstance(name, str):
                raise TypeError(f"engine option names are str, not {type(name).__name__}")
            if isinstance(value, bool):
                value = "true" if value else "false"
            elif isinstance(value, (int, str)):
                value = str(value)
            else:
                raise TypeError(
                    f"engine option {name!r}: a value is str, int or bool, not "
                    f"{type(value).__name__}"
                )
            pairs.append((name, value))
        return pairs
    if isinstance(options, (str, bytes)):
        options = [options]
    pairs = []
    for text in options:
        if not isinstance(text, str):
            raise TypeError(f"engine options are 'Name=Value' str, not {type(text).__name__}")
        # The rule of `--engine-option` (raises tabla.EngineError naming the text).
        pairs.append(_tabla.engine_option(text))
    return pairs


def _no_engine_arguments(**given) -> None:
    """Raises ``TablaError`` naming the engine arguments given (not ``None``) with
    ``from_evals=True``, which uses no engine."""
    extra = [name for name, value in given.items() if value is not None]
    if extra:
        raise TablaError(
            "from_evals=True judges the games' own [%eval] comments, without an engine: "
            f"drop {', '.join(extra)}"
        )


def _cache_dir(cache) -> str | None:
    """The evaluation-cache folder ``cache`` names: ``None``/``False`` none, ``True`` the
    default (as ``tabla review``), else the path given."""
    if cache is None or cache is False:
        return None
    if cache is True:
        folder = _tabla.default_cache_dir()
        if folder is None:
            raise TablaError("cache=True: no data directory ($XDG_DATA_HOME and $HOME unset)")
        return folder
    return os.fspath(cache)


class Engine:
    """Engines kept running for reviews: the UCI program at ``path`` with ``options`` set
    (``{"Hash": 64}`` or ``["Hash=64"]``), or ``"tabla"`` for tabla's own in process; without a
    ``path``, the default every command uses (``$TABLA_ENGINE``, else the engine ``tabla engine
    set`` chose, else tabla's own; ``options`` then go to that engine), ``engines``
    of them searching at once (one thread each; default: one per core). Every engine has
    started, and answered its handshake, when the constructor returns; a path that is not an
    engine, or an option it does not list, raises ``tabla.EngineError`` naming it.

    ``close()`` (or leaving the ``with`` block, or the object being garbage-collected) ends
    the engines and their processes; a closed engine raises ``tabla.EngineError``.

        >>> with tabla.Engine(engines=2) as engine:               # doctest: +SKIP
        ...     for game in tabla.read_games("games.pgn"):
        ...         print(engine.review(game, nodes=100_000).white.accuracy)
        >>> sf = tabla.Engine("/usr/games/stockfish", options={"Hash": 64})  # doctest: +SKIP
        >>> tabla.review(game, engine=sf, depth=12)               # doctest: +SKIP
    """

    def __init__(self, path=None, options=None, engines: int | None = None):
        path = None if path is None else os.fspath(path)
        self._native = _tabla.NativeEngine(path, _options(options), engines)

    @property
    def name(self) -> str:
        """The engine as it names itself, with its path (``in process`` for tabla's)."""
        return self._native.name

    @property
    def path(self) -> str | None:
        """The UCI engine's path, or ``None`` for tabla's own engine."""
        return self._native.path

    @property
    def engines(self) -> int:
        """How many engines search at once."""
        return self._native.size

    @property
    def closed(self) -> bool:
        return self._native.closed

    def review(
        self,
        game_or_pgn,
        *,
        nodes: int | None = None,
        depth: int | None = None,
        movetime: int | None = None,
        rules: str = "lichess",
        cache=None,
    ):
        """Reviews a ``Game`` (answer: a ``Review``), or the games of PGN text or of an iterable
        of ``Game``s (answer: a list of ``Review``s), as ``tabla.review`` does, with these
        engines. The GIL is released while they search.

        Each distinct position is searched once: the engine keeps its evaluations in memory
        for its later reviews at the same budget; ``cache=True`` keeps them in ``tabla
        review``'s evaluation cache (``evals`` in tabla's data directory), ``cache=PATH`` in
        that folder, across runs and shared with ``tabla review --cache PATH``."""
        games, single = _games(game_or_pgn)
        texts = self._native.review_json(
            games, nodes, depth, movetime, rules, _cache_dir(cache)
        )
        reviews = [Review.from_dict(json.loads(t), g) for t, g in zip(texts, games)]
        return reviews[0] if single else reviews

    def analyse(
        self,
        fen_or_fens,
        *,
        nodes: int | None = None,
        depth: int | None = None,
        movetime: int | None = None,
    ):
        """Analyses a position (a FEN: the answer is a ``dict``) or each of a list of them (a
        list of ``dict``s, in order) by a fresh search at the budget (``DEFAULT_NODES`` nodes
        when none is given), spread over the engines: ``{"cp", "mate", "best", "pv"}`` with
        the evaluation from White's point of view (answered without a search in a position
        without moves: ``mate`` 0 when the side to move is checkmated, ``cp`` 0 in stalemate),
        the engine's choice and its line in UCI; ``{"error"}`` for a
        FEN that cannot be read or a position the engine failed on twice.

            >>> with tabla.Engine(engines=1) as e:
            ...     e.analyse("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", depth=4)
            {'cp': None, 'mate': 1, 'best': 'a1a8', 'pv': ['a1a8']}
        """
        single = isinstance(fen_or_fens, str)
        fens = [fen_or_fens] if single else list(fen_or_fens)
        texts = self._native.analyse_json(fens, nodes, depth, movetime)
        answers = [json.loads(t) for t in texts]
        return answers[0] if single else answers

    def close(self) -> None:
        """Ends the engines and their processes (again: nothing)."""
        self._native.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"{self.engines} engines"
        return f"<tabla.Engine {self.name}, {state}>"


def review(
    game_or_pgn,
    engine=None,
    *,
    engine_options=None,
    nodes: int | None = None,
    depth: int | None = None,
    movetime: int | None = None,
    engines: int | None = None,
    rules: str = "lichess",
    from_evals: bool = False,
    cache=None,
):
    """Reviews games as lichess does: every position of the mainline evaluated, every move
    marked and given an accuracy, each side's accuracy and ACPL.

    ``game_or_pgn`` is a ``Game`` (the answer is one ``Review``), or PGN text as ``str`` or
    ``bytes``, or an iterable of ``Game``s such as ``tabla.read_games(path)`` (the answer is a
    list of ``Review``s, one per game, in order; the distinct positions of every 64 games are
    searched once). A game that cannot be reviewed (damaged PGN, an engine that fails twice on
    one of its positions, with ``from_evals`` a move without ``[%eval]``) is not an exception:
    its ``Review`` has ``error`` saying what and where (``the game could not be read to its end:
    game 1, 3:14, move 2.: "Ke3": ...``), and the other games are reviewed.

    ``engine``: ``None`` for the default engine (as ``tabla.Engine()``: tabla's own unless one
    is configured), ``"tabla"`` for tabla's own, the path of a UCI engine (started for
    this call with ``engine_options`` and ``engines``, ended after it), or an ``Engine`` to reuse.
    The budget of each position: one of ``nodes``, ``depth`` (plies) or ``movetime``
    (milliseconds); ``DEFAULT_NODES`` (450,000) nodes when none is given. ``engines``: how many
    search at once (default: one per core). ``rules``: ``"lichess"`` (the site's marks) or
    ``"lichess-database"`` (those of lichess's open-database files). ``from_evals=True``: no
    engine, the games' own ``[%eval]`` comments are judged (as lichess exports analysed games).
    ``cache``: ``True`` keeps the evaluations in ``tabla review``'s evaluation cache (``evals``
    in tabla's data directory), a path in that folder, so that a later review of the same
    positions with the same engine and budget searches none of them; default: none kept.

    Raises ``tabla.EngineError`` for an engine that cannot start (a path that is no engine, an
    option it does not list) or a badly written option, ``tabla.TablaError`` for other bad
    arguments, ``TypeError`` for a ``game_or_pgn`` of another type.

        >>> import tabla
        >>> game = next(tabla.read_games(b"1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0"))
        >>> r = tabla.review(game, depth=6)
        >>> [m.san for m in r.moves if m.judgement == "Blunder"], r.black.blunders
        (['Nf6'], 1)
        >>> tabla.review(game, "/usr/games/stockfish", nodes=50_000,   # doctest: +SKIP
        ...              engine_options={"Hash": 16}).moves[5].best.san
        'g6'
        >>> tabla.review(b"1. e4 { [%eval 0.2] } 1... e5 { [%eval 0.3] } *", from_evals=True)
        [Review(white=Side(name=None, accuracy=100.0, acpl=0, ...
    """
    games, single = _games(game_or_pgn)
    if from_evals:
        _no_engine_arguments(
            engine=engine,
            engine_options=engine_options,
            engines=engines,
            nodes=nodes,
            depth=depth,
            movetime=movetime,
            cache=cache,
        )
        texts = _tabla.from_evals_json(games, rules)
        reviews = [Review.from_dict(json.loads(t), g) for t, g in zip(texts, games)]
    elif isinstance(engine, Engine):
        if engine_options is not None or engines is not None:
            raise TablaError(
                "engine_options and engines are set when an Engine starts, not per review"
            )
        return engine.review(
            games[0] if single else games,
            nodes=nodes,
            depth=depth,
            movetime=movetime,
            rules=rules,
            cache=cache,
        )
    else:
        # The budget and rules checked before any engine starts.
        _tabla.check_review_args(nodes, depth, movetime, rules)
        with Engine(engine, engine_options, engines) as e:
            reviews = e.review(
                games, nodes=nodes, depth=depth, movetime=movetime, rules=rules, cache=cache
            )
    return reviews[0] if single else reviews
