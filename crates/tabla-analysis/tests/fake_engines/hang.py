#!/usr/bin/env python3
"""A UCI engine that never ends its search of the position 2 moves from the start, not even
when told to stop, and ignores SIGINT and SIGTERM (only SIGKILL ends it)."""

import signal

import fake_uci

signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)

hung = False


def go(plies):
    global hung
    if plies == 2 or hung:
        hung = True
        return
    fake_uci.answer(plies)


fake_uci.run(name="Fake hang", on_go=go)
