#!/bin/sh
# Our bot in Catanatron 3.2.1's engine against three of its players.
#
#   bench/catanatron/run.sh --games 100 --opponent alphabeta [--kind hard] [--playouts 200]
#
# Makes its own virtualenv in bench/catanatron/.venv (git-ignored) with
# catanatron==3.2.1 from PyPI, builds the release `catan` binary, and runs
# bridge.py (see its docstring and docs/BOTS.md). Opponents: random,
# weighted, victorypoint (Catanatron's own), value and alphabeta (ours, see
# search_players.py).
set -eu
. "$(dirname "$0")/venv.sh"
cargo build --release --quiet -p catan-cli --manifest-path "$root/Cargo.toml"
exec "$venv/bin/python" "$here/bridge.py" --catan "$root/target/release/catan" "$@"
