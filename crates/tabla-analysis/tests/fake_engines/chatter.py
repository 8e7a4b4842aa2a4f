#!/usr/bin/env python3
"""A UCI engine that, asked to search the position 1 move from the start, reports without end
and never sends bestmove."""

import fake_uci


def go(plies):
    if plies == 1:
        while True:
            fake_uci.say("info depth 1 score cp 0 nodes 1 pv b8c6")
    fake_uci.answer(plies)


fake_uci.run(name="Fake chatter", on_go=go)
