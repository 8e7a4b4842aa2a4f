#!/usr/bin/env python3
"""Writes the reference for tabla-pgn's real-world case files with python-chess as the oracle.

The case files (crates/tabla-pgn/tests/data/cases/*.pgn) are small PGN files written for the
awkward text that real collections hold: `[` at the start of a line inside a comment, `1/2` as a
result, unescaped quotes in tag values, junk between moves, a comment never closed. For every
game python-chess reads, one JSON object per line:

    {"file": ..., "game": n, "uci": [mainline moves up to python-chess's first error], "errors": k}

One file is read through a companion: python-chess reads a comment left open to the end of the
file, swallowing every later game, so for `unclosed-comment.pgn` it reads
`unclosed-comment.closed.pgn`, the same text with each open comment closed at the end of its
line (pgn-extract also swallows them: "Missing end of a nested comment").

Usage: python3 crates/tabla-pgn/tests/data/cases/gen_case_reference.py > crates/tabla-pgn/tests/data/cases/reference.jsonl
"""

import io
import json
import os
import sys

try:
    import chess
    import chess.pgn
except ImportError:
    sys.exit("python-chess is needed: pip install chess")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "..", "testdata"))
from gen_pgn_reference import decode  # noqa: E402

CASES = HERE
COMPANIONS = {"unclosed-comment.pgn": "unclosed-comment.closed.pgn"}


def main() -> None:
    out = sys.stdout
    names = sorted(
        n for n in os.listdir(CASES) if n.endswith(".pgn") and n not in COMPANIONS.values()
    )
    for name in names:
        with open(os.path.join(CASES, COMPANIONS.get(name, name)), "rb") as f:
            handle = io.StringIO(decode(f.read()))
        number = 0
        while (game := chess.pgn.read_game(handle)) is not None:
            number += 1
            board = game.board()
            uci = []
            for move in game.mainline_moves():
                uci.append(move.uci())
                board.push(move)
            record = {"file": name, "game": number, "uci": uci, "errors": len(game.errors)}
            out.write(json.dumps(record) + "\n")
    out.write(json.dumps({"python-chess": chess.__version__}) + "\n")


if __name__ == "__main__":
    main()
