#!/usr/bin/env bash
# The example external bot (examples/python-bot/bot.py) plays a whole game
# against the real server binary over the public protocol: it creates a
# lobby, joins a seat, fills the others with `normal` bots and plays until
# `game_over`. Needs python3 and a built `target/debug/catan-server`.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/lib/test-server.sh
test_server_start

# Bounded: a 6-point game with bots acting at once takes seconds.
timeout 180 python3 examples/python-bot/bot.py --server "http://127.0.0.1:$port" \
  --create --bots 2 --kind normal --vp-target 6
