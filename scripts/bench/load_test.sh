#!/usr/bin/env bash
# A bounded load test of `tabla serve` on loopback with wrk (Debian package `wrk`): about 1,000
# requests/s (5 connections, each waiting 4 ms between requests) for DURATION seconds (default 20)
# against /api/kbnk and /api/position, then one saturated 10 s run of each. Prints wrk's summary
# (requests/s, latency percentiles, errors). Usage: scripts/bench/load_test.sh [DURATION]
set -euo pipefail
cd "$(dirname "$0")/../.."
duration="${1:-20}"
command -v wrk >/dev/null || { echo "load_test.sh: wrk is missing: sudo apt-get install wrk" >&2; exit 2; }
cargo build --release -p tabla-cli
port=18080
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
TABLA_ENDGAME_DIR="$work" target/release/tabla serve --port "$port" 2>"$work/serve.log" &
server=$!
for _ in $(seq 100); do grep -q "listening on" "$work/serve.log" 2>/dev/null && break; sleep 0.2; done
cat > "$work/pace.lua" <<'LUA'
function delay() return 4 end
LUA
base="http://127.0.0.1:$port"
kbnk="$base/api/kbnk?fen=8/8/8/8/8/8/8/NBK1k3+w+-+-+0+1"
position="$base/api/position?fen=r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R+w+KQkq+-+0+1"
for url in "$kbnk" "$position"; do
  echo "== paced, about 1,000 requests/s: $url"
  wrk -t1 -c5 -d"${duration}s" --latency -s "$work/pace.lua" "$url"
done
for url in "$kbnk" "$position"; do
  echo "== saturated: $url"
  wrk -t2 -c16 -d10s --latency "$url"
done
