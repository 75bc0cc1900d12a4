-- Games and their action logs (issue 4); the SQLite twin of
-- migrations/postgres/0001. UUIDs, JSON and times are TEXT (times as
-- fixed-width RFC 3339 UTC with microseconds, so they sort as text).

CREATE TABLE games (
    id              TEXT PRIMARY KEY NOT NULL,
    created         TEXT NOT NULL,
    options         TEXT NOT NULL,
    rules_version   TEXT NOT NULL,
    seed_commitment TEXT NOT NULL,
    -- Kept from the start for restart recovery; revealed only once over.
    seed            TEXT NOT NULL,
    salt            TEXT NOT NULL,
    -- [{name, bot, token_hash}] by seat; token HASHES only, never tokens.
    seats           TEXT NOT NULL,
    player_names    TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('in_progress', 'finished', 'abandoned')),
    result          TEXT,
    opener          TEXT,
    finished        TEXT,
    lobby           TEXT NOT NULL DEFAULT '{}'
);

CREATE INDEX games_in_progress ON games (status, created);
CREATE INDEX games_over_newest_first ON games (finished DESC, id);

CREATE TABLE game_actions (
    game_id  TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    seat     INTEGER NOT NULL CHECK (seat >= 0),
    action   TEXT NOT NULL,
    outcome  TEXT NOT NULL,
    time     TEXT NOT NULL,
    stand_in INTEGER NOT NULL DEFAULT 0 CHECK (stand_in IN (0, 1)),
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
