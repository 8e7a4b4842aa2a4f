#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Scores the positions of a data set for the evaluation network again, with Stockfish's static
evaluation (its `eval` command, no search) in place of the search's score.

A development tool, not a test. Reads `FEN;score;result` lines (nnue_data.py's) and writes the
same positions with Stockfish 15.1's static evaluation in centipawns for the side to move, so
that the network can be trained to the evaluation itself rather than to a shallow search of it.
It is about four times as fast as labelling at depth 5 (some 5,000 positions a second a
process). Positions Stockfish gives no evaluation for (in check) are left out. Measured, not
kept: docs/lab/performance-log.md, "Engine review".

    crates/tabla-engine/scripts/nnue_relabel.py IN.txt OUT.txt [--stockfish PATH]
"""

import argparse
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from stockfish_pipe import Stockfish  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    args = parser.parse_args()
    sf = Stockfish(args.stockfish)
    kept = skipped = 0
    with open(args.input, encoding="utf-8") as src, open(args.output, "w") as out:
        for n, line in enumerate(src, 1):
            parts = line.rstrip("\n").split(";")
            if len(parts) != 3:
                print(f"{args.input}:{n}: not FEN;score;result, skipped", file=sys.stderr)
                skipped += 1
                continue
            cp = sf.static_eval(parts[0])
            if cp is None:
                skipped += 1
                continue
            out.write(f"{parts[0]};{cp};{parts[2]}\n")
            kept += 1
    sf.close()
    print(f"{kept} positions scored, {skipped} left out")


if __name__ == "__main__":
    main()
