#!/usr/bin/env python3
"""Build the data set for training tabla-engine's evaluation network (examples/nnue_train.rs).

A development tool, not a test. Stockfish plays games against itself at a fixed `--depth` from
positions of the master and lichess games of ../shared/data/pgn (a random game, cut at a random
ply from 8 to 40), then `--random-plies` random moves, with a `--random` share of random moves
later (so the set also holds unbalanced, odd positions). With `--skill LO-HI` each side of a
game plays at a Stockfish Skill Level drawn from that range (its moves weakened as an amateur's
are; the score kept is still that of its best line at `--depth`), so that the set holds the kind
of positions amateur games reach. `--exclude PGN` leaves out the games whose Site tag that file
holds (the review benchmark's games200.pgn, so that the network never sees them). Every
position not in check whose best move is quiet (no capture, no promotion) is written with
Stockfish's score from that search, in centipawns for the side to move, and the game's result
for the side to move (1, 0.5 or 0; games are adjudicated once a side is 15 pawns ahead, or
drawn after 300 plies).

    crates/tabla-engine/scripts/nnue_data.py --out /tmp/nnue/data1.txt --seed 1 [--depth 5] [--minutes 25]
        [--skill 3-12] [--exclude /work/bench/review/games200.pgn]

Run one process per core with different seeds and outputs; the trainer reads them all. The files
are large: keep them out of the repository. Lines read `FEN;score;result`.
"""

import argparse
import pathlib
import random
import shutil
import sys
import time

import chess
import chess.pgn

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[2] / "scripts")]  # shared_games.py; corpus.py
from corpus import corpus_dir  # noqa: E402
from shared_games import standard_games  # noqa: E402
from stockfish_pipe import Stockfish  # noqa: E402

SOURCES = ["twic1599_1000k.pgn", "world_matches.pgn", "dortmund-latin1.pgn", "lichess_db_1000k.pgn"]


def openings(exclude=None):
    """The move lists of the standard games in SOURCES longer than 8 plies, leaving out the games
    whose Site tag the PGN file `exclude` holds."""
    sites = set()
    if exclude:
        with open(exclude, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                sites.add(game.headers.get("Site"))
    games = (
        list(game.mainline_moves())
        for game in standard_games(SOURCES)
        if not sites or game.headers.get("Site") not in sites
    )
    return [moves for moves in games if len(moves) > 8]


def set_skill(sf, level):
    """Plays at Skill Level `level` (20: full strength)."""
    if level is not None:
        sf.set_option("Skill Level", level)


def play(sf, rng, args, games):
    """One game: its kept (FEN, score, side to move) and its result for White."""
    board = chess.Board()
    moves = rng.choice(games)
    for move in moves[: rng.randrange(8, min(40, len(moves)))]:
        board.push(move)
    for _ in range(args.random_plies):
        legal = list(board.legal_moves)
        if not legal:
            return [], 0.5
        board.push(rng.choice(legal))
    kept = []
    result = 0.5
    skills = [None, None]
    if args.skill:
        low, high = args.skill
        skills = [rng.randint(low, high), rng.randint(low, high)]
    while board.ply() < 300:
        set_skill(sf, skills[board.turn])
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result = {chess.WHITE: 1.0, chess.BLACK: 0.0, None: 0.5}[outcome.winner]
            break
        fen = board.fen()
        score, _, best = sf.search(fen, args.depth)
        if score is not None and abs(score) > 1500:
            # Adjudicated: a huge lead for one side. (A mate score is not kept, but played out.)
            result = 1.0 if (board.turn == chess.WHITE) == (score > 0) else 0.0
            break
        move = chess.Move.from_uci(best)
        quiet = not board.is_capture(move) and not move.promotion
        if score is not None and not board.is_check() and quiet:
            kept.append((fen, score, board.turn))
        if rng.random() < args.random:
            move = rng.choice(list(board.legal_moves))
        board.push(move)
    return kept, result


def skill_range(text):
    """`LO-HI` as two Skill Levels from 0 to 20."""
    low, _, high = text.partition("-")
    low, high = int(low), int(high or low)
    if not 0 <= low <= high <= 20:
        raise argparse.ArgumentTypeError(f"{text}: want LO-HI within 0-20")
    return low, high


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--minutes", type=float, default=25)
    parser.add_argument("--random-plies", type=int, default=1)
    parser.add_argument("--random", type=float, default=0.03)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skill", type=skill_range, help="LO-HI: Skill Levels to draw from")
    parser.add_argument("--exclude", help="a PGN file whose games (by Site) are left out")
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    args = parser.parse_args()
    corpus_dir()  # exit status 2 now, not after starting engines, when it is missing
    rng = random.Random(args.seed)
    games = openings(args.exclude)
    sf = Stockfish(args.stockfish)
    end = time.time() + args.minutes * 60
    count = 0
    with open(args.out, "a") as out:
        while time.time() < end:
            kept, result = play(sf, rng, args, games)
            for fen, score, turn in kept:
                mine = result if turn == chess.WHITE else 1.0 - result
                out.write(f"{fen};{score};{mine}\n")
            count += len(kept)
    print(f"{count} positions")


if __name__ == "__main__":
    main()
