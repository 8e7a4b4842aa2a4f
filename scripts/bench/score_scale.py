#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The scale tabla's engine reports its centipawns on (`tabla_engine::REPORTED_PER_100`).

lichess judges moves by winning chances, `w(cp) = 2 / (1 + exp(-0.00368208 * cp)) - 1` (cp
clamped to +-1000), a curve fitted to Stockfish's centipawns. tabla's search has units of its
own; it reports them multiplied by REPORTED_PER_100 / 100, so that a review with tabla's engine
reads on the scale lichess's rules expect. This script measures how far the reported scale is
from Stockfish's: it reviews held-out games that carry lichess's Stockfish evaluations
(testdata/review/lichess-evals.pgn, none of them among the review benchmark's 200 games) with
tabla's engine at the review's default budget, then finds the factor `k` on tabla's reported
centipawns that minimises the mean squared difference of winning chances against lichess's
(positions where both are centipawns, not mates). A `k` near 1.00 means the engine is on scale;
otherwise REPORTED_PER_100 should become `round(REPORTED_PER_100 * k)`.

    python3 scripts/bench/score_scale.py --tabla target/release/tabla

Needs python-chess. The review takes some minutes (about 2,200 positions at 300,000 nodes).
"""

import argparse
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

import chess.pgn

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "testdata" / "review" / "lichess-evals.pgn"


def winning_chances(cp):
    cp = max(-1000, min(1000, cp))
    return 2 / (1 + math.exp(-0.00368208 * cp)) - 1


def pairs_of(games_path, review_path):
    """(lichess's centipawns, tabla's) after each move, White's view, both not mates."""
    with open(games_path, encoding="utf-8") as f:
        games = []
        while (game := chess.pgn.read_game(f)) is not None:
            games.append(game)
    with open(review_path, encoding="utf-8") as f:
        reviews = [json.loads(line) for line in f if line.strip()]
    if len(reviews) != len(games):
        sys.exit(f"{len(games)} games but {len(reviews)} reviews")
    pairs = []
    for game, review in zip(games, reviews):
        if review.get("error"):
            continue
        moves = {m["ply"]: m for m in review["moves"]}
        for ply, node in enumerate(game.mainline(), 1):
            theirs, ours = node.eval(), moves.get(ply)
            if theirs is None or theirs.is_mate() or ours is None:
                continue
            cp = (ours.get("eval") or {}).get("cp")
            if cp is not None:
                pairs.append((theirs.white().score(), cp))
    return pairs


def loss(pairs, k):
    return sum((winning_chances(k * t) - winning_chances(r)) ** 2 for r, t in pairs) / len(pairs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tabla", default=str(ROOT / "target" / "release" / "tabla"))
    parser.add_argument("--games", default=str(GAMES))
    parser.add_argument("--nodes", type=int, default=None,
                        help="the budget (default: tabla review's default)")
    parser.add_argument("--review", default=None,
                        help="a `tabla review --json` of the games made already")
    args = parser.parse_args()
    review = args.review
    if review is None:
        out = Path(tempfile.mkdtemp()) / "review.jsonl"
        command = [args.tabla, "review", "--json", args.games, "--no-cache", "--out", str(out)]
        if args.nodes:
            command += ["--nodes", str(args.nodes)]
        print("running:", " ".join(command), flush=True)
        subprocess.run(command, check=True)
        review = out
    pairs = pairs_of(args.games, review)
    best = min(range(50, 301), key=lambda k: loss(pairs, k / 100)) / 100
    print(f"{len(pairs)} positions; mean squared difference of winning chances (x 1e-4): "
          f"{loss(pairs, 1.0) * 1e4:.1f} as reported, {loss(pairs, best) * 1e4:.1f} at the "
          f"best factor k = {best:.2f}")


if __name__ == "__main__":
    main()
