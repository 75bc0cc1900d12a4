#!/usr/bin/env bash
# Lease renewals on PostgreSQL alone (docs/PERFORMANCE.md, "Lease
# renewals"): 10,000 leases held by three nodes, each node renewing all of
# its 3,333 at once, three renewals a second in all (one beat each), as
# the cluster's beat does at 10,000 games. Runs the renewal statement the
# store sends, with the schema of migrations/postgres, then again with the
# index on `expires` that migration 0005 dropped and the default fill
# factor, and prints each run's statement latency and how many of the
# updates were heap-only.
#
# Usage: bench/lease-renewals.sh [SECONDS per run, default 20]
# Environment: DATABASE_URL (a PostgreSQL server; the database
# catan_lease_bench is dropped and made anew). Needs psql and pgbench.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-20}"
base="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
db="${base%/*}/catan_lease_bench"
script="$(mktemp)"
trap 'rm -f "$script"' EXIT

psql -q "$base" -c "DROP DATABASE IF EXISTS catan_lease_bench" -c "CREATE DATABASE catan_lease_bench"
for m in migrations/postgres/*.sql; do
  psql -q -v ON_ERROR_STOP=1 "$db" -f "$m"
done
# Listings the size of a real lobby's (about 440 bytes of JSON each).
psql -q -v ON_ERROR_STOP=1 "$db" <<'SQL'
INSERT INTO lobby_leases (lobby_id, node_id, epoch, expires, info, public)
SELECT gen_random_uuid(), 'node-' || (i % 3), 1, now() + interval '3 s',
  jsonb_build_object('id', gen_random_uuid(), 'name', 'Lobby number ' || i,
    'seats', jsonb_build_array(
      jsonb_build_object('name', 'Alice', 'bot', null, 'connected', true),
      jsonb_build_object('name', 'Bob', 'bot', null, 'connected', true),
      jsonb_build_object('name', 'Carol', 'bot', null, 'connected', true),
      jsonb_build_object('name', 'Dan', 'bot', 'normal', 'connected', true)),
    'status', 'in_progress', 'public', true, 'spectators', 2, 'turn', i),
  true
FROM generate_series(1, 10000) i;
CREATE TABLE bench_held AS
  SELECT node_id AS node, array_agg(lobby_id) AS ids, array_agg(epoch) AS epochs
  FROM lobby_leases GROUP BY node_id;
SQL
# The statement of `Store::renew_leases`, with no listing changed.
cat > "$script" <<'SQL'
\set n random(0, 2)
UPDATE lobby_leases l SET expires = now() + make_interval(secs => 3000 / 1000.0),
  info = COALESCE(i.info::jsonb, l.info), public = COALESCE(i.public, l.public)
FROM (SELECT unnest(ids) AS id, unnest(epochs) AS epoch FROM bench_held
      WHERE node = 'node-' || :n) h
LEFT JOIN UNNEST(ARRAY[]::uuid[], ARRAY[]::text[], ARRAY[]::bool[]) AS i(id, info, public)
  ON i.id = h.id
WHERE l.lobby_id = h.id AND l.epoch = h.epoch AND l.node_id = 'node-' || :n
RETURNING l.lobby_id;
SQL

run() {
  psql -q "$db" -c "VACUUM FULL lobby_leases" -c "SELECT pg_stat_reset()" > /dev/null
  echo "== $1"
  pgbench -n -f "$script" -c 3 -R 3 -T "$seconds" "$db" 2>&1 | grep -E "latency (average|stddev)|^tps"
  sleep 1
  psql -qtA "$db" -c "SELECT 'updates ' || n_tup_upd || ', heap-only ' || n_tup_hot_upd \
    FROM pg_stat_user_tables WHERE relname = 'lobby_leases'"
}

run "the schema as migrated (no index on expires, fill factor 50)"
psql -q "$db" -c "CREATE INDEX lobby_leases_by_expiry ON lobby_leases (expires)" \
  -c "ALTER TABLE lobby_leases RESET (fillfactor)"
run "before migration 0005 (index on expires, fill factor 100)"
psql -q "$base" -c "DROP DATABASE catan_lease_bench"
