-- Games and their action logs (issue 4). The action log is the source of
-- truth: states are rebuilt by replaying it from the seed.

CREATE TABLE games (
    id              UUID PRIMARY KEY,
    created         TIMESTAMPTZ NOT NULL,
    options         JSONB NOT NULL,
    rules_version   TEXT NOT NULL,
    -- Hex SHA-256 of seed and salt, published at game start.
    seed_commitment TEXT NOT NULL,
    -- Kept from the start so that an unfinished game can be rebuilt after a
    -- restart; only revealed to anyone once the game is over.
    seed            TEXT NOT NULL,
    salt            TEXT NOT NULL,
    -- [{name, bot, token_hash}] by seat; token HASHES only, never tokens.
    seats           JSONB NOT NULL,
    -- Lower-cased display names, one per line, for the player-name filter.
    player_names    TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('in_progress', 'finished', 'abandoned')),
    result          JSONB,
    opener          JSONB,
    finished        TIMESTAMPTZ,
    lobby           JSONB NOT NULL DEFAULT '{}'::jsonb
);

CREATE INDEX games_in_progress ON games (created) WHERE status = 'in_progress';
CREATE INDEX games_over_newest_first ON games (finished DESC, id) WHERE status <> 'in_progress';

CREATE TABLE game_actions (
    game_id  UUID NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      BIGINT NOT NULL CHECK (seq >= 1),
    seat     SMALLINT NOT NULL CHECK (seat >= 0),
    action   JSONB NOT NULL,
    -- Dice rolled, card drawn, card stolen: {} when nothing random happened.
    outcome  JSONB NOT NULL,
    time     TIMESTAMPTZ NOT NULL,
    stand_in BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (game_id, seq)
);
