#!/usr/bin/env bash
# Smoke load and fault runs of `catan loadtest` against both storage backends:
# a small load and a SIGKILL-and-restart run on SQLite, then the same on a
# dedicated PostgreSQL database that is created here and dropped at the end.
#
# Figures are printed, not asserted. Exits non-zero only if the tool fails
# (exit 1) or the final log check finds lost, duplicated or unexplained
# actions (exit 2).
#
# Environment:
#   DATABASE_URL        PostgreSQL server to use (default postgres://postgres@127.0.0.1:5432/postgres)
#   LOADTEST_PROFILE    debug (default) or release binaries
#   LOADTEST_GAMES      games per run (default 20)
#   LOADTEST_DURATION   measured time of the load runs (default 15s)
#   LOADTEST_PORT       loopback port for the spawned server (default 18090)
#   LOADTEST_NO_BUILD   set: use target/$profile's binaries as they are
#                       (scripts/test.sh has built them with every feature;
#                       a build here, with other features, would compile
#                       the dependencies again)
set -euo pipefail
cd "$(dirname "$0")/.."

profile="${LOADTEST_PROFILE:-debug}"
games="${LOADTEST_GAMES:-20}"
duration="${LOADTEST_DURATION:-15s}"
port="${LOADTEST_PORT:-18090}"
pg_base="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
case "$pg_base" in
  postgres://*|postgresql://*) ;;
  *) pg_base="postgres://postgres@127.0.0.1:5432/postgres" ;;
esac

if [ -n "${LOADTEST_NO_BUILD:-}" ]; then
  :
elif [ "$profile" = release ]; then
  cargo build --release -p catan-server -p catan-cli --features catan-cli/loadtest --bins
else
  cargo build -p catan-server -p catan-cli --features catan-cli/loadtest --bins
fi
bin="target/$profile"

if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  echo "loadtest-smoke: port $port is in use; set LOADTEST_PORT" >&2
  exit 1
fi

work="$(mktemp -d)"
pg_db="catan_loadtest_$$"
pg_url="${pg_base%/*}/$pg_db"
pg_created=0
cleanup() {
  if [ "$pg_created" = 1 ]; then
    psql -q "$pg_base" -c "DROP DATABASE IF EXISTS $pg_db WITH (FORCE)" >/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

run() {
  local name="$1"
  shift
  echo
  echo "== loadtest: $name"
  "$bin/catan" loadtest \
    --url "http://127.0.0.1:$port" \
    --spawn-server "$bin/catan-server" \
    --games "$games" \
    --pace-ms 1000 \
    --source-count 4 \
    --report-every 5s \
    --server-log "$work/server.log" \
    "$@"
}

run "SQLite, $games games, $duration" \
  --database-url "sqlite://$work/load.db?mode=rwc" --duration "$duration"
run "SQLite fault run: SIGKILL after 5s" \
  --database-url "sqlite://$work/fault.db?mode=rwc" --duration 12s --kill-after 5s

psql -q "$pg_base" -c "CREATE DATABASE $pg_db" >/dev/null
pg_created=1
run "PostgreSQL, $games games, $duration" \
  --database-url "$pg_url" --duration "$duration"
run "PostgreSQL fault run: SIGKILL after 5s" \
  --database-url "$pg_url" --duration 12s --kill-after 5s

echo
echo "loadtest-smoke: all runs finished and every log check passed"
