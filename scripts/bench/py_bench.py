#!/usr/bin/env python3
"""Games a second of tabla's Python package against python-chess, the same file, the same run.

    python3 scripts/bench/py_bench.py [--runs 3] [FILE.pgn ...]

(default: testdata/pgn/lichess_db_1000k.pgn and twic1599_1000k.pgn), in a Python environment
where `pip install ./crates/tabla-py chess pyarrow` has been run. For each file: python-chess's
`chess.pgn.read_game` in a loop, each game's mainline SAN computed on a board as it is replayed;
then `tabla.read_games`, each game's mainline SAN read from its moves; then
`tabla.read_pgn_arrow` on 2 threads (the games table, moves as UCI). Prints the median of
`--runs` runs of each (games/s; a run repeats a reading for at least half a second) and the
ratios. The machine is shared: run it with nothing else of
yours running.
"""

import argparse
import io
import pathlib
import statistics
import sys
import time

import chess
import chess.pgn

import pyarrow
import pyarrow.compute

import tabla

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "crates" / "tabla-py" / "tests"))
from conftest import decode  # noqa: E402  (tabla's reading of bytes as text)


def python_chess(text: str) -> tuple[int, int]:
    games = plies = 0
    handle = io.StringIO(text)
    while (game := chess.pgn.read_game(handle)) is not None:
        board = game.board()
        for move in game.mainline_moves():
            board.san(move)
            board.push(move)
            plies += 1
        games += 1
    return games, plies


def tabla_games(path: pathlib.Path) -> tuple[int, int]:
    games = plies = 0
    for game in tabla.read_games(path):
        plies += len([m.san for m in game.moves])
        games += 1
    return games, plies


def tabla_arrow(path: pathlib.Path) -> tuple[int, int]:
    games = tabla.read_pgn_arrow(path, threads=2)
    return games.num_rows, int(pyarrow.compute.sum(games["plies"]).as_py())


def timed(f, arg, runs):
    """The median time of one call of f(arg) over `runs` runs; a run repeats the call until it
    has taken at least half a second (tabla reads a 1 MB file in a few milliseconds)."""
    start = time.perf_counter()
    out = f(arg)
    calls = max(1, int(0.5 / max(time.perf_counter() - start, 1e-6)))
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(calls):
            out = f(arg)
        times.append((time.perf_counter() - start) / calls)
    return statistics.median(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=pathlib.Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    files = args.files or [
        ROOT / "testdata" / "pgn" / "lichess_db_1000k.pgn",
        ROOT / "testdata" / "pgn" / "twic1599_1000k.pgn",
    ]
    print(f"python-chess {chess.__version__}, tabla {tabla.__version__}, median of {args.runs} runs")
    for path in files:
        text = decode(path.read_bytes())
        t_chess, (g1, p1) = timed(python_chess, text, args.runs)
        t_tabla, (g2, p2) = timed(tabla_games, path, args.runs)
        t_arrow, (g3, p3) = timed(tabla_arrow, path, args.runs)
        if not (g1, p1) == (g2, p2) == (g3, p3):
            sys.exit(
                f"{path.name}: python-chess read {g1} games {p1} plies, read_games {g2} games "
                f"{p2} plies, read_pgn_arrow {g3} games {p3} plies"
            )
        print(
            f"{path.name}: {g1} games, {p1} plies; python-chess {g1 / t_chess:,.0f} games/s; "
            f"tabla.read_games {g2 / t_tabla:,.0f} games/s ({t_chess / t_tabla:.1f}x); "
            f"tabla.read_pgn_arrow on 2 threads {g3 / t_arrow:,.0f} games/s ({t_chess / t_arrow:.1f}x)"
        )


if __name__ == "__main__":
    main()
