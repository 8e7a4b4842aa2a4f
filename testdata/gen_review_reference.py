#!/usr/bin/env python3
"""Writes testdata/review_reference.json: what a review of the games of
testdata/review/lichess-evals.pgn from their `[%eval]` comments must give (tabla-review's
`from_evals`), computed with python-chess from lichess's published rules, apart from the Rust.

The rules (lichess's lila: modules/tree Advice.scala and WinPercent.scala, modules/analyse
AccuracyPercent.scala and AccuracyCP.scala; the database exporter lichess-org/database):

- Evaluations are White's point of view, centipawns or moves to mate. The position before the
  first move counts as 15 centipawns (lichess's initial evaluation). A move that mates has no
  evaluation after it (the game is over): it gets no judgement, no winning percentage and no
  accuracy, and is left out of the game's figures, as lichess leaves it out.
- Winning chances w(cp) = 2 / (1 + exp(-0.00368208 cp)) - 1, within [-1, 1].
- Judgement of a move from centipawns to centipawns: the mover's loss of winning chances
  (raw centipawns, no ceiling): 0.3 or more a blunder, 0.2 a mistake, 0.1 an inaccuracy.
  With mates, seen from the mover's side: a mate against the mover appears (from centipawns):
  an inaccuracy if the centipawns before were below -999, a mistake below -700, else a blunder;
  a mate for the mover is lost (to centipawns, or to a mate against): an inaccuracy if the
  centipawns after are above 999, a mistake above 700, else a blunder (a mate against counts
  as 0 centipawns). A mate kept, lengthened or shortened, or a mate against that goes on or
  goes away, is not judged.
- The database's marks ("judgement_database"): the marks lichess's open-database files carry.
  A move is marked when the rule above marks it (lichess keeps the engine's line only for
  those moves, and its exporter marks only moves with a line); how severely follows the
  exporter's own rule for centipawns to centipawns: the mover's loss in centipawns, each value
  first held within +-1000, 300 or more a blunder, 100 a mistake, 50 an inaccuracy; the mate
  rules are the same.
- Win% = 50 + 50 w(cp), cp held within +-1000, a mate as +-1000.
- Move accuracy from the mover's win% before and after: 100 when it did not fall, else
  103.1668100711649 exp(-0.04354415386753951 (before - after)) - 3.166924740191411 + 1,
  within [0, 100].
- Game accuracy of a side: the mean of two means over its moves' accuracies: one weighted by
  the volatility around the move (the population standard deviation of a window of win%
  values, held within [0.5, 12]), and the harmonic mean (each accuracy taken as at least 1).
  The win% values are those of every position in order, the first being 15 centipawns'; the
  window is n = max(2, min(8, moves // 10)) values long, and the window of a move is the n
  values ending with the one after the move, or the first n values when there are not that
  many up to it.
- ACPL of a side: the mean over its moves of max(0, the mover's loss in centipawns), each
  value held within +-1000 and a mate counted as +-1000, rounded half up to an integer.

Usage, from the repository root (needs `pip install chess`):
    python3 testdata/gen_review_reference.py > testdata/review_reference.json
"""

import json
import math
import os
import sys

import chess
import chess.pgn

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SOURCE = "testdata/review/lichess-evals.pgn"
INITIAL_CP = 15
MARKS = {chess.pgn.NAG_DUBIOUS_MOVE: "Inaccuracy", chess.pgn.NAG_MISTAKE: "Mistake",
         chess.pgn.NAG_BLUNDER: "Blunder"}


def winning_chances(cp: float) -> float:
    return max(-1.0, min(1.0, 2 / (1 + math.exp(-0.00368208 * cp)) - 1))


def held(cp: int) -> int:
    return max(-1000, min(1000, cp))


def as_cp(ev) -> int:
    """A ("cp", n) or ("mate", n) evaluation as centipawns within +-1000."""
    kind, n = ev
    if kind == "mate":
        return 1000 if n > 0 else -1000
    return held(n)


def win_percent(ev) -> float:
    return 50 + 50 * winning_chances(as_cp(ev))


def move_accuracy(before: float, after: float) -> float:
    """Win% before and after, both from the mover's side."""
    if after >= before:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * (before - after)) - 3.166924740191411
    return max(0.0, min(100.0, raw + 1))


def grade(loss, thresholds):
    for limit, name in thresholds:
        if loss >= limit:
            return name
    return None


def mate_judgement(before, after, sign):
    """The mate rules, `sign` 1 for White's move, -1 for Black's."""
    (bk, bn), (ak, an) = before, after
    bn, an = bn * sign, an * sign
    if bk == "cp" and ak == "mate" and an < 0:
        return "Inaccuracy" if bn < -999 else "Mistake" if bn < -700 else "Blunder"
    if bk == "mate" and bn > 0 and (ak == "cp" or an < 0):
        cp_after = an if ak == "cp" else 0
        return "Inaccuracy" if cp_after > 999 else "Mistake" if cp_after > 700 else "Blunder"
    return None


def judgement(before, after, sign):
    if before[0] == "cp" and after[0] == "cp":
        loss = (winning_chances(before[1]) - winning_chances(after[1])) * sign
        return grade(loss, [(0.3, "Blunder"), (0.2, "Mistake"), (0.1, "Inaccuracy")])
    return mate_judgement(before, after, sign)


def database_judgement(before, after, sign):
    if judgement(before, after, sign) is None:
        return None
    if before[0] == "cp" and after[0] == "cp":
        loss = (held(before[1]) - held(after[1])) * sign
        return grade(loss, [(300, "Blunder"), (100, "Mistake"), (50, "Inaccuracy")])
    return mate_judgement(before, after, sign)


def population_sd(values):
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def game_accuracies(wins, movers):
    """`wins`: win% (White's) of every position, `movers[i]` the side of the move from wins[i]."""
    moves = len(wins) - 1
    n = max(2, min(8, moves // 10))
    per_side = {chess.WHITE: [], chess.BLACK: []}
    for i in range(moves):
        end = max(i + 2, min(n, len(wins)))
        window = wins[end - n if end >= n else 0:end]
        weight = max(0.5, min(12.0, population_sd(window)))
        white = movers[i] == chess.WHITE
        before, after = (wins[i], wins[i + 1]) if white else (100 - wins[i], 100 - wins[i + 1])
        per_side[movers[i]].append((move_accuracy(before, after), weight))
    result = {}
    for side, items in per_side.items():
        if not items:
            result[side] = None
            continue
        weighted = sum(a * w for a, w in items) / sum(w for _, w in items)
        harmonic = len(items) / sum(1 / max(1.0, a) for a, _ in items)
        result[side] = (weighted + harmonic) / 2
    return result


def review(game, lichess):
    """The review of `game`; lichess's own mark of each move entry goes in `lichess`."""
    board = game.board()
    nodes = list(game.mainline())
    before = ("cp", INITIAL_CP)
    wins = [win_percent(before)]
    movers, losses = [], {chess.WHITE: [], chess.BLACK: []}
    counts = {c: {"Inaccuracy": 0, "Mistake": 0, "Blunder": 0} for c in (chess.WHITE, chess.BLACK)}
    moves = []
    for node in nodes:
        mover = board.turn
        sign = 1 if mover == chess.WHITE else -1
        san, uci = board.san(node.move), node.move.uci()
        board.push(node.move)
        entry = {"ply": board.ply(), "san": san, "uci": uci, "eval": None, "win": None,
                 "judgement": None, "judgement_database": None, "accuracy": None}
        lichess[id(entry)] = next((MARKS[n] for n in node.nags if n in MARKS), None)
        moves.append(entry)
        if board.is_checkmate():
            continue
        score = node.eval()
        if score is None:
            sys.exit(f"{game.headers['Site']}: no evaluation after {san}")
        white = score.white()
        after = ("mate", white.mate()) if white.is_mate() else ("cp", white.score())
        entry["eval"] = {after[0]: after[1]}
        entry["win"] = win_percent(after)
        entry["judgement"] = judgement(before, after, sign)
        entry["judgement_database"] = database_judgement(before, after, sign)
        if entry["judgement"]:
            counts[mover][entry["judgement"]] += 1
        mover_win = (lambda w: w) if mover == chess.WHITE else (lambda w: 100 - w)
        entry["accuracy"] = move_accuracy(mover_win(wins[-1]), mover_win(entry["win"]))
        losses[mover].append(max(0, (as_cp(before) - as_cp(after)) * sign))
        wins.append(entry["win"])
        movers.append(mover)
        before = after
    accuracy = game_accuracies(wins, movers)
    sides = {}
    for color, name in ((chess.WHITE, "white"), (chess.BLACK, "black")):
        acpl = math.floor(sum(losses[color]) / len(losses[color]) + 0.5) if losses[color] else None
        sides[name] = {
            "name": game.headers.get(name.capitalize()),
            "accuracy": accuracy[color],
            "acpl": acpl,
            "inaccuracies": counts[color]["Inaccuracy"],
            "mistakes": counts[color]["Mistake"],
            "blunders": counts[color]["Blunder"],
        }
    return {"site": game.headers.get("Site"), **sides, "moves": moves}


def main() -> None:
    games, lichess = [], {}
    with open(os.path.join(ROOT, SOURCE), encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games.append(review(game, lichess))
    # A self-check against lichess's own marks: the database rule gives them on every move but
    # where the engine's first choice was the move played (lichess judges no such move; the
    # file does not say which moves those were).
    differ = [(g["site"], m["ply"], m["san"]) for g in games for m in g["moves"]
              if m["judgement_database"] != lichess[id(m)]]
    print(f"{len(games)} games; database marks differ from lichess's on {differ}", file=sys.stderr)
    # One move a line, so that a change shows as the moves it touches.
    out = sys.stdout
    head = {"source": SOURCE, "generator": "testdata/gen_review_reference.py",
            "python_chess": chess.__version__}
    out.write(json.dumps(head)[:-1] + ', "games": [\n')
    for i, game in enumerate(games):
        moves = game.pop("moves")
        out.write(json.dumps(game)[:-1] + ', "moves": [\n')
        out.write(",\n".join(json.dumps(m) for m in moves))
        out.write("]}" + ("," if i + 1 < len(games) else "") + "\n")
    out.write("]}\n")


if __name__ == "__main__":
    main()
