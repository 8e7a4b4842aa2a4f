#!/usr/bin/env python3
"""A UCI engine that answers its handshake and dies as soon as it is asked to search."""

import os
import sys

import fake_uci


def go(plies):
    sys.stderr.write("fake engine: crashing on every search\n")
    sys.stderr.flush()
    os._exit(4)


fake_uci.run(name="Fake crash always", on_go=go)
