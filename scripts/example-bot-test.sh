#!/usr/bin/env bash
# The example external bot (examples/python-bot/bot.py) plays a whole game
# against the real server binary over the public protocol: it creates a
# lobby, joins a seat, fills the others with `normal` bots and plays until
# `game_over`. Needs python3 and a built `target/debug/catan-server`.
set -euo pipefail
cd "$(dirname "$0")/.."

data="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
env -u DATABASE_URL CATAN_DATA_DIR="$data" CATAN_BIND="127.0.0.1:$port" RUST_LOG=warn \
  ./target/debug/catan-server > "$data/server.log" 2>&1 &
server=$!
cleanup() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$data"; }
trap cleanup EXIT

for _ in $(seq 1 100); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/healthz')" 2>/dev/null && break
  sleep 0.1
done
# Bounded: a 6-point game with bots acting at once takes seconds.
timeout 180 python3 examples/python-bot/bot.py --server "http://127.0.0.1:$port" \
  --create --bots 2 --kind normal --vp-target 6
