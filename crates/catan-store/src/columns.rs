//! The column lists both backends' statements name, one per query, so
//! that a column added to the schema is added to every query once.
//!
//! Each list is plain SQL both databases accept. Where the backends store a
//! column differently, the list reads it as one type: JSON as text
//! (`CAST(x AS TEXT)` turns PostgreSQL's JSONB into its text and is a no-op
//! on SQLite's TEXT) and the seat as a 64-bit integer (PostgreSQL keeps a
//! SMALLINT, SQLite an INTEGER). UUIDs and times stay native and are read
//! by each backend's [`crate::decode::ReadRow`].

/// The `games` columns a [`crate::rows::GameRow`] holds, as a literal so
/// that [`SUMMARY`] can extend it with `concat!`.
macro_rules! game_columns {
    () => {
        "id, created, CAST(options AS TEXT) AS options, rules_version, \
         seed_commitment, seed, salt, CAST(seats AS TEXT) AS seats, status, \
         CAST(result AS TEXT) AS result, CAST(opener AS TEXT) AS opener, finished, \
         CAST(lobby AS TEXT) AS lobby"
    };
}

/// What [`crate::decode::game_row`] reads: a `games` row as a
/// [`crate::rows::GameRow`].
pub(crate) const GAME: &str = game_columns!();

/// What [`crate::decode::summary_row`] reads: [`GAME`] and the length of
/// the game's log, for a list of games.
pub(crate) const SUMMARY: &str = concat!(
    game_columns!(),
    ", (SELECT count(*) FROM game_actions a WHERE a.game_id = games.id) AS n_actions"
);

/// The `game_actions` columns a [`crate::rows::StoredAction`] holds, as a
/// literal so that [`ACTION`] can extend it with `concat!`.
macro_rules! stored_action_columns {
    () => {
        "CAST(seat AS BIGINT) AS seat, CAST(action AS TEXT) AS action, \
         CAST(outcome AS TEXT) AS outcome, stand_in"
    };
}

/// What [`crate::decode::action_row`] reads: a `game_actions` row as a
/// [`crate::rows::ActionRow`].
pub(crate) const ACTION: &str = concat!("seq, time, ", stored_action_columns!());

/// What [`crate::decode::stored_action`] reads: what a logged action did,
/// to compare with the action being settled.
pub(crate) const STORED_ACTION: &str = stored_action_columns!();

/// The columns a new game's INSERT writes, in the order
/// [`crate::writes::create_game`] binds a [`crate::rows::NewGameRow`]
/// (`status` is the literal `'in_progress'`).
pub(crate) const NEW_GAME: &str = "id, created, options, rules_version, seed_commitment, \
    seed, salt, seats, player_names, status, opener, lobby";

/// The columns an action's INSERT writes, in the order the inserts
/// ([`crate::writes::insert_action`], the PostgreSQL batches) bind a
/// [`crate::rows::NewActionRow`] after the game id.
pub(crate) const NEW_ACTION: &str = "game_id, seq, seat, action, outcome, time, stand_in";

/// The order of the finished-games list: newest end first.
pub(crate) const FINISHED_ORDER: &str = "finished DESC, created DESC, id";

/// The games to recover, oldest first (no parameter: the same statement
/// on both backends).
pub(crate) const UNFINISHED_IDS: &str =
    "SELECT id FROM games WHERE status = 'in_progress' ORDER BY created, id";
