#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The scale tabla's engine reports its centipawns on (`tabla_engine::reported_cp`).

lichess judges moves by winning chances, `w(cp) = 2 / (1 + exp(-0.00368208 * cp)) - 1` (cp
clamped to +-1000, a mate counted as 1000), a curve fitted to Stockfish's centipawns. tabla's
search has units of its own. It reports them on a bent line: REPORTED_PER_100 reported
centipawns for 100 of its units up to REPORTED_KNEE units, then REPORTED_PER_100_BEYOND for
each 100 beyond (constants of crates/tabla-engine/src/score.rs), so that a review with tabla's
engine reads on the scale lichess's rules expect: Stockfish's centipawns grow more slowly than
material once one side is clearly ahead.

This script measures that scale against Stockfish. It reviews held-out games that carry
lichess's Stockfish evaluations (testdata/review/lichess-evals.pgn, none of them among the
review benchmark's 200 games) with tabla's engine at the review's default budget, takes each
reported score back to the search's units through the constants in score.rs, and finds the
three constants that minimise the mean absolute difference of win% (`50 + 50 * w`) from
lichess's, over the positions where tabla reports centipawns (lichess's mates count as +-1000,
as in a review). It prints that difference as reported and at the best constants; when they
differ, score.rs should take the best ones.

    python3 scripts/bench/score_scale.py --tabla target/release/tabla

Needs python-chess. The review takes some minutes (about 2,200 positions at 300,000 nodes).
"""

import argparse
import itertools
import json
import math
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import chess.pgn

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "testdata" / "review" / "lichess-evals.pgn"
SCORE_RS = ROOT / "crates" / "tabla-engine" / "src" / "score.rs"


def win_percent(cp):
    cp = max(-1000, min(1000, cp))
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


class Scale:
    """Reported centipawns of a search value: `per_100` for 100 units up to `knee` units,
    `beyond` for each 100 after."""

    def __init__(self, per_100, knee, beyond):
        self.per_100, self.knee, self.beyond = per_100, knee, beyond

    def report(self, units):
        size = abs(units)
        if size <= self.knee:
            cp = self.per_100 * size / 100
        else:
            cp = self.per_100 * self.knee / 100 + self.beyond * (size - self.knee) / 100
        return math.copysign(cp, units)

    def units(self, cp):
        """The inverse of `report` (the middle of the values a rounded report stands for)."""
        size, bend = abs(cp), self.per_100 * self.knee / 100
        if size <= bend or self.beyond == 0:
            units = size * 100 / self.per_100
        else:
            units = self.knee + (size - bend) * 100 / self.beyond
        return math.copysign(units, cp)

    def __str__(self):
        return (f"REPORTED_PER_100 = {self.per_100}, REPORTED_KNEE = {self.knee}, "
                f"REPORTED_PER_100_BEYOND = {self.beyond}")


def current_scale():
    text = SCORE_RS.read_text(encoding="utf-8")

    def constant(name):
        found = re.search(rf"pub const {name}: i32 = (\d+);", text)
        if found is None:
            sys.exit(f"{SCORE_RS}: no constant {name}")
        return int(found.group(1))

    return Scale(constant("REPORTED_PER_100"), constant("REPORTED_KNEE"),
                 constant("REPORTED_PER_100_BEYOND"))


def pairs_of(games_path, review_path, scale):
    """(lichess's centipawns, tabla's search units) after each move, White's view, where tabla
    reports centipawns; lichess's mates as +-1000."""
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
            if theirs is None or ours is None:
                continue
            cp = (ours.get("eval") or {}).get("cp")
            if cp is not None:
                pairs.append((theirs.white().score(mate_score=1000), scale.units(cp)))
    return pairs


def loss(pairs, scale):
    """Mean absolute difference of win%."""
    return sum(abs(win_percent(scale.report(u)) - win_percent(r)) for r, u in pairs) / len(pairs)


def best_scale(pairs):
    def search(per_100s, knees, beyonds):
        return min((Scale(*p) for p in itertools.product(per_100s, knees, beyonds)),
                   key=lambda s: loss(pairs, s))

    coarse = search(range(100, 201, 10), range(100, 601, 25), range(0, 141, 10))
    return search(range(coarse.per_100 - 8, coarse.per_100 + 9, 2),
                  range(max(coarse.knee - 20, 10), coarse.knee + 21, 5),
                  range(max(coarse.beyond - 8, 0), coarse.beyond + 9, 2))


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
    scale = current_scale()
    pairs = pairs_of(args.games, review, scale)
    linear = Scale(100, 10**9, 100)
    best = best_scale(pairs)
    print(f"{len(pairs)} positions; mean absolute difference of win% from lichess's:")
    print(f"  {loss(pairs, linear):.3f} in the search's units")
    print(f"  {loss(pairs, scale):.3f} as reported ({scale})")
    print(f"  {loss(pairs, best):.3f} at the best constants ({best})")


if __name__ == "__main__":
    main()
