#!/usr/bin/env bash
# The cluster at full size on a host whose open-file limit is 20,000 per
# process: three server nodes over one PostgreSQL database and LOADGENS
# load generators (`catan loadtest --urls`), each spreading its games over
# all three nodes, so that no process needs more descriptors than the limit.
# With KILL_AFTER set, node KILL_NODE is SIGKILLed that long after every
# load generator has finished its setup; each load generator times its own
# recovery, from the first socket it loses to all of its sockets back
# (`--watch-fault`). docs/PERFORMANCE.md ("Cluster at size") has the figures.
#
# Usage: scripts/loadtest-cluster.sh [GAMES in all] [LOADGENS]
# Environment: DATABASE_URL (a PostgreSQL server; the database
# catan_cluster_size is dropped and made anew), SPECTATORS (per game,
# default 1), PACE_MS (2000), DURATION (60s), KILL_AFTER (unset: no fault;
# e.g. 20s), KILL_NODE (1 or 2; default 1), OUT (logs and JSON, default a
# temp dir), PORT_BASE (18400), SETUP_CONCURRENCY (games each load
# generator sets up at once, default 32), REPORT_EVERY (the load
# generators' progress lines, default 10s), GEN_THREADS (runtime threads of
# each load generator, default 1; with 2 a generator notices a killed node's
# closed sockets within 2 s instead of 4, docs/PERFORMANCE.md), NO_BUILD (set:
# use the binaries in target/release as they are).
set -euo pipefail
cd "$(dirname "$0")/.."

games="${1:-10000}"
loadgens="${2:-3}"
spectators="${SPECTATORS:-1}"
setup_concurrency="${SETUP_CONCURRENCY:-32}"
pace="${PACE_MS:-2000}"
duration="${DURATION:-60s}"
kill_node="${KILL_NODE:-1}"
port_base="${PORT_BASE:-18400}"
out="${OUT:-$(mktemp -d)}"
base="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
db="${base%/*}/catan_cluster_size"
nodes=3

if [ "$kill_node" != 1 ] && [ "$kill_node" != 2 ]; then
  # Node 0 is where the load generators read the logs back for the check.
  echo "KILL_NODE must be 1 or 2" >&2
  exit 64
fi
if [ -z "${NO_BUILD:-}" ]; then
  cargo build --release -p catan-server -p catan-cli --features catan-cli/loadtest --bins
fi
mkdir -p "$out"
ulimit -n 20000
# The load generators keep freed memory ten seconds, as every server node
# does by itself (crates/catan-server/src/main.rs says why).
export MIMALLOC_PURGE_DELAY="${MIMALLOC_PURGE_DELAY:-10000}"
# Games left in progress by an earlier run would be taken over and resumed
# by the new nodes and load them: always start from an empty database.
psql -q "$base" -c "DROP DATABASE IF EXISTS catan_cluster_size" -c "CREATE DATABASE catan_cluster_size"

urls=""
node_pids=()
cleanup() {
  for pid in "${node_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT
for i in $(seq 0 $((nodes - 1))); do
  addr="127.0.0.1:$((port_base + i))"
  urls="${urls:+$urls,}http://$addr"
  # The same settings `catan loadtest --spawn-server` gives a node, for
  # every game of the run (a survivor may hold half of a dead node's).
  CATAN_BIND="$addr" DATABASE_URL="$db" CATAN_NODE_ID="node-$i" CATAN_NODE_URL="http://$addr" \
    CATAN_MAX_LOBBIES=$((games + 64)) CATAN_MAX_LOBBIES_PER_CLIENT=$((games + 64)) \
    CATAN_HTTP_RATE_PER_SEC=100000 CATAN_HTTP_RATE_BURST=100000 \
    target/release/catan-server --log "warn,catan_server::cluster=info" > "$out/node-$i.log" 2>&1 &
  node_pids+=("$!")
done
for i in $(seq 0 $((nodes - 1))); do
  for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$((port_base + i))/healthz" >/dev/null 2>&1 && break
    sleep 0.2
  done
done

per=$((games / loadgens))
watch=()
[ -n "${KILL_AFTER:-}" ] && watch=(--watch-fault)
gen_pids=()
for g in $(seq 1 "$loadgens"); do
  # Each load generator's clients use their own eight source addresses.
  sources="$(seq -s, -f "127.0.$((g + 10)).%g" 1 8)"
  target/release/catan loadtest --urls "$urls" --games "$per" --spectators "$spectators" \
    --duration "$duration" --pace-ms "$pace" --setup-concurrency "$setup_concurrency" --source-ips "$sources" \
    --database-url "$db" --report-every "${REPORT_EVERY:-10s}" --threads "${GEN_THREADS:-1}" "${watch[@]}" \
    --json "$out/loadgen-$g.json" > "$out/loadgen-$g.log" 2>&1 &
  gen_pids+=("$!")
done

if [ -n "${KILL_AFTER:-}" ]; then
  until [ "$(grep -l '^setup      done' "$out"/loadgen-*.log 2>/dev/null | wc -l)" -ge "$loadgens" ]; do
    sleep 0.5
  done
  sleep "${KILL_AFTER%s}"
  echo "killing node $kill_node (pid ${node_pids[$kill_node]}) at $(date +%T.%N)"
  kill -KILL "${node_pids[$kill_node]}"
fi

status=0
for pid in "${gen_pids[@]}"; do
  wait "$pid" || status=$?
done
for i in $(seq 0 $((nodes - 1))); do
  pid="${node_pids[$i]}"
  [ -r "/proc/$pid/status" ] || continue
  rss=$(awk '/^VmRSS/ {print int($2 / 1024)}' "/proc/$pid/status")
  # utime + stime in clock ticks, since the node started.
  ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  renew=$(curl -fsS "http://127.0.0.1:$((port_base + i))/metrics" 2>/dev/null \
    | awk '/^catan_cluster_renew_seconds_(sum|count)/ {print $1 "=" $2}' | tr '\n' ' ')
  echo "== node $i: RSS ${rss} MiB, CPU $((ticks / $(getconf CLK_TCK))) s in all; $renew"
done
for g in $(seq 1 "$loadgens"); do
  echo "== load generator $g (log $out/loadgen-$g.log)"
  sed -n '/== catan loadtest summary ==/,$p' "$out/loadgen-$g.log"
done
echo "logs in $out"
exit "$status"
