#!/usr/bin/env python3
"""A UCI engine that prints bytes that are not text in the position 1 move from the start, and
text that is not UCI in the position 4 moves from the start."""

import sys

import fake_uci


def go(plies):
    if plies == 1:
        sys.stdout.buffer.write(b"info depth 1 \xff\xfe\x00 garbage\n")
        sys.stdout.flush()
    elif plies == 4:
        fake_uci.say("Illegal instruction: the search went sideways")
    fake_uci.answer(plies)


fake_uci.run(name="Fake garbage", on_go=go)
