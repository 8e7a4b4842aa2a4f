#!/usr/bin/env python3
"""Build the data set for tuning tabla-engine's evaluation (examples/tune.rs).

A development tool, not a test. Positions come from the games in ../shared/data/pgn (master
games from TWIC and world matches, lichess games), taken from ply 8 on, plus positions one random
legal move away from them (so that the set also holds unbalanced material). Positions in check,
or where the next move is a capture (an exchange under way), are left out; the tuner drops the
rest that are not quiet by its own static exchange evaluation. Each position is labelled with
Stockfish's score from a short search (`--depth`) and, for game positions, the game's result.

    crates/tabla-engine/scripts/tune_data.py [--out /tmp/tabla-tune/positions.txt] [--depth 8 | --nodes N]
                         [--limit N] [--random 0.5] [--stockfish PATH] [--sources FILE ...]
                         [--exclude PGN] [--mover]

Two runs over different sources (then concatenated) use both cores; the tuner drops repeats.
`--exclude` leaves out the games whose Site tag a PGN file holds (for instance the review
benchmark's games, scripts/bench/review_bench.py's games200.pgn, so that a network fitted to these
positions is not measured on them).

Writes one line per position: `FEN;score;result`, the score in centipawns from White's view
(mates as +-3000), the result 1, 0.5 or 0 for White, or `-` when unknown; with `--mover`, the score
and the result are the side to move's, as examples/nnue_train.rs reads them (and a result that is
unknown is written 0.5, which its default `--lambda 0` ignores). The file is large: keep it out of
the repository.
"""

import argparse
import pathlib
import random
import shutil
import sys

import chess.pgn

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[2] / "scripts")]  # shared_games.py; corpus.py
from corpus import corpus_dir  # noqa: E402
from shared_games import standard_games  # noqa: E402
from stockfish_pipe import Stockfish  # noqa: E402

SOURCES = [
    "twic1599_1000k.pgn",
    "world_matches.pgn",
    "dortmund-latin1.pgn",
    "lichess_db_1000k.pgn",
    "kasparov-deep-blue-1997.pgn",
]
RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def sites(path):
    """The Site tags of the games of the PGN file `path`."""
    found = set()
    with open(path, encoding="latin-1") as f:
        while (headers := chess.pgn.read_headers(f)) is not None:
            found.add(headers.get("Site", ""))
    found.discard("")
    return found


def positions(rng, random_share, sources, games=True, excluded=frozenset()):
    """(FEN, result or None) of the games' positions, and of random moves away from them; the
    games whose Site is in `excluded` are left out."""
    seen = set()
    for game in standard_games(sources):
        if game.headers.get("Site") in excluded:
            continue
        result = RESULTS.get(game.headers.get("Result", "*"))
        board = game.board()
        moves = list(game.mainline_moves())
        for ply, mv in enumerate(moves):
            if ply >= 8 and not board.is_check() and not board.is_capture(mv):
                key = board.epd()
                if games and key not in seen:
                    seen.add(key)
                    yield board.fen(), result
                if rng.random() < random_share:
                    legal = list(board.legal_moves)
                    other = rng.choice(legal)
                    if not board.is_capture(other):
                        board.push(other)
                        key = board.epd()
                        if (
                            not board.is_check()
                            and not board.is_game_over()
                            and key not in seen
                        ):
                            seen.add(key)
                            yield board.fen(), None
                        board.pop()
            board.push(mv)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/tabla-tune/positions.txt")
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--nodes", type=int, help="label by a search of N nodes, not --depth")
    parser.add_argument("--exclude", help="leave out the games whose Site this PGN file holds")
    parser.add_argument(
        "--mover", action="store_true", help="score and result from the side to move's view"
    )
    parser.add_argument("--limit", type=int, help="stop after this many positions")
    parser.add_argument("--random", type=float, default=0.5, help="share of random side steps")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--side-steps-only",
        action="store_true",
        help="only the random side steps (a further run with another seed)",
    )
    parser.add_argument(
        "--sources", nargs="+", default=SOURCES, help="PGN files of the corpus's pgn/, in order"
    )
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    args = parser.parse_args()
    corpus_dir()  # exit status 2 now, not after starting engines, when it is missing

    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    sf = Stockfish(args.stockfish)
    count = 0
    with open(out, "w") as f:
        excluded = sites(args.exclude) if args.exclude else frozenset()
        found = positions(rng, args.random, args.sources, not args.side_steps_only, excluded)
        for fen, result in found:
            cp = sf.score(fen, args.depth, args.nodes)
            black = " b " in fen
            if args.mover:
                result = 0.5 if result is None else (1.0 - result if black else result)
            elif black:
                cp = -cp
            label = "-" if result is None else f"{result:g}"
            f.write(f"{fen};{cp};{label}\n")
            count += 1
            if count % 1000 == 0:
                f.flush()
                print(f"{count} positions", file=sys.stderr, flush=True)
            if args.limit and count >= args.limit:
                break
    sf.close()
    print(f"{count} positions written to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
