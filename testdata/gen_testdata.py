#!/usr/bin/env python3
"""Writes the PGN files of testdata/pgn/ that come from elsewhere (testdata/README.md says which).

Two parts:
  derived    game scores from the real-world corpus (../shared/data/pgn, or $TABLA_CORPUS/pgn):
             the first games of each file, tags and mainline moves only (python-chess's export
             without comments, NAGs or variations: no annotator's prose comes along). The file's
             byte-level traits are kept: Latin-1 stays Latin-1, CRLF stays CRLF, a byte-order
             mark stays. Needs the corpus; exit status 2 without it.
  generated  random-games.pgn: random legal games (fixed seed) from the start position and from
             perft-suite positions and Chess960 starts, with promotions, under-promotions, en
             passant, both castlings, mates, stalemates and draws by material. Needs only
             testdata/perft.
  evals      review/lichess-evals.pgn: every game of the corpus's lichess_db_1000k.pgn that carries
             lichess's analysis, copied as written: `[%eval]` and `[%clk]` comments and lichess's
             own marks as SAN suffixes (`dxc4?!`), the oracle of tabla-review's judgements. No
             prose comes along (lichess writes none in its database). Needs the corpus.

Usage, from the repository root (needs `pip install chess`):
    python3 testdata/gen_testdata.py [derived|generated|evals|all]
then rewrite the reference: python3 testdata/gen_pgn_reference.py testdata/pgn > testdata/pgn_reference.tsv
"""

import io
import os
import random
import sys

import chess
import chess.pgn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from corpus import corpus_dir  # noqa: E402
from gen_pgn_reference import decode  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "testdata", "pgn")

# How many games of each corpus file to keep (None: all): enough of each kind, a few hundred KB
# in all.
KEEP = {
    "anastasian-lewis.pgn": None,
    "chess-informant-sample.pgn": None,
    "chessbase-empty-line.pgn": None,
    "dortmund-latin1.pgn": 25,
    "kasparov-deep-blue-1997.pgn": None,
    "kbnk-lichess-study.pgn": None,
    "lichess_db_1000k.pgn": 80,
    "mate_in_2.pgn": 60,
    "molinari-bordais-1979.pgn": None,
    "nepomniachtchi-liren-game1.pgn": None,
    "stockfish-learning.pgn": None,
    "tactics.pgn": 150,
    "twic1599_1000k.pgn": 60,
    "uci-moves.pgn": None,
    "utf8-bom.pgn": None,
    "world_matches.pgn": 30,
}


def strip(raw: bytes, keep) -> bytes:
    """The first `keep` games of a PGN file as tags and mainline moves, in the file's encoding,
    line endings and byte-order mark."""
    handle = io.StringIO(decode(raw))
    games = []
    while keep is None or len(games) < keep:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=False)
        games.append(game.accept(exporter))
    text = "\n\n".join(games) + "\n"
    if b"\r\n" in raw:
        text = text.replace("\n", "\r\n")
    try:
        raw.decode("utf-8")
        out = text.encode("utf-8")
    except UnicodeDecodeError:
        out = text.encode("latin-1")
    if raw.startswith(b"\xef\xbb\xbf"):
        out = b"\xef\xbb\xbf" + out
    return out


def derived() -> None:
    source = os.path.join(corpus_dir(), "pgn")
    for name, keep in sorted(KEEP.items()):
        with open(os.path.join(source, name), "rb") as f:
            raw = f.read()
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(strip(raw, keep))


def suite_fens() -> list:
    fens = []
    with open(os.path.join(ROOT, "testdata", "perft", "perftsuite.epd")) as f:
        for line in f:
            fen = line.split(";")[0].strip()
            if fen:
                fens.append(fen)
    return fens


def gives_mate(board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    mate = board.is_checkmate()
    board.pop()
    return mate


def random_game(board: chess.Board, rng: random.Random) -> chess.pgn.Game:
    game = chess.pgn.Game.from_board(board)
    node = game
    while not board.is_game_over(claim_draw=False) and board.ply() < 400:
        moves = list(board.legal_moves)
        # Mates, castling and en passant when they come up; captures and promotions a little
        # more often than the rest, so that games reach endings and promote.
        mates = [m for m in moves if gives_mate(board, m)]
        rare = [m for m in moves if board.is_castling(m) or board.is_en_passant(m)]
        good = [m for m in moves if m.promotion or board.is_capture(m)]
        if mates:
            move = mates[0]
        elif rare and rng.random() < 0.7:
            move = rng.choice(rare)
        else:
            move = rng.choice(good if good and rng.random() < 0.4 else moves)
        node = node.add_main_variation(move)
        board.push(move)
    game.headers["Result"] = board.result(claim_draw=False)
    return game


def generated() -> None:
    rng = random.Random(20261125)
    boards = [chess.Board() for _ in range(15)]
    boards += [chess.Board(fen) for fen in rng.sample(suite_fens(), 15)]
    boards += [chess.Board.from_chess960_pos(rng.randrange(960)) for _ in range(4)]
    games = []
    for i, board in enumerate(boards):
        if not board.is_valid():
            continue
        game = random_game(board, rng)
        game.headers["Event"] = "tabla random game"
        # The Site the committed file carries (the script's first place), so that it is reproduced
        # byte for byte.
        game.headers["Site"] = "scripts/gen_testdata.py"
        game.headers["Date"] = "2026.11.25"
        game.headers["Round"] = str(i + 1)
        game.headers["White"] = "random"
        game.headers["Black"] = "random"
        exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=False)
        games.append(game.accept(exporter))
    with open(os.path.join(OUT, "random-games.pgn"), "w", encoding="utf-8") as f:
        f.write("\n\n".join(games) + "\n")


def evals() -> None:
    """The games of the lichess sample with `[%eval]` comments, byte for byte."""
    with open(os.path.join(corpus_dir(), "pgn", "lichess_db_1000k.pgn"), "rb") as f:
        raw = f.read().decode("utf-8")
    # lichess's export: each game is tags, a blank line, the movetext, a blank line.
    games = ["[Event " + g for g in raw.split("\n\n[Event ") if g]
    games[0] = games[0][len("[Event ") :]
    kept = [g.strip("\n") for g in games if "[%eval " in g]
    # Beside testdata/pgn, not in it: the explorer and search references count every game there.
    review = os.path.join(ROOT, "testdata", "review")
    os.makedirs(review, exist_ok=True)
    with open(os.path.join(review, "lichess-evals.pgn"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n\n".join(kept) + "\n")


def main() -> None:
    what = sys.argv[1] if len(sys.argv) > 1 else "all"
    if what not in ("derived", "generated", "evals", "all"):
        sys.exit(__doc__)
    os.makedirs(OUT, exist_ok=True)
    if what in ("derived", "all"):
        derived()
    if what in ("generated", "all"):
        generated()
    if what in ("evals", "all"):
        evals()


if __name__ == "__main__":
    main()
