#!/usr/bin/env python3
"""Load check of live analysis (issue 40): many clients open `GET /api/analyse` at once against
one `tabla serve`, while another client measures `GET /api/position`.

Each run:
  anchor   /api/position's latency with no analysis running (the same requests as under load);
  load     --clients clients (default 20) open an analysis of the Bh6 position (3 lines) at the
           same moment and read its events for --seconds seconds, while /api/position is asked
           again and again; then every client closes its stream.
It reports how many analyses were served (goal: at most the server's limit, `GET /api/engine`)
and refused with 429 (the rest), the time from a served client's request to its first line
(goal: under 200 ms) and its events a second (goal: at least 4), /api/position's p50 and p99
under load against the anchor (goal: p99 under 10 ms), and how long after the clients closed
the server reported no running analysis. Medians over --runs runs.

Usage: scripts/bench/live_load.py [--tabla target/release/tabla] [--engine PATH] [--clients 20]
                            [--seconds 5] [--runs 3]

Build first (`cargo build --release -p tabla-cli`). Python's standard library only.
"""

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BH6 = "6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40"
# Positions /api/position is asked about: the start, Kiwipete, the Bh6 position, with moves.
POSITION_QUERIES = [
    {"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "moves": "e2e4 e7e5 g1f3"},
    {"fen": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
    {"fen": BH6},
]


def start_server(tabla, engine, data):
    args = [tabla, "serve", "--port", "0"]
    if engine:
        args += ["--engine", engine]
    env = dict(os.environ, XDG_DATA_HOME=data, TABLA_ENDGAME_DIR=os.path.join(data, "tb"))
    proc = subprocess.Popen(args, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env, text=True)
    deadline = time.time() + 120
    log = ""
    while time.time() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        log += line
        m = re.search(r"listening on http://([^/\s]+)/", line)
        if m:
            host, port = m.group(1).rsplit(":", 1)
            # Keep reading stderr so that the server never blocks on a full pipe.
            threading.Thread(target=lambda: proc.stderr.read(), daemon=True).start()
            return proc, host, int(port)
    proc.kill()
    sys.exit(f"the server did not start:\n{log}")


def get_json(host, port, path):
    conn = http.client.HTTPConnection(host, port, timeout=10)
    conn.request("GET", path)
    res = conn.getresponse()
    body = res.read()
    conn.close()
    return res.status, json.loads(body)


def position_latencies(host, port, until, out):
    """Asks /api/position on one kept-alive connection until `until`; latencies in ms to `out`."""
    conn = http.client.HTTPConnection(host, port, timeout=10)
    i = 0
    while time.perf_counter() < until:
        query = urllib.parse.urlencode(POSITION_QUERIES[i % len(POSITION_QUERIES)])
        t0 = time.perf_counter()
        conn.request("GET", f"/api/position?{query}")
        res = conn.getresponse()
        res.read()
        out.append((time.perf_counter() - t0) * 1000)
        if res.status != 200:
            sys.exit(f"/api/position answered {res.status}")
        i += 1
        time.sleep(0.002)
    conn.close()


def analysis_client(host, port, barrier, seconds, result):
    """Opens an analysis when every client is ready; records its status, first line and events."""
    query = urllib.parse.urlencode({"fen": BH6, "multipv": 3})
    conn = http.client.HTTPConnection(host, port, timeout=30)
    barrier.wait()
    t0 = time.perf_counter()
    conn.request("GET", f"/api/analyse?{query}")
    res = conn.getresponse()
    result["status"] = res.status
    if res.status != 200:
        res.read()
        conn.close()
        return
    events = 0
    first = None
    end = t0 + seconds
    while time.perf_counter() < end:
        line = res.fp.readline()
        if not line:
            break
        if line.startswith(b"data:"):
            data = json.loads(line[5:])
            if data["lines"] and first is None:
                first = (time.perf_counter() - t0) * 1000
            if first is not None:
                events += 1
    result["first_ms"] = first
    # Events a second from the first line on.
    result["rate"] = events / max(1e-9, (time.perf_counter() - t0) - (first or 0) / 1000)
    conn.close()


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def one_run(host, port, clients, seconds):
    anchor = []
    position_latencies(host, port, time.perf_counter() + seconds, anchor)
    results = [dict() for _ in range(clients)]
    barrier = threading.Barrier(clients + 1)
    threads = [
        threading.Thread(target=analysis_client, args=(host, port, barrier, seconds, r)) for r in results
    ]
    for t in threads:
        t.start()
    barrier.wait()
    loaded = []
    position_latencies(host, port, time.perf_counter() + seconds, loaded)
    for t in threads:
        t.join()
    closed = time.perf_counter()
    while get_json(host, port, "/api/engine")[1]["running"] > 0:
        if time.perf_counter() - closed > 10:
            sys.exit("analyses still run 10 s after every client closed")
        time.sleep(0.01)
    idle_ms = (time.perf_counter() - closed) * 1000
    served = [r for r in results if r.get("status") == 200]
    refused = [r for r in results if r.get("status") == 429]
    other = [r.get("status") for r in results if r.get("status") not in (200, 429)]
    if other:
        sys.exit(f"unexpected answers: {other}")
    if any(r.get("first_ms") is None for r in served):
        sys.exit("a served client saw no line")
    return {
        "served": len(served),
        "refused": len(refused),
        "first_ms_max": max(r["first_ms"] for r in served),
        "rate_min": min(r["rate"] for r in served),
        "anchor_p50": percentile(anchor, 50),
        "anchor_p99": percentile(anchor, 99),
        "load_p50": percentile(loaded, 50),
        "load_p99": percentile(loaded, 99),
        "requests": len(loaded),
        "idle_ms": idle_ms,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tabla", default=os.path.join(ROOT, "target/release/tabla"))
    ap.add_argument("--engine", help="a UCI engine for the server (tabla serve --engine)")
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="tabla-live-load-") as data:
        proc, host, port = start_server(args.tabla, args.engine, data)
        try:
            status, engine = get_json(host, port, "/api/engine")
            print(f"engine: {engine['name']} ({engine['path']}), limit {engine['limit']} analyses", flush=True)
            runs = []
            for i in range(args.runs):
                r = one_run(host, port, args.clients, args.seconds)
                runs.append(r)
                print(
                    f"run {i + 1}: served {r['served']}, 429 {r['refused']}; first line within "
                    f"{r['first_ms_max']:.0f} ms, at least {r['rate_min']:.1f} events/s; /api/position "
                    f"p50 {r['anchor_p50']:.2f} -> {r['load_p50']:.2f} ms, p99 {r['anchor_p99']:.2f} -> "
                    f"{r['load_p99']:.2f} ms ({r['requests']} requests); idle {r['idle_ms']:.0f} ms after close",
                    flush=True,
                )
            med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
            print(
                f"median of {len(runs)}: served {med['served']:.0f} (limit {engine['limit']}), 429 "
                f"{med['refused']:.0f} of {args.clients}; first line {med['first_ms_max']:.0f} ms "
                f"(goal < 200); {med['rate_min']:.1f} events/s (goal >= 4); /api/position p99 "
                f"{med['load_p99']:.2f} ms under load (goal < 10), {med['anchor_p99']:.2f} ms without "
                f"({med['load_p99'] / med['anchor_p99']:.2f}x); p50 {med['load_p50']:.2f} / "
                f"{med['anchor_p50']:.2f} ms; idle {med['idle_ms']:.0f} ms after the clients closed"
            )
            ok = (
                med["served"] <= engine["limit"]
                and med["served"] + med["refused"] == args.clients
                and med["first_ms_max"] < 200
                and med["rate_min"] >= 4
                and med["load_p99"] < 10
            )
            print("goals met" if ok else "GOALS NOT MET")
        finally:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    main()
