#!/usr/bin/env python3
"""Counts perft for the knight-check position 8/8/8/8/8/kn1b4/2P5/K7 w - - 0 1 (docs/background.md)
with python-chess, independently of tabla, for crates/tabla/tests/knight_check_perft.rs. Also
prints each first move with its share of the depth-5 count (a divide), to locate a disagreement
should one appear.

Run: python3 scripts/knight_check_perft.py [max_depth]   (needs `pip install chess`; depth 6 takes a second)"""
import sys

import chess

FEN = "8/8/8/8/8/kn1b4/2P5/K7 w - - 0 1"
CLAIMED = [2, 31, 58, 758, 2669]  # the published figures for depths 1-5


def perft(board, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in list(board.legal_moves):
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes


def main():
    max_depth = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    board = chess.Board(FEN)
    for depth in range(1, max_depth + 1):
        nodes = perft(board, depth)
        claimed = CLAIMED[depth - 1] if depth <= len(CLAIMED) else None
        verdict = "" if claimed is None else ("  (as claimed)" if nodes == claimed else f"  (claimed {claimed})")
        print(f"depth {depth}: {nodes}{verdict}")
    for move in board.legal_moves:
        san = board.san(move)
        board.push(move)
        print(f"{san} {perft(board, 4)}")
        board.pop()


if __name__ == "__main__":
    main()
