#!/usr/bin/env python3
"""A UCI engine that names itself and lists its options but never sends uciok."""

import fake_uci


def no_uciok():
    fake_uci.say("info string still thinking about the handshake")


fake_uci.run(name="Fake no uciok", on_uci=no_uciok)
