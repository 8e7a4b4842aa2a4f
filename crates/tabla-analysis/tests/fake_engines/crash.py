#!/usr/bin/env python3
"""A UCI engine that dies in the middle of its search of the position 3 moves from the start."""

import os
import sys

import fake_uci


def go(plies):
    if plies == 3:
        fake_uci.say("info depth 1 score cp 5 nodes 10 pv b8c6")
        sys.stderr.write("fake engine: crashing on purpose\n")
        sys.stderr.flush()
        os._exit(3)
    fake_uci.answer(plies)


fake_uci.run(name="Fake crash", on_go=go)
