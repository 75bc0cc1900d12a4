#!/usr/bin/env bash
# How fast a surviving node takes a dead node's games over when no client
# asks for them (the reaper alone), so that the cost of resuming a game is
# measured apart from reconnecting clients and the traffic of live games.
#
# GAMES games are set up on node A and played for PLAY seconds by one load
# generator; the load generator is stopped, node B starts beside A, then A
# is SIGKILLed. The script prints when A's lease ran out, when B held every
# game A had in progress, and B's takeover rate. With PERF set, B is
# profiled (`perf record -g`) from the kill until it holds them all, and
# the report's top lines are printed. docs/PERFORMANCE.md ("Takeover alone")
# has the figures.
#
# Usage: bench/takeover.sh [GAMES]
# Environment: DATABASE_URL (a PostgreSQL server; the database
# catan_takeover is dropped and made anew), PLAY (seconds, default 20),
# PORT_BASE (18500), OUT (logs, default a temp dir), NO_BUILD (set: use the
# binaries in target/release as they are), PERF (set: profile node B).
set -euo pipefail
cd "$(dirname "$0")/.."

games="${1:-3000}"
play="${PLAY:-20}"
port_base="${PORT_BASE:-18500}"
out="${OUT:-$(mktemp -d)}"
base="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
db="${base%/*}/catan_takeover"

if [ -z "${NO_BUILD:-}" ]; then
  cargo build --release -p catan-server -p catan-cli --features catan-cli/loadtest --bins
fi
mkdir -p "$out"
ulimit -n 20000
psql -q "$base" -c "DROP DATABASE IF EXISTS catan_takeover" -c "CREATE DATABASE catan_takeover"

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

# node NAME PORT: starts a release node on the shared database.
node() {
  CATAN_BIND="127.0.0.1:$2" DATABASE_URL="$db" CATAN_NODE_ID="$1" \
    CATAN_NODE_URL="http://127.0.0.1:$2" \
    CATAN_MAX_LOBBIES=$((games + 64)) CATAN_MAX_LOBBIES_PER_CLIENT=$((games + 64)) \
    CATAN_HTTP_RATE_PER_SEC=100000 CATAN_HTTP_RATE_BURST=100000 \
    target/release/catan-server --log "warn,catan_server::cluster=info" > "$out/$1.log" 2>&1 &
  pids+=("$!")
  for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$2/healthz" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "node $1 did not start (log $out/$1.log)" >&2
  exit 1
}

# takeovers PORT: how many lobbies the node has taken over so far.
takeovers() {
  curl -fsS "http://127.0.0.1:$1/metrics" 2>/dev/null |
    awk '/^catan_cluster_takeovers(_total)? / {print int($2); found=1} END {if (!found) print 0}'
}

node a $port_base
a_pid=${pids[0]}
sources="$(seq -s, -f "127.0.21.%g" 1 8)"
target/release/catan loadtest --urls "http://127.0.0.1:$port_base" --games "$games" \
  --spectators 0 --duration "${play}s" --pace-ms 2000 --source-ips "$sources" \
  --threads 1 > "$out/loadgen.log" 2>&1 || true
in_progress=$(psql -tAq "$db" -c "SELECT count(*) FROM games WHERE status = 'in_progress'")
actions=$(psql -tAq "$db" -c "SELECT count(*) FROM game_actions")
echo "set up: $in_progress games in progress, $actions actions logged"

node b $((port_base + 1))
b_pid=${pids[1]}
b_port=$((port_base + 1))
before=$(takeovers $b_port)
kill -KILL "$a_pid"
killed=$(date +%s.%N)
echo "killed node a at $(date +%T.%N)"
if [ -n "${PERF:-}" ]; then
  perf record -F 499 -g -p "$b_pid" -o "$out/perf.data" > "$out/perf.log" 2>&1 &
  perf_pid=$!
fi
first=""
while :; do
  n=$(($(takeovers $b_port) - before))
  now=$(date +%s.%N)
  if [ -z "$first" ] && [ "$n" -gt 0 ]; then first=$now; fi
  [ "$n" -ge "$in_progress" ] && break
  if awk -v a="$now" -v b="$killed" 'BEGIN {exit !(a - b > 120)}'; then
    echo "node b took only $n of $in_progress games within 120 s" >&2
    break
  fi
  sleep 0.05
done
done_at=$(date +%s.%N)
if [ -n "${PERF:-}" ]; then
  kill -INT "$perf_pid"
  wait "$perf_pid" || true
fi
awk -v k="$killed" -v f="${first:-$done_at}" -v d="$done_at" -v n="$n" 'BEGIN {
  printf "first takeover %.2f s after the kill; all %d games held %.2f s after the kill\n", f - k, n, d - k
  if (d - f > 0) printf "takeover rate once begun: %.0f games/s (%.2f ms a game)\n", n / (d - f), (d - f) * 1000 / n
}'
grep -c "took a batch" "$out/b.log" | xargs printf "batches logged by node b: %s\n"
if [ -n "${PERF:-}" ]; then
  perf report -i "$out/perf.data" --no-children --stdio --percent-limit 1.5 2>/dev/null |
    grep -E '^ +[0-9]' | head -40
fi
echo "logs in $out"
