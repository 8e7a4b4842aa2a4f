#!/usr/bin/env python3
"""Speed of `tabla review` (issue 39's speed figures), each against an anchor measured in the same
run, as medians of --runs runs:

  engines     positions searched a second by each engine (tabla's own in process, and Stockfish
              over UCI) with 1 and with 2 engines, at the same node budget, no cache; the goal is
              2 engines at least 1.8x one.
  overhead    tabla's own cost around the engines' searches: `tabla review --engines 1` against a
              bare UCI driver (this script, python-chess only for reading the games) that sends
              the same distinct positions to the same engine program (`stockfish`, and `tabla uci`
              for tabla's engine) at the same budget, one `ucinewgame` + `position` + `go nodes N`
              each, and waits for `bestmove`. Goal: under 5% (tabla / driver - 1).
  collection  a 1,000-game collection (the corpus's lichess games, then world_matches.pgn's)
              reviewed twice with one cache folder: the second run's speed-up (goal at least
              100x), and the distinct positions searched against the positions in the games.
  game80      one ordinary game (82 plies, lichess) reviewed with tabla's engine at its default
              budget on 2 engines, from the command to the annotated PGN (goal: at most 15 s).

Usage: scripts/bench/review_speed.py [--tabla target/release/tabla] [--stockfish /usr/games/stockfish]
       [--runs 3] [--nodes 300000] [--collection-nodes 20000] [--dir /tmp/tabla-review-speed]
       [engines] [overhead] [collection] [game80]        (default: all four)

Build the binary first (`cargo build --release -p tabla-cli`), and run on an otherwise idle
machine: every figure is a wall-clock time.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

import chess
import chess.pgn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.environ.get("TABLA_CORPUS", os.path.join(ROOT, "..", "shared", "data"))


def read_games(path, limit=None):
    games = []
    with open(path, encoding="utf-8", errors="replace") as f:
        while limit is None or len(games) < limit:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            games.append(game)
    return games


def mainline_pgn(game):
    """The game's tags and mainline, nothing else (no comments, no variations)."""
    clean = chess.pgn.Game()
    clean.headers.update(game.headers)
    node = clean
    for move in game.mainline_moves():
        node = node.add_variation(move)
    return str(clean) + "\n\n"


def write_games(path, games):
    with open(path, "w", encoding="utf-8") as f:
        for game in games:
            f.write(mainline_pgn(game))


def distinct_fens(games):
    """The positions a review evaluates (before each move, and the last), each once, in order."""
    seen, fens = set(), []
    for game in games:
        board = game.board()
        boards = [board.copy()]
        for move in game.mainline_moves():
            board.push(move)
            boards.append(board.copy())
        for b in boards:
            if b.epd() not in seen:
                seen.add(b.epd())
                fens.append(b.fen())
    return fens


def run_review(tabla, args):
    """Runs `tabla review ARGS`; returns (seconds, summary counts)."""
    start = time.perf_counter()
    done = subprocess.run([tabla, "review", *args], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"tabla review {' '.join(args)} failed: {done.stderr}")
    line = (done.stdout.strip().splitlines() or [""])[-1]
    counts = {}
    for part in line.split(", "):
        name, _, value = part.rpartition(" ")
        if value.isdigit():
            counts[name] = int(value)
    return seconds, counts


def median_runs(runs, fn):
    values = [fn() for _ in range(runs)]
    return statistics.median(v[0] for v in values), values[0][1]


class Driver:
    """A bare UCI driver: the anchor for tabla's overhead."""

    def __init__(self, command):
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.process.stdin.write(line + "\n")

    def wait(self, word):
        for line in self.process.stdout:
            if line.startswith(word):
                return line
        raise RuntimeError(f"engine ended before {word}")

    def search(self, fen, nodes):
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        return self.wait("bestmove")

    def close(self):
        self.send("quit")
        self.process.wait()


def drive(command, fens, nodes):
    start = time.perf_counter()
    driver = Driver(command)
    for fen in fens:
        driver.search(fen, nodes)
    driver.close()
    return time.perf_counter() - start, {"evaluated": len(fens)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", nargs="*", default=["engines", "overhead", "collection", "game80"])
    parser.add_argument("--tabla", default=os.path.join(ROOT, "target", "release", "tabla"))
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--nodes", type=int, default=300_000)
    parser.add_argument("--collection-nodes", type=int, default=20_000)
    parser.add_argument("--dir", default="/tmp/tabla-review-speed")
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    lichess = read_games(os.path.join(CORPUS, "pgn", "lichess_db_1000k.pgn"))
    engines = [("tabla", []), ("stockfish", ["--engine", args.stockfish])]

    if "engines" in args.what or "overhead" in args.what:
        # Three ordinary games, long enough that start-up is small beside the searches.
        games = [g for g in lichess if 60 <= len(list(g.mainline_moves())) <= 90][:3]
        pgn = os.path.join(args.dir, "games3.pgn")
        write_games(pgn, games)
        fens = distinct_fens(games)
        print(f"games3.pgn: {len(games)} games, {len(fens)} distinct positions, "
              f"{args.nodes} nodes each")
    if "engines" in args.what:
        print("\n| engine | 1 engine: positions/s | 2 engines: positions/s | ratio |")
        print("|---|---|---|---|")
        for name, extra in engines:
            rates = []
            for n in (1, 2):
                review = [pgn, "--json", "--no-cache", "--nodes", str(args.nodes),
                          "--engines", str(n), "--out", os.devnull, *extra]
                seconds, counts = median_runs(args.runs, lambda: run_review(args.tabla, review))
                rates.append(counts["evaluated"] / seconds)
            print(f"| {name} | {rates[0]:.1f} | {rates[1]:.1f} | {rates[1] / rates[0]:.2f}x |")
    if "overhead" in args.what:
        print("\n| engine | bare UCI driver, s | tabla review --engines 1, s | overhead |")
        print("|---|---|---|---|")
        for name, extra in engines:
            command = [args.tabla, "uci"] if name == "tabla" else [args.stockfish]
            review = [pgn, "--json", "--no-cache", "--nodes", str(args.nodes), "--engines", "1",
                      "--out", os.devnull, *extra]
            # Alternate the two, so that a slow spell of the machine hits both.
            anchor, tabla = [], []
            for _ in range(args.runs):
                anchor.append(drive(command, fens, args.nodes)[0])
                tabla.append(run_review(args.tabla, review)[0])
            a, t = statistics.median(anchor), statistics.median(tabla)
            print(f"| {name} | {a:.2f} | {t:.2f} | {100 * (t / a - 1):+.1f}% |")
    if "collection" in args.what:
        world = read_games(os.path.join(CORPUS, "pgn", "world_matches.pgn"))
        collection = (lichess + world)[:1000]
        pgn = os.path.join(args.dir, "collection1000.pgn")
        write_games(pgn, collection)
        cache = os.path.join(args.dir, "collection-cache")
        shutil.rmtree(cache, ignore_errors=True)
        review = [pgn, "--json", "--nodes", str(args.collection_nodes), "--cache", cache,
                  "--out", os.devnull]
        first, counts = run_review(args.tabla, review)
        seconds = [run_review(args.tabla, review) for _ in range(args.runs)]
        second = statistics.median(s for s, _ in seconds)
        again = seconds[0][1]
        print(f"\ncollection1000.pgn: {counts.get('games')} games, {counts.get('positions')} "
              f"positions, {counts.get('evaluated')} distinct searched "
              f"({counts.get('evaluated', 0) / max(counts.get('positions', 1), 1):.1%}), "
              f"tabla's engine at {args.collection_nodes} nodes")
        print(f"first run {first:.1f} s; second run {second:.3f} s (median of {args.runs}; "
              f"evaluated {again.get('evaluated')}, from cache {again.get('from cache')}); "
              f"{first / second:.0f}x faster")
    if "game80" in args.what:
        game = next(g for g in lichess if len(list(g.mainline_moves())) == 82)
        pgn = os.path.join(args.dir, "game82.pgn")
        write_games(pgn, [game])
        out = os.path.join(args.dir, "game82-review.pgn")
        review = [pgn, "--no-cache", "--engines", "2", "--out", out]
        seconds, counts = median_runs(args.runs, lambda: run_review(args.tabla, review))
        print(f"\n{game.headers.get('Site')} (82 plies, {counts.get('positions')} positions), "
              f"tabla's engine at its default budget, 2 engines: {seconds:.1f} s "
              f"(median of {args.runs})")


if __name__ == "__main__":
    main()
