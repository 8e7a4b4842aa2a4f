#!/usr/bin/env python3
"""Time to depth with one and with more search threads: how much the helper threads help.

A benchmark, not a test. python-chess's chess.engine drives tabla-engine over UCI. Every round
searches the same middlegame and endgame positions to a fixed depth, once with one thread and once
with `--threads`, alternating which goes first; each configuration starts a fresh engine (empty
hash table). Prints each round's totals and the median speed-up. Give every thread a free core.

    crates/tabla-engine/scripts/engine_smp.py [--engine PATH] [--depth 17] [--threads 2] [--rounds 3] [--hash 64]
"""

import argparse
import pathlib
import statistics
import sys
import time

import chess
import chess.engine

ROOT = pathlib.Path(__file__).resolve().parents[3]

# Quiet middlegames of common openings, a pawn endgame and the Bh6 test position
# (docs/background.md).
POSITIONS = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "r1bqkb1r/pp3ppp/2n1pn2/2pp4/3P4/2PBPN2/PP3PPP/RNBQK2R w KQkq - 0 6",
    "2r2rk1/pp1bqppp/2n1pn2/3p4/3P4/2NBPN2/PPQ2PPP/2R2RK1 w - - 0 13",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/5pk1/6p1/3P4/8/6P1/5PK1/8 b - - 0 40",
    "6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40",
]


def total_time(engine_path, threads, depth, hash_mb):
    """Seconds to search every position to `depth` with `threads` threads."""
    engine = chess.engine.SimpleEngine.popen_uci(engine_path)
    try:
        engine.configure({"Threads": threads, "Hash": hash_mb})
        total = 0.0
        for fen in POSITIONS:
            start = time.perf_counter()
            engine.analyse(chess.Board(fen), chess.engine.Limit(depth=depth))
            total += time.perf_counter() - start
        return total
    finally:
        engine.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=str(ROOT / "target/release/tabla-engine"))
    parser.add_argument("--depth", type=int, default=17)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hash", type=int, default=64, help="MB, the same for both")
    args = parser.parse_args()
    ratios = []
    for r in range(args.rounds):
        order = [1, args.threads] if r % 2 == 0 else [args.threads, 1]
        times = {t: total_time(args.engine, t, args.depth, args.hash) for t in order}
        ratio = times[1] / times[args.threads]
        ratios.append(ratio)
        print(f"round {r + 1}: 1 thread {times[1]:.2f} s, {args.threads} threads "
              f"{times[args.threads]:.2f} s, speed-up {ratio:.2f}x", flush=True)
    print(f"median speed-up to depth {args.depth}: {statistics.median(ratios):.2f}x "
          f"over {args.rounds} rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
