#!/usr/bin/env bash
# The full-size load run on a host whose open-file limit is below 50,000:
# SHARDS server processes (each spawned by its own `catan loadtest`, each
# with its own PostgreSQL database on the same PostgreSQL server), run at
# the same time on the same cores, each with GAMES games. One server process
# needs one descriptor per socket, so where `ulimit -n` cannot go above
# 20,000 (as in the container the figures in docs/PERFORMANCE.md come from),
# 10,000 games / 50,000 sockets need three processes. Where the limit can be
# raised, run one `catan loadtest --games 10000` instead.
#
# Usage: scripts/loadtest-sharded.sh [SHARDS] [GAMES per shard]
# Environment: DATABASE_URL (PostgreSQL server; databases loadtest_shard_N
# are created and dropped), PACE_MS (default 2000), DURATION (default 60s),
# OUT (directory for logs and JSON, default a temp dir), PORT_BASE (18300).
set -euo pipefail
cd "$(dirname "$0")/.."

shards="${1:-3}"
games="${2:-3400}"
pace="${PACE_MS:-2000}"
duration="${DURATION:-60s}"
port_base="${PORT_BASE:-18300}"
out="${OUT:-$(mktemp -d)}"
base="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
server_url="${base%/*}"

cargo build --release -p catan-server -p catan-cli --features catan-cli/loadtest --bins
mkdir -p "$out"

for i in $(seq 1 "$shards"); do
  psql -q "$base" -c "DROP DATABASE IF EXISTS loadtest_shard_$i" -c "CREATE DATABASE loadtest_shard_$i"
done

pids=()
for i in $(seq 1 "$shards"); do
  # Each shard's clients use their own eight source addresses 127.0.i.1-8.
  sources="$(seq -s, -f "127.0.$i.%g" 1 8)"
  target/release/catan loadtest --url "http://127.0.0.1:$((port_base + i))" \
    --spawn-server target/release/catan-server \
    --database-url "$server_url/loadtest_shard_$i" \
    --games "$games" --duration "$duration" --pace-ms "$pace" \
    --source-ips "$sources" --report-every 10s --threads 2 \
    --json "$out/shard-$i.json" > "$out/shard-$i.log" 2>&1 &
  pids+=("$!")
done

status=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || status=$?
done
for i in $(seq 1 "$shards"); do
  echo "== shard $i (log $out/shard-$i.log)"
  sed -n '/== catan loadtest summary ==/,$p' "$out/shard-$i.log"
  psql -q "$base" -c "DROP DATABASE IF EXISTS loadtest_shard_$i"
done
exit "$status"
