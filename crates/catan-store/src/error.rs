//! What can go wrong in the store, with the cases the server must tell apart
//! (a duplicate sequence number, an unknown game) as their own variants.

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
    /// The database failed or could not be reached.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// Applying the migrations failed.
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

impl StoreError {
    /// Whether this is [`StoreError::DuplicateSeq`].
    pub fn is_duplicate_seq(&self) -> bool {
        matches!(self, StoreError::DuplicateSeq { .. })
    }

    /// Whether the database itself failed (unreachable, timed out, I/O), as
    /// opposed to the request being wrong.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, StoreError::Database(_) | StoreError::Closed)
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
