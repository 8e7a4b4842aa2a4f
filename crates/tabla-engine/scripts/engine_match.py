#!/usr/bin/env python3
"""Play tabla against Stockfish at limited strength and estimate tabla's Elo.

A benchmark, not a test. python-chess's chess.engine drives both engines over UCI; Stockfish
(Debian's 15.1: `apt-get install stockfish`) plays with UCI_LimitStrength at each UCI_Elo level
given. Each opening is played twice with colours swapped; the clock is kept here (default
10 s + 0.1 s a move) and a side whose clock runs out loses. Both engines get the same Move
Overhead (default 100 ms). `--concurrency N` plays N games at once, on N engine pairs: give each a
free core.

    crates/tabla-engine/scripts/engine_match.py [--elo 1800 2100 2400] [--games 12] [--base 10] [--inc 0.1]
                            [--engine PATH] [--stockfish PATH] [--pgn FILE] [--overhead MS]
                            [--concurrency N] [--threads N] [--hash MB] [--option NAME=VALUE ...]

`--option "Skill Level=10"` (or `--option UCI_LimitStrength=true --option UCI_Elo=1600`) measures
a weakened tabla; the figures are in docs/cli.md under `tabla uci`.

For every level it prints wins, draws and losses (from tabla's side), the score, and the Elo
difference with a 95% error margin; tabla's estimate is the level plus that difference.
"""

import argparse
import math
import pathlib
import sys
import threading
import time

import chess
import chess.engine
import chess.pgn

ROOT = pathlib.Path(__file__).resolve().parents[3]

# Balanced, well-known opening lines (SAN from the start position), chosen for this script.
OPENINGS = [
    "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6",
    "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6",
    "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7",
    "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O",
    "e4 e6 d4 d5 Nc3 Nf6 Bg5 Be7",
    "e4 c6 d4 d5 e5 Bf5 Nf3 e6",
    "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 d5",
    "d4 Nf6 c4 e6 Nf3 b6 g3 Bb7",
    "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d3 d6",
    "Nf3 d5 g3 Nf6 Bg2 e6 O-O Be7 d3 O-O",
    "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4 a4 Bf5",
    "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4 d4 d5",
    "e4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7 d3 d6",
    "d4 f5 g3 Nf6 Bg2 e6 Nf3 Be7 O-O O-O",
    "e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7 Qd2 c6",
    "c4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7 Nf3 e6",
    "e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Nf6 Nxc6 bxc6",
    "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nc6 Nc3 Qc7",
    "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6 Nc3 e5",
    "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O Bd3 d5",
    "d4 d5 c4 e6 Nf3 Nf6 g3 Be7 Bg2 O-O",
    "e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Nxe4 d4 Nd6",
    "d4 Nf6 c4 g6 Nc3 d5 cxd5 Nxd5 e4 Nxc3",
    "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5 Ng3 Bg6",
    "e4 e6 d4 d5 Nd2 c5 exd5 Qxd5 Ngf3 cxd4",
    "c4 Nf6 Nc3 e6 Nf3 d5 d4 Be7 Bf4 O-O",
    "d4 d5 Nf3 Nf6 Bf4 e6 e3 c5 c3 Nc6",
    "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6 Nf3 Bf5",
    "e4 e5 Nc3 Nf6 f4 d5 fxe5 Nxe4 Nf3 Be7",
    "d4 Nf6 c4 e6 g3 d5 Bg2 Be7 Nf3 O-O",
    "e4 g6 d4 Bg7 Nc3 d6 f4 Nf6 Nf3 O-O",
    "Nf3 Nf6 c4 b6 g3 Bb7 Bg2 e6 O-O Be7",
]


def opening_board(line: str) -> chess.Board:
    board = chess.Board()
    for san in line.split():
        board.push_san(san)
    return board


def play_game(tabla, stockfish, tabla_white, opening, base, inc, max_plies=400):
    """Plays one game; returns (result for tabla in {1, 0.5, 0}, termination, game)."""
    board = opening_board(opening)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    engines = {
        chess.WHITE: tabla if tabla_white else stockfish,
        chess.BLACK: stockfish if tabla_white else tabla,
    }
    # A fresh key per game: python-chess then sends ucinewgame to both engines.
    game_id = object()
    termination = None
    winner = None
    # Each side's clock after each of its moves, for the PGN's [%clk] comments.
    clock_after = []
    while not board.is_game_over(claim_draw=True):
        if board.ply() >= max_plies:
            termination = "move limit (adjudicated draw)"
            break
        side = board.turn
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE],
            black_clock=clocks[chess.BLACK],
            white_inc=inc,
            black_inc=inc,
        )
        started = time.monotonic()
        try:
            result = engines[side].play(board, limit, game=game_id)
        except chess.engine.EngineError as e:
            termination = f"engine error: {e}"
            winner = not side
            break
        used = time.monotonic() - started
        clocks[side] -= used
        if clocks[side] < 0:
            termination = "time forfeit"
            winner = not side
            break
        clocks[side] += inc
        if result.move is None or result.move not in board.legal_moves:
            termination = f"illegal or no move {result.move}"
            winner = not side
            break
        board.push(result.move)
        clock_after.append(clocks[side])
    if termination is None:
        outcome = board.outcome(claim_draw=True)
        termination = outcome.termination.name.lower()
        winner = outcome.winner
    tabla_color = chess.WHITE if tabla_white else chess.BLACK
    if winner is None:
        score = 0.5
    else:
        score = 1.0 if winner == tabla_color else 0.0
    game = chess.pgn.Game.from_board(board)
    skip = len(opening.split())
    for ply, node in enumerate(game.mainline()):
        if ply >= skip and ply - skip < len(clock_after):
            node.set_clock(clock_after[ply - skip])
    game.headers["White"] = "tabla" if tabla_white else "Stockfish"
    game.headers["Black"] = "Stockfish" if tabla_white else "tabla"
    game.headers["Termination"] = termination
    if winner is None:
        game.headers["Result"] = "1/2-1/2"
    else:
        game.headers["Result"] = "1-0" if winner == chess.WHITE else "0-1"
    return score, termination, game


def elo_with_margin(wins, draws, losses):
    """Elo difference and its 95% margin from a trinomial result (None when undefined)."""
    n = wins + draws + losses
    if n == 0:
        return None, None
    p = (wins + 0.5 * draws) / n
    var = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p**2) / n
    stderr = math.sqrt(var / n)

    def elo(q):
        q = min(max(q, 1e-4), 1 - 1e-4)
        return -400 * math.log10(1 / q - 1)

    diff = elo(p)
    margin = (elo(p + 1.96 * stderr) - elo(p - 1.96 * stderr)) / 2
    return diff, margin


def perfect_bound(n):
    """For a clean sweep of n games: the Elo difference below which so clean a sweep has less
    than a 5% chance (the estimate itself is unbounded)."""
    p = 0.05 ** (1 / n)
    return -400 * math.log10(1 / p - 1)


def open_engines(args, level):
    """One tabla and one Stockfish process, configured for `level`."""
    tabla = chess.engine.SimpleEngine.popen_uci(args.engine)
    options = {"Hash": args.hash, "Threads": args.threads}
    if "Move Overhead" in tabla.options:
        options["Move Overhead"] = args.overhead
    tabla.configure({**options, **args.options})
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    stockfish.configure(
        {"Threads": 1, "Hash": 16, "UCI_LimitStrength": True, "UCI_Elo": level,
         "Move Overhead": args.overhead}
    )
    return tabla, stockfish


def play_level(args, level):
    """Plays `args.games` games at `level` on `args.concurrency` engine pairs; returns the
    summary line."""
    results = {}
    lock = threading.Lock()
    next_game = iter(range(args.games))

    def worker():
        tabla, stockfish = open_engines(args, level)
        try:
            while True:
                with lock:
                    i = next(next_game, None)
                if i is None:
                    return
                opening = OPENINGS[(i // 2) % len(OPENINGS)]
                tabla_white = i % 2 == 0
                score, why, game = play_game(
                    tabla, stockfish, tabla_white, opening, args.base, args.inc
                )
                colour = "white" if tabla_white else "black"
                with lock:
                    results[i] = (score, why)
                    print(f"  Elo {level} game {i + 1:3}: tabla {colour:5} "
                          f"{game.headers['Result']:7} ({why}, "
                          f"{len(list(game.mainline_moves()))} plies)", flush=True)
                    if args.pgn:
                        game.headers["Event"] = f"tabla vs Stockfish UCI_Elo {level}"
                        game.headers["Round"] = str(i + 1)
                        with open(args.pgn, "a", encoding="utf-8") as f:
                            print(game, file=f, end="\n\n")
        finally:
            tabla.quit()
            stockfish.quit()

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.concurrency))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if len(results) != args.games:
        raise RuntimeError(f"only {len(results)} of {args.games} games were played")

    w = sum(1 for score, _ in results.values() if score == 1)
    l = sum(1 for score, _ in results.values() if score == 0)
    d = len(results) - w - l
    forfeits = {"tabla": 0, "Stockfish": 0}
    for score, why in results.values():
        if why == "time forfeit":
            forfeits["tabla" if score == 0 else "Stockfish"] += 1
    diff, margin = elo_with_margin(w, d, l)
    n = w + d + l
    pct = 100 * (w + 0.5 * d) / n
    if w == n or l == n:
        bound = perfect_bound(n)
        sign = 1 if w == n else -1
        line = (f"UCI_Elo {level}: +{w} ={d} -{l}  score {pct:.1f}%  "
                f"Elo diff {'>' if sign > 0 else '<'} {sign * bound:+.0f} (95%)  "
                f"=> tabla {'>' if sign > 0 else '<'} {level + sign * bound:.0f}")
    else:
        line = (f"UCI_Elo {level}: +{w} ={d} -{l}  score {pct:.1f}%  "
                f"Elo diff {diff:+.0f} ± {margin:.0f}  => tabla ≈ {level + diff:.0f}")
    line += f"  (time forfeits: tabla {forfeits['tabla']}, Stockfish {forfeits['Stockfish']})"
    return line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=str(ROOT / "target/release/tabla-engine"))
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--elo", type=int, nargs="+", default=[1800, 2100, 2400])
    parser.add_argument("--games", type=int, default=12, help="games per level (even)")
    parser.add_argument("--base", type=float, default=10.0, help="seconds per game each")
    parser.add_argument("--inc", type=float, default=0.1, help="increment per move, seconds")
    parser.add_argument("--hash", type=int, default=32)
    parser.add_argument(
        "--threads", type=int, default=1,
        help="tabla's search threads (Stockfish keeps 1: at limited strength its play is set "
             "by its skill level, not its speed); give each thread a free core")
    parser.add_argument(
        "--overhead", type=int, default=100,
        help="both engines' Move Overhead in ms: on a busy machine Stockfish's default (10) "
             "loses on time")
    parser.add_argument(
        "--concurrency", type=int, default=1,
        help="games played at once; each needs a free core (engines do not ponder)")
    parser.add_argument("--pgn", help="append the games to this PGN file")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a UCI option for tabla (repeatable)")
    args = parser.parse_args()
    try:
        args.options = dict(o.split("=", 1) for o in args.option)
    except ValueError:
        parser.error("an option is NAME=VALUE")

    print(f"tabla ({args.engine}) vs Stockfish ({args.stockfish}), "
          f"{args.base:g} s + {args.inc:g} s, {args.games} games a level, "
          f"{args.concurrency} at once, tabla on {args.threads} thread(s) with "
          f"{args.hash} MB hash, Move Overhead {args.overhead} ms, options {args.options}",
          flush=True)
    summary = []
    for level in args.elo:
        line = play_level(args, level)
        summary.append(line)
        print(line, flush=True)
    print("\n".join(["summary:"] + summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
