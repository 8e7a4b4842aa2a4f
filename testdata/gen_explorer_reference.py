#!/usr/bin/env python3
"""The opening explorer's answers computed independently of tabla, with python-chess, for the tests
of `tabla db explore` (issue: `tabla db`). Writes one JSON file per game set:

- testdata/explorer_reference.json: the PGN files of testdata/pgn (always in the repository);
- testdata/corpus_explorer_reference.json: the corpus's pgn/ files (when the corpus is there).

The explorer's counting rule, which this script defines for tabla:

- A game counts only when its `Result` tag is `1-0`, `0-1` or `1/2-1/2`.
- Its positions are those before its moves 1 to MAX_PLY (plies 0 to MAX_PLY - 1) of the mainline,
  as far as the mainline can be played (a damaged game counts up to its first bad move).
- Positions are compared as positions (placement, side to move, castling rights, and the
  en-passant square only when a capture there is legal: python-chess's `Board.epd()`), so
  transpositions meet.
- A game counts once for a position, at the first ply where it stands there, with the move it
  played from there.

For a position and filters, the answer is: games, white wins, draws and black wins (sums over its
moves); for each move played from it, its UCI and SAN, games, wins/draws/losses, `avg_rating`
(the mean, rounded half up to an integer, over the games where both players have an Elo, of both
players' Elo; null when none has) and `last_played` (the latest `YYYY-MM` among its games with a
known month; null when none); moves sorted by games (most first), then SAN. Also the sort keys of
the top and recent games, so that a test can check them whatever order ties take: `top_ratings`,
the average Elo (both players') of the 8 highest-rated games (games with both Elos), highest
first; `recent_dates`, the dates of the 8 most recent games (games with a known year), latest
first, as `YYYY-MM-DD` with `??` for unknown parts (an unknown part sorts before any known one).

A game's date and month come from `UTCDate`, else `Date`. Filters: `rating` MIN-MAX on the
average of both players' Elo rounded down, inclusive, either end open (null) (games without both
Elos are left out); `speed` from
`TimeControl` `base+increment` in seconds by lichess's thresholds on base + 40 * increment
(below 180 s bullet, ultrabullet included; below 480 blitz; below 1500 rapid; else classical),
`-` correspondence, anything else unknown (left out); `since`/`until` `YYYY-MM`, inclusive, on
every month the game could have been played in: its month when known, all twelve of its year when
only the year is (a `1964.??.??` game is inside 1960-01..1999-12, not inside `since` 1964-06), none
without a year (left out); `player` NAME exactly as in the tag,
with `color` white or black, or either.

Usage: testdata/gen_explorer_reference.py [--max-ply 50]; needs PyPI's chess (python-chess).
"""

import argparse
import io
import json
import math
import pathlib
import re
import sys
from collections import Counter, defaultdict

import chess
import chess.pgn

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
from corpus import ROOT, corpus_path  # noqa: E402

# The queries: positions reached by moves in UCI from the standard start (an independent notation
# for tabla's SAN parser). Two of them are one position by two move orders.
QUERIES = [
    [],
    ["e2e4"],
    ["e2e4", "c7c5"],
    ["e2e4", "e7e5", "g1f3", "b8c6"],
    ["d2d4", "g8f6", "c2c4", "e7e6"],
    ["c2c4", "e7e6", "d2d4", "g8f6"],
    ["d2d4", "d7d5"],
]

TOP = 8


def parse_date(value):
    """A date tag's year, month and day as text (`??` when unknown), or None without a year.

    The rule tabla defines for a game's date (docs/db.md): parts separated by `.`, `-` or `/`;
    the year is a first part of 4 digits; the month a second part of 1 or 2 digits from 1 to 12;
    the day a third of 1 or 2 digits from 1 to 31, known only with the month. So `1988` and
    `2013.26.7` have a year and nothing else.
    """
    parts = re.split(r"[./-]", value.strip())
    if len(parts[0]) != 4 or not parts[0].isdigit():
        return None

    def number(i, lo, hi):
        if len(parts) > i and 1 <= len(parts[i]) <= 2 and parts[i].isdigit():
            n = int(parts[i])
            if lo <= n <= hi:
                return f"{n:02}"
        return None

    month = number(1, 1, 12)
    day = number(2, 1, 31) if month else None
    return [parts[0], month or "??", day or "??"]


def month_of(tags):
    """The game's date: `UTCDate` when it has a year, else `Date`."""
    for name in ("UTCDate", "Date"):
        value = tags.get(name)
        if value:
            date = parse_date(value)
            if date:
                return date
    return None


def game_month(tags):
    m = month_of(tags)
    if m and m[1] != "??":
        return f"{m[0]}-{m[1]}"
    return None


def game_months(tags):
    """The first and last month (`YYYY-MM`) the game could have been played in; None without a year."""
    m = month_of(tags)
    if not m:
        return None
    if m[1] != "??":
        return (f"{m[0]}-{m[1]}", f"{m[0]}-{m[1]}")
    return (f"{m[0]}-01", f"{m[0]}-12")


def game_date(tags):
    """`YYYY-MM-DD` with `??` for unknown parts, and its sort key; None without a known year."""
    m = month_of(tags)
    if not m:
        return None
    parts = m
    key = tuple(-1 if p == "??" else int(p) for p in parts)
    return "-".join(parts), key


def elo(tags, name):
    try:
        return int(tags.get(name, "").strip())
    except ValueError:
        return None


def speed(tags):
    tc = tags.get("TimeControl", "").strip()
    if tc == "-":
        return "correspondence"
    m = re.fullmatch(r"(\d+)\+(\d+)", tc)
    if not m:
        return None
    total = int(m.group(1)) + 40 * int(m.group(2))
    if total < 180:
        return "bullet"
    if total < 480:
        return "blitz"
    if total < 1500:
        return "rapid"
    return "classical"


class Game:
    def __init__(self, headers, first_moves):
        self.tags = dict(headers)
        self.result = self.tags.get("Result", "*").strip()
        self.white_elo = elo(self.tags, "WhiteElo")
        self.black_elo = elo(self.tags, "BlackElo")
        self.avg = (
            (self.white_elo + self.black_elo) / 2
            if self.white_elo is not None and self.black_elo is not None
            else None
        )
        # The rating filter's value: the average rounded down.
        self.avg_floor = (
            (self.white_elo + self.black_elo) // 2 if self.avg is not None else None
        )
        self.month = game_month(self.tags)
        self.months = game_months(self.tags)
        self.date = game_date(self.tags)
        self.speed = speed(self.tags)
        # position (epd) -> (uci, san) of the first ply where the game stands there
        self.first_moves = first_moves


def read_games(paths, max_ply):
    games = []
    for path in paths:
        raw = path.read_bytes()
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
        handle = io.StringIO(text)
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            board = game.board()
            first = {}
            for ply, move in enumerate(game.mainline_moves()):
                if ply >= max_ply:
                    break
                if not board.is_legal(move):
                    break
                key = board.epd()
                if key not in first:
                    first[key] = (move.uci(), board.san(move))
                board.push(move)
            games.append(Game(game.headers, first))
    return games


def matches(game, filters):
    if game.result not in ("1-0", "0-1", "1/2-1/2"):
        return False
    if "rating" in filters:
        lo, hi = filters["rating"]
        if game.avg_floor is None:
            return False
        if lo is not None and game.avg_floor < lo or hi is not None and game.avg_floor > hi:
            return False
    if "speed" in filters and game.speed not in filters["speed"]:
        return False
    if "since" in filters and (game.months is None or game.months[0] < filters["since"]):
        return False
    if "until" in filters and (game.months is None or game.months[1] > filters["until"]):
        return False
    if "player" in filters:
        name = filters["player"]
        color = filters.get("color")
        white = game.tags.get("White") == name
        black = game.tags.get("Black") == name
        if color == "white" and not white or color == "black" and not black:
            return False
        if color is None and not (white or black):
            return False
    return True


def round_half_up(x):
    return int(math.floor(x + 0.5))


def answer(games, key, filters):
    moves = defaultdict(list)
    reached = []
    for g in games:
        if key in g.first_moves and matches(g, filters):
            moves[g.first_moves[key]].append(g)
            reached.append(g)

    def wdb(gs):
        return (
            sum(g.result == "1-0" for g in gs),
            sum(g.result == "1/2-1/2" for g in gs),
            sum(g.result == "0-1" for g in gs),
        )

    rows = []
    for (uci, san), gs in moves.items():
        w, d, b = wdb(gs)
        rated = [g.avg for g in gs if g.avg is not None]
        months = [g.month for g in gs if g.month]
        rows.append(
            {
                "uci": uci,
                "san": san,
                "games": len(gs),
                "white": w,
                "draws": d,
                "black": b,
                "avg_rating": round_half_up(sum(rated) / len(rated)) if rated else None,
                "last_played": max(months) if months else None,
            }
        )
    rows.sort(key=lambda r: (-r["games"], r["san"]))
    w, d, b = wdb(reached)
    top = sorted((g.avg for g in reached if g.avg is not None), reverse=True)[:TOP]
    recent = sorted((g.date for g in reached if g.date), key=lambda d: d[1], reverse=True)[:TOP]
    return {
        "games": len(reached),
        "white": w,
        "draws": d,
        "black": b,
        "moves": rows,
        "top_ratings": top,
        "recent_dates": [d[0] for d in recent],
    }


def filter_sets(games):
    """Every filter alone and a few together, with values taken from the data."""
    players = Counter()
    for g in games:
        if g.result in ("1-0", "0-1", "1/2-1/2"):
            for name in (g.tags.get("White"), g.tags.get("Black")):
                if name and name != "?":
                    players[name] += 1
    busiest = min(players.items(), key=lambda kv: (-kv[1], kv[0]))[0] if players else "?"
    months = sorted({g.month for g in games if g.month})
    middle = months[len(months) // 2] if months else "2000-01"
    # A year some game is dated by alone (`1964.??.??`), for the ranges that hold or cut it.
    years = sorted({g.months[0][:4] for g in games if g.months and g.month is None})
    year = years[len(years) // 2] if years else "1964"
    return [
        {},
        {"rating": [1500, 2000]},
        {"rating": [2400, 2900]},
        {"rating": [2000, 2199]},
        {"rating": [2200, None]},
        {"rating": [None, 1999]},
        {"speed": ["blitz"]},
        {"speed": ["bullet", "rapid"]},
        {"speed": ["classical", "correspondence"]},
        {"since": middle},
        {"until": middle},
        {"since": middle, "until": middle},
        {"since": "1960-01", "until": "1999-12"},
        {"since": f"{year}-01", "until": f"{year}-12"},
        {"since": f"{year}-06"},
        {"player": busiest, "color": "white"},
        {"player": busiest, "color": "black"},
        {"player": busiest},
        {"rating": [1500, 2900], "speed": ["blitz", "rapid"], "since": months[0] if months else "2000-01"},
    ]


def reference(paths, max_ply, label):
    games = read_games(paths, max_ply)
    cases = []
    for moves in QUERIES:
        board = chess.Board()
        for uci in moves:
            board.push_uci(uci)
        for filters in filter_sets(games):
            cases.append(
                {
                    "moves": moves,
                    "fen": board.fen(en_passant="fen"),
                    "filters": filters,
                    "answer": answer(games, board.epd(), filters),
                }
            )
    return {
        "about": f"explorer answers for {label}, by testdata/gen_explorer_reference.py "
        f"(python-chess {chess.__version__}); the counting rule is in its docstring",
        "max_ply": max_ply,
        "files": [p.name for p in paths],
        "games": len(games),
        "cases": cases,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-ply", type=int, default=50)
    args = ap.parse_args()
    sets = [("testdata/pgn", ROOT / "testdata" / "pgn", ROOT / "testdata" / "explorer_reference.json")]
    corpus = corpus_path() / "pgn"
    if corpus.is_dir():
        sets.append(("the corpus's pgn/", corpus, ROOT / "testdata" / "corpus_explorer_reference.json"))
    else:
        print(f"corpus not found at {corpus}: testdata only", file=sys.stderr)
    for label, folder, out in sets:
        paths = sorted(folder.glob("*.pgn"))
        ref = reference(paths, args.max_ply, label)
        out.write_text(json.dumps(ref, indent=1, ensure_ascii=False) + "\n")
        print(f"{out.relative_to(ROOT)}: {ref['games']} games, {len(ref['cases'])} cases")


if __name__ == "__main__":
    main()
