"""The standard games (no set-up position, no variant) of ../shared/data/pgn, for the engine's
development scripts (engine_selfplay.py, tune_data.py, nnue_data.py)."""

import pathlib

import chess.pgn

ROOT = pathlib.Path(__file__).resolve().parent.parent


def standard_games(names):
    """The games of the files `names` of ../shared/data/pgn, in order, skipping set-up positions,
    variants and games python-chess cannot read."""
    for name in names:
        with open(ROOT.parent / "shared/data/pgn" / name, encoding="latin-1") as f:
            while True:
                try:
                    game = chess.pgn.read_game(f)
                except (ValueError, UnicodeDecodeError):
                    continue
                if game is None:
                    break
                if game.headers.get("FEN") or game.headers.get("Variant"):
                    continue
                yield game
