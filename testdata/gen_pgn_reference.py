#!/usr/bin/env python3
"""Writes the reference data of the PGN tests with python-chess as the oracle.

For every `.pgn` file of DATA_DIR (default: testdata/pgn), one line per game:

    file <TAB> game number <TAB> mainline plies <TAB> final FEN <TAB> errors

`mainline plies` counts the mainline moves python-chess replayed (up to its first error in the
mainline), `final FEN` is the position after them with the en-passant square after every double
push (python-chess's `en_passant="fen"`, tabla's `to_fen`), and `errors` is how many errors
python-chess recorded for the game (`game.errors`).

Input decoding follows tabla's rule: each line is UTF-8 when it decodes as UTF-8, else Latin-1;
a leading byte-order mark is dropped.

Usage, from the repository root:
    python3 testdata/gen_pgn_reference.py > testdata/pgn_reference.tsv
    python3 testdata/gen_pgn_reference.py corpus > testdata/corpus_pgn_reference.tsv
where `corpus` stands for the real-world corpus's pgn/ (scripts/corpus.py: exit status 2 when it
is missing).
"""

import io
import os
import sys

import chess
import chess.pgn


def decode(raw: bytes) -> str:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    lines = []
    for line in raw.split(b"\n"):
        try:
            lines.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            lines.append(line.decode("latin-1"))
    return "\n".join(lines)


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    data_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "pgn")
    if data_dir == "corpus":
        sys.path.insert(0, os.path.join(here, "..", "scripts"))
        from corpus import corpus_dir

        data_dir = os.path.join(corpus_dir(), "pgn")
    if not os.path.isdir(data_dir):
        sys.exit(f"gen_pgn_reference.py: no folder {data_dir}")
    out = sys.stdout
    out.write(f"# python-chess {chess.__version__}; testdata/gen_pgn_reference.py\n")
    for name in sorted(os.listdir(data_dir)):
        if not name.endswith(".pgn"):
            continue
        with open(os.path.join(data_dir, name), "rb") as f:
            text = decode(f.read())
        handle = io.StringIO(text)
        number = 0
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            number += 1
            board = game.board()
            plies = 0
            for move in game.mainline_moves():
                board.push(move)
                plies += 1
            fen = board.fen(en_passant="fen")
            out.write(f"{name}\t{number}\t{plies}\t{fen}\t{len(game.errors)}\n")


if __name__ == "__main__":
    main()
