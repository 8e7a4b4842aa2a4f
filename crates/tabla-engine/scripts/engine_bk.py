#!/usr/bin/env python3
"""Run an EPD test suite (default: Bratko-Kopec) against a UCI engine at a fixed time per position.

A benchmark, not a test: it reports how many positions the engine solves (its best move is one of
the `bm` moves) and, for each position, the move it chose and when it first settled on a right
answer.

    crates/tabla-engine/scripts/engine_bk.py [--engine PATH] [--epd FILE] [--time SECONDS] [--hash MIB]

Needs python-chess (`pip install chess`). The default engine is the release build of
`tabla-engine` (`cargo build --release -p tabla-engine`).
"""

import argparse
import pathlib
import sys
import time

import chess
import chess.engine

ROOT = pathlib.Path(__file__).resolve().parents[3]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=str(ROOT / "target/release/tabla-engine"))
    parser.add_argument(
        "--epd", default=str(ROOT / "testdata/epd/bratko-kopec.epd")
    )
    parser.add_argument("--time", type=float, default=1.0, help="seconds per position")
    parser.add_argument("--hash", type=int, default=64, help="hash table MiB")
    args = parser.parse_args()

    lines = [l.strip() for l in open(args.epd, encoding="utf-8") if l.strip()]
    solved = 0
    total_nodes = 0
    started = time.time()
    with chess.engine.SimpleEngine.popen_uci(args.engine) as engine:
        engine.configure({"Hash": args.hash})
        name = engine.id.get("name", args.engine)
        print(f"{name}: {args.epd} at {args.time:g} s a position")
        for line in lines:
            board, ops = chess.Board.from_epd(line)
            best = ops.get("bm", [])
            ident = ops.get("id", "?")
            first_right = None
            chosen = None
            nodes = 0
            with engine.analysis(board, chess.engine.Limit(time=args.time)) as analysis:
                for info in analysis:
                    pv = info.get("pv")
                    if pv:
                        chosen = pv[0]
                        nodes = info.get("nodes", nodes)
                        if chosen in best and first_right is None:
                            first_right = info.get("time", 0.0)
                        elif chosen not in best:
                            first_right = None
            if chosen is None:
                chosen = analysis.wait().move
            ok = chosen in best
            solved += ok
            total_nodes += nodes
            when = f"{first_right:.2f}s" if ok and first_right is not None else ""
            print(
                f"{ident:8} {'ok ' if ok else '-- '} played {board.san(chosen):8} "
                f"expected {' '.join(board.san(m) for m in best):14} {when}"
            )
    elapsed = time.time() - started
    print(f"solved {solved}/{len(lines)}  nodes {total_nodes}  wall {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
