//! What can go wrong in the store, with the cases the server must tell apart
//! (a duplicate sequence number, an unknown game) as their own variants, and
//! for writes whether the failure is definite (nothing was written) or in
//! doubt (the write may still have committed: see [`StoreError::is_in_doubt`]).

use std::time::Duration;
use uuid::Uuid;

/// A store failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database URL names no supported backend.
    #[error("unsupported database URL {0:?} (use postgres://... or sqlite://... or a file path)")]
    BadUrl(String),
    /// An action with this (game, seq) is already stored: nothing was written.
    #[error("game {game_id} already has an action with seq {seq}")]
    DuplicateSeq {
        /// The game.
        game_id: Uuid,
        /// The sequence number already taken.
        seq: u64,
    },
    /// A game with this id already exists.
    #[error("game {0} already exists")]
    DuplicateGame(Uuid),
    /// No game with this id.
    #[error("there is no game {0}")]
    UnknownGame(Uuid),
    /// A value given to the store is unusable (e.g. a time that is not RFC 3339).
    #[error("invalid input: {0}")]
    Invalid(String),
    /// Stored data could not be read back (a bug or a hand-edited database).
    #[error("stored data is unreadable: {0}")]
    Corrupt(String),
    /// The group-commit writer has stopped.
    #[error("the group-commit writer has stopped")]
    Closed,
    /// The database did not answer within the deadline. A write that timed
    /// out is in doubt: it may still commit.
    #[error("the database did not answer within {0:?}")]
    Timeout(Duration),
    /// The database could not store a group-commit batch (every action of
    /// the batch gets this; the batch's own error is in `reason`).
    #[error("the database is unavailable: {reason}")]
    Unavailable {
        /// What the database said.
        reason: String,
        /// Whether the batch may still have committed.
        in_doubt: bool,
    },
    /// The action at `(game, seq)` is a different one than the action being
    /// settled: the log and its writer disagree.
    #[error("game {game_id} holds a different action at seq {seq}")]
    Conflict {
        /// The game.
        game_id: Uuid,
        /// The sequence number.
        seq: u64,
    },
    /// The writer no longer holds the lobby's lease at the epoch it wrote
    /// with (another node took the lobby over): nothing was written.
    #[error("game {game_id} is owned by another node now (fenced)")]
    Fenced {
        /// The game.
        game_id: Uuid,
    },
    /// This cluster node's own lease is not live (it gave its lobbies up
    /// and has not renewed since): it may take no lobby now.
    #[error("this node's lease is not live; it takes no lobby until it renews it")]
    LeaseLapsed,
    /// Another running process beats under this node id.
    #[error("node id {0:?} is in use by another running server")]
    NodeIdInUse(String),
    /// A cluster operation on a backend that has no cluster (SQLite).
    #[error("running several nodes needs PostgreSQL")]
    NeedsPostgres,
    /// The database failed or could not be reached.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// Applying the migrations failed.
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

impl StoreError {
    /// Whether this is [`StoreError::Fenced`].
    pub fn is_fenced(&self) -> bool {
        matches!(self, StoreError::Fenced { .. })
    }

    /// Whether this is [`StoreError::DuplicateSeq`].
    pub fn is_duplicate_seq(&self) -> bool {
        matches!(self, StoreError::DuplicateSeq { .. })
    }

    /// Whether the database itself failed (unreachable, timed out, I/O), as
    /// opposed to the request being wrong.
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self,
            StoreError::Database(_)
                | StoreError::Closed
                | StoreError::Timeout(_)
                | StoreError::Unavailable { .. }
        )
    }

    /// Whether a failed write may nevertheless have committed: it timed out,
    /// or the connection broke while the statement was under way. Definite
    /// failures are answers from the database (an error reply rolls the
    /// statement back), constraint violations, and failures to get a
    /// connection at all. A caller that sees an in-doubt failure must read
    /// back before it assumes either outcome ([`crate::Store::ensure_action`]).
    pub fn is_in_doubt(&self) -> bool {
        match self {
            StoreError::Timeout(_) | StoreError::Closed => true,
            StoreError::Unavailable { in_doubt, .. } => *in_doubt,
            StoreError::Database(e) => !matches!(
                e,
                sqlx::Error::Database(_)
                    | sqlx::Error::PoolTimedOut
                    | sqlx::Error::PoolClosed
                    | sqlx::Error::Configuration(_)
                    | sqlx::Error::Tls(_)
            ),
            _ => false,
        }
    }

    /// The same failure as a fresh value, for the other callers of a batch
    /// that failed as a whole (database errors cannot be cloned).
    pub(crate) fn for_batch(&self) -> StoreError {
        StoreError::Unavailable {
            reason: self.to_string(),
            in_doubt: self.is_in_doubt(),
        }
    }
}

/// Classifies a failed INSERT: constraint violations become our own variants.
pub(crate) fn classify_insert(e: sqlx::Error, on_unique: StoreError, game_id: Uuid) -> StoreError {
    if let sqlx::Error::Database(db) = &e {
        if db.is_unique_violation() {
            return on_unique;
        }
        if db.is_foreign_key_violation() {
            return StoreError::UnknownGame(game_id);
        }
    }
    StoreError::Database(e)
}

/// Classifies a failed INSERT of actions: a taken `(game, seq)` is
/// [`StoreError::DuplicateSeq`] (named by `game_id` and `seq`).
pub(crate) fn classify_append(e: sqlx::Error, game_id: Uuid, seq: u64) -> StoreError {
    classify_insert(e, StoreError::DuplicateSeq { game_id, seq }, game_id)
}

/// `Ok` if an UPDATE of game `game_id` touched a row (`rows` of them);
/// otherwise there is no such game.
pub(crate) fn known_game(rows: u64, game_id: Uuid) -> Result<(), StoreError> {
    if rows == 0 {
        return Err(StoreError::UnknownGame(game_id));
    }
    Ok(())
}
