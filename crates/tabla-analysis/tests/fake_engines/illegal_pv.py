#!/usr/bin/env python3
"""A UCI engine whose principal variation in the position 2 moves from the start holds a move
that is illegal there: after its first move (b1c3) it is Black's turn, not White's e2e4."""

import fake_uci


def go(plies):
    if plies == 2:
        fake_uci.say("info depth 1 score cp 20 nodes 10 pv b1c3 e2e4")
        fake_uci.say("bestmove b1c3")
        return
    fake_uci.answer(plies)


fake_uci.run(name="Fake illegal pv", on_go=go)
