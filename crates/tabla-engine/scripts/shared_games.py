"""The standard games (no set-up position, no variant) of the corpus's pgn/ (../shared/data/pgn
or $TABLA_CORPUS/pgn, see scripts/corpus.py), for the engine's development scripts (engine_selfplay.py,
tune_data.py, nnue_data.py)."""

import pathlib
import sys

import chess.pgn

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "scripts"))
from corpus import corpus_dir  # noqa: E402


def standard_games(names):
    """The games of the files `names` of the corpus's pgn/, in order, skipping set-up positions,
    variants and games python-chess cannot read. Exits with status 2 when the corpus is missing."""
    pgn = corpus_dir() / "pgn"
    for name in names:
        with open(pgn / name, encoding="latin-1") as f:
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
