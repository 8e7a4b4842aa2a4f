#!/usr/bin/env python3
"""A UCI engine that dies on its third search when it is the first engine started (its --pid-dir
holds no other engine's file); the engines started after it never crash: an engine that crashes
once in a run and works when started again."""

import os
import sys

import fake_uci

pid_dir, _ = fake_uci.argument_list()
first = pid_dir is not None and len(os.listdir(pid_dir)) == 0
searches = 0


def go(plies):
    global searches
    searches += 1
    if first and searches == 3:
        sys.stderr.write("fake engine: crashing once on purpose\n")
        sys.stderr.flush()
        os._exit(5)
    fake_uci.answer(plies)


fake_uci.run(name="Fake crash once", on_go=go)
