-- The SQLite indexes made the same as PostgreSQL's (partial, on the same
-- columns); tests/schema_drift.rs in catan-store compares the two schemas.

DROP INDEX games_in_progress;
DROP INDEX games_over_newest_first;
CREATE INDEX games_in_progress ON games (created) WHERE status = 'in_progress';
CREATE INDEX games_over_newest_first ON games (finished DESC, id) WHERE status <> 'in_progress';
