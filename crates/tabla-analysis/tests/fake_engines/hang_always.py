#!/usr/bin/env python3
"""A UCI engine that answers its handshake and then never ends a search, not even when told to
stop, and ignores SIGINT and SIGTERM (only SIGKILL ends it): a hung engine."""

import signal

import fake_uci

signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)

fake_uci.run(name="Fake hang always", on_go=lambda plies: None)
