#!/usr/bin/env python3
"""Stockfish against tabla's endgame tables on mates short enough for its search to prove.

Random legal positions of the endings given (placed by python-chess, not by tabla), probed with
`tabla tb probe --batch`; those whose distance to mate is at most --max-mate moves are searched by
Stockfish (Debian's: `apt-get install stockfish`) to --depth plies, and its mate score is compared
with the table's. A Stockfish mate shorter than the table's is an error of the tables (Stockfish
proves the mate it reports); a longer one or none is a search that did not find the shortest mate,
counted apart.

    python3 scripts/bench/tb_stockfish.py --tabla target/release/tabla --dir TABLES \\
        --endings KQvKR,KRvKP,KBNvK --count 200 --max-mate 8 --depth 40

Exit status 1 when any Stockfish mate is shorter than the table's or of the other side.
"""

import argparse
import random
import shutil
import subprocess
import sys

import chess
import chess.engine

LETTERS = {"Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN}


def men_of(ending):
    """`KQvKR` -> ([queen], [rook]): the men besides the kings, White's then Black's."""
    white, black = ending.upper().split("V")
    return [LETTERS[c] for c in white[1:]], [LETTERS[c] for c in black[1:]]


def random_position(ending, rng):
    """A random legal position of the ending (either side to move), no castling, no en passant."""
    white, black = men_of(ending)
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), 2 + len(white) + len(black))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        ok = True
        for sq, (role, color) in zip(
            squares[2:], [(r, chess.WHITE) for r in white] + [(r, chess.BLACK) for r in black]
        ):
            if role == chess.PAWN and chess.square_rank(sq) in (0, 7):
                ok = False
            board.set_piece_at(sq, chess.Piece(role, color))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if ok and board.is_valid():
            return board


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tabla", required=True)
    parser.add_argument("--dir", required=True, help="the tables' directory")
    parser.add_argument("--endings", default="KQvK,KRvK,KQvKR,KRvKP,KBNvK")
    parser.add_argument("--count", type=int, default=100, help="positions searched per ending")
    parser.add_argument("--max-mate", type=int, default=8)
    parser.add_argument("--depth", type=int, default=40)
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 64})
    totals = {"agree": 0, "longer": 0, "wrong": 0}
    failed = False
    for ending in args.endings.split(","):
        # Draw many positions, keep those the tables call short mates.
        candidates = [random_position(ending, rng) for _ in range(args.count * 20)]
        fens = [b.fen() for b in candidates]
        out = subprocess.run(
            [args.tabla, "tb", "probe", "--dir", args.dir, "--batch", "-"],
            input="\n".join(fens) + "\n", capture_output=True, text=True, check=True,
        ).stdout.splitlines()
        chosen = []
        for board, line in zip(candidates, out):
            fields = line.rsplit(";", 2)
            if len(fields) != 3 or fields[1].startswith("error"):
                print(f"{ending}: {line}", file=sys.stderr)
                failed = True
                continue
            dtm = int(fields[1])
            if dtm != 0 and abs(dtm) <= args.max_mate:
                chosen.append((board, dtm))
            if len(chosen) == args.count:
                break
        counts = {"agree": 0, "longer": 0, "wrong": 0}
        for board, dtm in chosen:
            info = engine.analyse(board, chess.engine.Limit(depth=args.depth))
            mate = info["score"].pov(board.turn).mate()
            if mate == dtm:
                counts["agree"] += 1
            elif mate is None or (mate * dtm > 0 and abs(mate) > abs(dtm)):
                counts["longer"] += 1
            else:
                counts["wrong"] += 1
                failed = True
                print(f"{ending}: {board.fen()} table {dtm}, Stockfish mate {mate}", file=sys.stderr)
        print(f"{ending}: {len(chosen)} positions with mates of at most {args.max_mate} moves: "
              f"{counts['agree']} agree, {counts['longer']} not found as short by Stockfish, "
              f"{counts['wrong']} shorter or of the other side")
        for k in totals:
            totals[k] += counts[k]
    engine.quit()
    print(f"all: {totals['agree']} agree, {totals['longer']} not found as short, "
          f"{totals['wrong']} wrong (Stockfish depth {args.depth})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
