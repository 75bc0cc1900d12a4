//! Reading the backend-neutral rows ([`crate::rows`]) out of either
//! backend's result rows: one decoder per row type, over [`ReadRow`], which
//! both sqlx row types implement. The columns are those of
//! [`crate::columns`], which already read JSON as text and the seat as a
//! 64-bit integer on both backends; only UUIDs and times, which SQLite keeps
//! as text, are read differently.

use crate::error::StoreError;
use crate::model::parse_time;
use crate::rows::{ActionRow, GameRow, StartColumns, StoredAction};
use chrono::{DateTime, Utc};
use sqlx::postgres::PgRow;
use sqlx::sqlite::SqliteRow;
use sqlx::{ColumnIndex, Decode, Row, Type};
use uuid::Uuid;

/// The columns both backends decode alike (sqlx's own decoding), for any
/// sqlx row whose database decodes these types.
pub(crate) trait PlainColumns {
    /// A text column.
    fn text(&self, col: &str) -> Result<String, StoreError>;
    /// A nullable text column.
    fn opt_text(&self, col: &str) -> Result<Option<String>, StoreError>;
    /// A 64-bit integer column.
    fn int(&self, col: &str) -> Result<i64, StoreError>;
    /// A boolean column.
    fn flag(&self, col: &str) -> Result<bool, StoreError>;
}

impl<R> PlainColumns for R
where
    R: Row,
    for<'c> &'c str: ColumnIndex<R>,
    String: Type<R::Database> + for<'r> Decode<'r, R::Database>,
    i64: Type<R::Database> + for<'r> Decode<'r, R::Database>,
    bool: Type<R::Database> + for<'r> Decode<'r, R::Database>,
{
    fn text(&self, col: &str) -> Result<String, StoreError> {
        Ok(self.try_get(col)?)
    }

    fn opt_text(&self, col: &str) -> Result<Option<String>, StoreError> {
        Ok(self.try_get(col)?)
    }

    fn int(&self, col: &str) -> Result<i64, StoreError> {
        Ok(self.try_get(col)?)
    }

    fn flag(&self, col: &str) -> Result<bool, StoreError> {
        Ok(self.try_get(col)?)
    }
}

/// A result row of either backend, read column by column.
pub(crate) trait ReadRow: PlainColumns {
    /// A UUID column.
    fn uuid(&self, col: &str) -> Result<Uuid, StoreError>;
    /// A time column.
    fn time(&self, col: &str) -> Result<DateTime<Utc>, StoreError>;
    /// A nullable time column.
    fn opt_time(&self, col: &str) -> Result<Option<DateTime<Utc>>, StoreError>;
}

/// PostgreSQL has UUID and TIMESTAMPTZ columns: sqlx decodes them.
impl ReadRow for PgRow {
    fn uuid(&self, col: &str) -> Result<Uuid, StoreError> {
        Ok(self.try_get(col)?)
    }

    fn time(&self, col: &str) -> Result<DateTime<Utc>, StoreError> {
        Ok(self.try_get(col)?)
    }

    fn opt_time(&self, col: &str) -> Result<Option<DateTime<Utc>>, StoreError> {
        Ok(self.try_get(col)?)
    }
}

/// SQLite keeps UUIDs and times as text (times as RFC 3339, see
/// migrations/sqlite): text that does not parse is corrupt data.
impl ReadRow for SqliteRow {
    fn uuid(&self, col: &str) -> Result<Uuid, StoreError> {
        let s: String = self.try_get(col)?;
        Uuid::parse_str(&s).map_err(|e| StoreError::Corrupt(format!("{col} {s:?}: {e}")))
    }

    fn time(&self, col: &str) -> Result<DateTime<Utc>, StoreError> {
        let s: String = self.try_get(col)?;
        parse_time(&s).map_err(StoreError::Corrupt)
    }

    fn opt_time(&self, col: &str) -> Result<Option<DateTime<Utc>>, StoreError> {
        let s: Option<String> = self.try_get(col)?;
        s.as_deref()
            .map(parse_time)
            .transpose()
            .map_err(StoreError::Corrupt)
    }
}

/// A row of [`crate::columns::GAME`].
pub(crate) fn game_row(r: &impl ReadRow) -> Result<GameRow, StoreError> {
    Ok(GameRow {
        start: StartColumns {
            id: r.uuid("id")?,
            created: r.time("created")?,
            options: r.text("options")?,
            rules_version: r.text("rules_version")?,
            seed_commitment: r.text("seed_commitment")?,
            seed: r.text("seed")?,
            salt: r.text("salt")?,
            opener: r.opt_text("opener")?,
            lobby: r.text("lobby")?,
        },
        seats: r.text("seats")?,
        status: r.text("status")?,
        result: r.opt_text("result")?,
        finished: r.opt_time("finished")?,
    })
}

/// A row of [`crate::columns::SUMMARY`]: the game and its log's length.
pub(crate) fn summary_row(r: &impl ReadRow) -> Result<(GameRow, i64), StoreError> {
    Ok((game_row(r)?, r.int("n_actions")?))
}

/// A row of [`crate::columns::ACTION`].
pub(crate) fn action_row(r: &impl ReadRow) -> Result<ActionRow, StoreError> {
    Ok(ActionRow {
        seq: r.int("seq")?,
        time: r.time("time")?,
        what: stored_action(r)?,
    })
}

/// A row of [`crate::columns::STORED_ACTION`].
pub(crate) fn stored_action(r: &impl ReadRow) -> Result<StoredAction, StoreError> {
    Ok(StoredAction {
        seat: r.int("seat")?,
        action: r.text("action")?,
        outcome: r.text("outcome")?,
        stand_in: r.flag("stand_in")?,
    })
}
