#!/usr/bin/env python3
"""A scripted UCI engine for tabla-review's tests, and the shared part of the broken ones.

It knows no chess. The tests send it positions of the form `position startpos moves ...` made
by shuffling the king's knights (g1f3 g8f6 f3g1 ...), where the queen's knights have not moved,
so it always answers b1c3 (White to move) or b8c6 (Black to move), both legal there. Its score
is 10 centipawns per move played, so that a test can tell which position an answer belongs to.

Arguments:
  --pid-dir DIR            write a file named after this process's id into DIR (the tests check
                           afterwards that every engine they started is gone)
  --no-uciok-on-second-start
                           when DIR holds exactly one other engine's file (this is the second
                           start), never send uciok: an engine that breaks when restarted once

Without --pid-dir, the environment's FAKE_UCI_PID_DIR stands for it (for tests of the command
line, which starts an engine without arguments).

The broken engines import this module and replace one step (see `run`).
"""

import os
import sys


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def move(plies):
    """The fake's move in the position `plies` moves from the start."""
    return "b1c3" if plies % 2 == 0 else "b8c6"


def answer(plies):
    """The well-behaved answer to `go` in a position `plies` moves from the start."""
    move = globals()["move"](plies)
    for depth in (1, 2):
        say(f"info depth {depth} seldepth {depth + 1} multipv 1 score cp {10 * plies} "
            f"nodes {100 * depth} nps 50000 hashfull 0 time {depth} pv {move}")
    say("info string a line that tabla ignores")
    say(f"bestmove {move}")


def position_plies(words):
    """The plies played to reach the position of a `position` command: its moves, after the
    FEN's own count (fullmove number and side to move) when it gives one."""
    moves = len(words) - words.index("moves") - 1 if "moves" in words else 0
    if len(words) > 7 and words[1] == "fen":
        side, fullmove = words[3], words[7]
        return 2 * (int(fullmove) - 1) + (1 if side == "b" else 0) + moves
    return moves


def argument_list():
    args = sys.argv[1:]
    pid_dir = None
    no_uciok_on_second_start = False
    i = 0
    while i < len(args):
        if args[i] == "--pid-dir":
            pid_dir = args[i + 1]
            i += 2
        elif args[i] == "--no-uciok-on-second-start":
            no_uciok_on_second_start = True
            i += 1
        else:
            i += 1
    if pid_dir is None:
        pid_dir = os.environ.get("FAKE_UCI_PID_DIR")
    return pid_dir, no_uciok_on_second_start


def run(name="Fake", on_go=answer, on_uci=None):
    """The protocol loop. `on_go(plies)` answers a search; `on_uci()` replaces the handshake."""
    pid_dir, no_uciok_on_second_start = argument_list()
    second_start = False
    if pid_dir:
        second_start = len(os.listdir(pid_dir)) == 1
        with open(os.path.join(pid_dir, str(os.getpid())), "w"):
            pass
    plies = 0
    searching_infinite = False
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            say(f"id name {name}")
            say("id author the tabla tests")
            say("option name Hash type spin default 16 min 1 max 1024")
            say("option name Threads type spin default 1 min 1 max 64")
            say("option name MultiPV type spin default 1 min 1 max 8")
            say("option name Clear Hash type button")
            if on_uci is not None:
                on_uci()
            elif not (no_uciok_on_second_start and second_start):
                say("uciok")
        elif command == "isready":
            say("readyok")
        elif command == "position":
            plies = position_plies(words)
        elif command == "go":
            if "infinite" in words:
                searching_infinite = True
                say(f"info depth 1 score cp {10 * plies} nodes 10 pv {move(plies)}")
            else:
                on_go(plies)
        elif command == "stop":
            if searching_infinite:
                searching_infinite = False
                on_go(plies)
        elif command == "quit":
            return


if __name__ == "__main__":
    run()
