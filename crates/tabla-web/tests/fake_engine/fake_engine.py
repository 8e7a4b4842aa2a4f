#!/usr/bin/env python3
"""A UCI engine for tabla-web's engine tests. It knows no chess: asked to search the start
position, it reports 1. e4 with a lower bound (as an engine does when a search fails high), then
waits for `stop` (`go infinite`, live analysis) or answers `bestmove e2e4` at once (any other
budget: a suggestion). With --crash it dies as soon as it is asked to search; with --hang it never
ends a search, not even when told to stop (a hung engine)."""

import os
import sys

crash = "--crash" in sys.argv[1:]
hang = "--hang" in sys.argv[1:]


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        say("id name Fake crash" if crash else "id name Fake hang" if hang else "id name Fake bound")
        say("uciok")
    elif words[0] == "isready":
        say("readyok")
    elif hang and words[0] in ("go", "stop"):
        continue
    elif words[0] == "go":
        if crash:
            sys.stderr.write("fake engine: crashing on purpose\n")
            sys.stderr.flush()
            os._exit(3)
        say("info depth 1 seldepth 2 multipv 1 score cp 30 lowerbound nodes 20 nps 1000 time 20 pv e2e4")
        if "infinite" not in words:
            say("bestmove e2e4")
    elif words[0] == "stop":
        say("bestmove e2e4")
    elif words[0] == "quit":
        break
