#!/usr/bin/env python3
"""Play two builds of an engine against each other to measure a change.

A benchmark, not a test. python-chess's chess.engine drives both engines over UCI. Openings are
the first plies of master games from ../shared/data/pgn (distinct positions, each played twice
with colours swapped, so that an unbalanced opening favours neither build). The limit is either a
node count per move (`--nodes`: independent of machine load, right for search and evaluation
changes) or a clock (`--base`/`--inc`: needed for speed changes).

    crates/tabla-engine/scripts/engine_selfplay.py NEW OLD [--games 200] [--nodes 20000 | --base 2 --inc 0.05]
                               [--plies 8] [--concurrency 2] [--new-threads 1] [--pgn FILE]
                               [--new-option NAME=VALUE ...] [--old-option NAME=VALUE ...]

NEW and OLD may be the same build with different options: `--new-option "Skill Level=10"`
measures a skill level against full strength.

Prints the running score and at the end wins/draws/losses of NEW, its score and the Elo
difference with a 95% margin.
"""

import argparse
import concurrent.futures
import pathlib
import sys
import threading
import time

import chess
import chess.engine
import chess.pgn

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[2] / "scripts")]  # shared_games.py; corpus.py
from engine_match import elo_with_margin  # noqa: E402
from corpus import corpus_dir  # noqa: E402
from shared_games import standard_games  # noqa: E402

SOURCES = ["twic1599_1000k.pgn", "world_matches.pgn", "dortmund-latin1.pgn"]


def load_openings(plies):
    """Distinct positions after `plies` plies of the master games, in file order."""
    seen = set()
    openings = []
    for game in standard_games(SOURCES):
        board = game.board()
        moves = list(game.mainline_moves())
        if len(moves) < plies + 10:
            continue
        for mv in moves[:plies]:
            board.push(mv)
        if board.is_game_over():
            continue
        key = board.epd()
        if key not in seen:
            seen.add(key)
            openings.append(moves[:plies])
    return openings


def play_game(engines, new_white, opening, args, max_plies=400):
    """One game; returns (score for NEW, termination, game)."""
    board = chess.Board()
    for mv in opening:
        board.push(mv)
    new, old = engines
    players = {chess.WHITE: new if new_white else old, chess.BLACK: old if new_white else new}
    clocks = {chess.WHITE: args.base, chess.BLACK: args.base}
    game_id = object()
    termination = None
    winner = None
    while not board.is_game_over(claim_draw=True):
        if board.ply() >= max_plies:
            termination = "move limit"
            break
        side = board.turn
        if args.nodes:
            limit = chess.engine.Limit(nodes=args.nodes)
        else:
            limit = chess.engine.Limit(
                white_clock=clocks[chess.WHITE],
                black_clock=clocks[chess.BLACK],
                white_inc=args.inc,
                black_inc=args.inc,
            )
        started = time.monotonic()
        try:
            result = players[side].play(board, limit, game=game_id)
        except chess.engine.EngineError as e:
            termination = f"engine error: {e}"
            winner = not side
            break
        if not args.nodes:
            clocks[side] -= time.monotonic() - started
            if clocks[side] < 0:
                termination = "time forfeit"
                winner = not side
                break
            clocks[side] += args.inc
        if result.move is None or result.move not in board.legal_moves:
            termination = f"illegal or no move {result.move}"
            winner = not side
            break
        board.push(result.move)
    if termination is None:
        outcome = board.outcome(claim_draw=True)
        termination = outcome.termination.name.lower()
        winner = outcome.winner
    new_color = chess.WHITE if new_white else chess.BLACK
    score = 0.5 if winner is None else (1.0 if winner == new_color else 0.0)
    game = chess.pgn.Game.from_board(board)
    game.headers["White"] = "new" if new_white else "old"
    game.headers["Black"] = "old" if new_white else "new"
    game.headers["Termination"] = termination
    game.headers["Result"] = (
        "1/2-1/2" if winner is None else ("1-0" if winner == chess.WHITE else "0-1")
    )
    return score, termination, game


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("new", help="path of the changed engine")
    parser.add_argument("old", help="path of the reference engine")
    parser.add_argument("--games", type=int, default=200, help="games (even)")
    parser.add_argument("--nodes", type=int, help="nodes per move (instead of a clock)")
    parser.add_argument("--base", type=float, default=2.0, help="seconds per game each")
    parser.add_argument("--inc", type=float, default=0.05, help="increment per move, seconds")
    parser.add_argument("--plies", type=int, default=8, help="opening plies from master games")
    parser.add_argument("--skip", type=int, default=0, help="openings to skip")
    parser.add_argument("--hash", type=int, default=16)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument(
        "--new-threads", type=int, default=1,
        help="NEW's Threads option (to measure helper threads against one thread, with "
             "--concurrency 1 and a free core for each thread)")
    parser.add_argument("--pgn", help="append the games to this PGN file")
    for side in ("new", "old"):
        parser.add_argument(
            f"--{side}-option", action="append", default=[], metavar="NAME=VALUE",
            help=f"a UCI option for {side.upper()} (repeatable)")
    args = parser.parse_args()
    try:
        options = {side: dict(o.split("=", 1) for o in getattr(args, f"{side}_option"))
                   for side in ("new", "old")}
    except ValueError:
        parser.error("an option is NAME=VALUE")
    corpus_dir()  # exit status 2 now, not after starting engines, when it is missing

    openings = load_openings(args.plies)[args.skip:]
    pairs = args.games // 2
    if pairs > len(openings):
        print(f"only {len(openings)} openings", file=sys.stderr)
        return 1
    limit = f"{args.nodes} nodes" if args.nodes else f"{args.base:g} s + {args.inc:g} s"
    print(f"{args.new} {options['new']} vs {args.old} {options['old']}, {limit}, "
          f"{2 * pairs} games", flush=True)

    lock = threading.Lock()
    tally = {"w": 0, "d": 0, "l": 0}
    local = threading.local()
    all_engines = []

    def engines():
        if not hasattr(local, "engines"):
            pair = []
            for side, path, threads in (("new", args.new, args.new_threads),
                                        ("old", args.old, 1)):
                e = chess.engine.SimpleEngine.popen_uci(path)
                e.configure({"Hash": args.hash, "Threads": threads, **options[side]})
                pair.append(e)
            local.engines = pair
            with lock:
                all_engines.extend(pair)
        return local.engines

    def job(i):
        score, why, game = play_game(engines(), i % 2 == 0, openings[i // 2], args)
        with lock:
            tally["w" if score == 1 else "l" if score == 0 else "d"] += 1
            n = sum(tally.values())
            if n % 10 == 0 or why not in ("checkmate", "threefold_repetition",
                                          "insufficient_material", "stalemate",
                                          "fifty_moves", "move limit"):
                pct = 100 * (tally["w"] + 0.5 * tally["d"]) / n
                print(f"  {n:4} games: +{tally['w']} ={tally['d']} -{tally['l']} "
                      f"{pct:.1f}%  (last: {why})", flush=True)
            if args.pgn:
                with open(args.pgn, "a", encoding="utf-8") as f:
                    print(game, file=f, end="\n\n")

    try:
        with concurrent.futures.ThreadPoolExecutor(args.concurrency) as pool:
            for f in [pool.submit(job, i) for i in range(2 * pairs)]:
                f.result()
    finally:
        for e in all_engines:
            e.quit()
    w, d, l = tally["w"], tally["d"], tally["l"]
    diff, margin = elo_with_margin(w, d, l)
    n = w + d + l
    print(f"new vs old: +{w} ={d} -{l}  score {100 * (w + 0.5 * d) / n:.1f}%  "
          f"Elo {diff:+.0f} ± {margin:.0f}  ({n} games, {limit})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
