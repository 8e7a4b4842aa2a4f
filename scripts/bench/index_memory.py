#!/usr/bin/env python3
"""Peak memory of `tabla serve` for one `POST /api/pgn/index` of the worst bodies under the
default 16 MiB limit (issue 56, item 2): a fresh server per body, its peak resident set
(`VmHWM` of /proc/PID/status) read after the answer, with the answer's status and size.

The bodies, each just under 16 MiB:
  tiny-games     `*` and a newline, two bytes a game (8 million games; refused past the limit)
  many-warnings  one game of `$300` tokens, each one a warning (3.3 million)
  warned-games   100,000 games each with 40 warnings
  tagged-games   100,000 games, each with the six listed tags of about 20 bytes and a move
  long-tags      1,000 games whose six listed tags are 2.7 KB each
  idle           no request: the server's own footprint, the anchor

Usage: scripts/bench/index_memory.py [--tabla target/debug/tabla] [--runs 3]
Prints one line a body: its name, bytes, status, answer bytes and the median peak in MB.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request

LIMIT = 16 * 1024 * 1024 - 4096


def bodies():
    tiny = b"*\n" * (LIMIT // 2)
    warnings = b"1. e4 " + b"$300 " * ((LIMIT - 20) // 5) + b"e5 *\n"
    game = b"1. e4 " + b"$300 " * 40 + b"e5 *\n\n"
    warned = game * min(100_000, LIMIT // len(game))
    tags = "".join(
        f'[Event "Event {i:010d}"]\n[Site "Site {i:011d}"]\n[Date "2024.01.01"]\n'
        f'[Round "{i:012d}"]\n[White "White {i:010d}"]\n[Black "Black {i:010d}"]\n\n1. e4 *\n\n'
        for i in range(100_000)
    ).encode()
    assert len(tags) < LIMIT, len(tags)
    value = "x" * 2700
    long_game = "".join(f'[{t} "{value}"]\n' for t in ("Event", "Site", "Date", "Round", "White", "Black"))
    long_tags = ((long_game + "\n1. e4 *\n\n") * 1000).encode()
    return [
        ("idle", None),
        ("tiny-games", tiny),
        ("many-warnings", warnings),
        ("warned-games", warned),
        ("tagged-games", tags),
        ("long-tags", long_tags),
    ]


def peak_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        m = re.search(r"VmHWM:\s+(\d+) kB", f.read())
    return int(m.group(1)) / 1024


def one(tabla, body):
    server = subprocess.Popen(
        [tabla, "serve", "--port", "0"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
    )
    try:
        port = None
        for line in server.stderr:
            m = re.search(r"listening on http://[^:]+:(\d+)/", line)
            if m:
                port = int(m.group(1))
                break
        if port is None:
            sys.exit("tabla serve did not say where it listens")
        status, size = "-", 0
        if body is not None:
            req = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/pgn/index", data=body, method="POST",
                headers={"Content-Type": "application/x-chess-pgn"},
            )
            try:
                with urllib.request.urlopen(req, timeout=600) as r:
                    status, size = r.status, len(r.read())
            except urllib.error.HTTPError as e:
                status, size = e.code, len(e.read())
        else:
            time.sleep(0.5)
        return status, size, peak_mb(server.pid)
    finally:
        server.terminate()
        server.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tabla", default="target/debug/tabla")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    tabla = os.path.abspath(args.tabla)
    for name, body in bodies():
        runs = [one(tabla, body) for _ in range(args.runs)]
        peaks = [r[2] for r in runs]
        status, size = runs[-1][0], runs[-1][1]
        print(
            f"{name:14} body {len(body or b''):>10,} B  status {status}  answer {size:>12,} B  "
            f"peak {statistics.median(peaks):7.1f} MB (runs: {', '.join(f'{p:.0f}' for p in peaks)})",
            flush=True,
        )


if __name__ == "__main__":
    main()
