//! Running one database operation under a deadline without leaking the
//! connection it ran on.
//!
//! A statement whose answer never comes (the database or the network stopped
//! answering; a black hole, not a refusal) would hold its caller and its
//! pooled connection forever: PostgreSQL's `statement_timeout` cannot help
//! when the server never sees the statement. So the caller's clock bounds
//! it. When the deadline passes, the connection is closed instead of being
//! returned to the pool (returning it pings it first, which would hang on
//! the same dead socket), so the pool's slot comes back within sqlx's close
//! timeout. The outcome of a write cut off this way is in doubt
//! ([`StoreError::Timeout`]); a connection that could not even be acquired
//! in time is a definite failure (nothing was sent).

use crate::error::StoreError;
use sqlx::{Database, Pool};
use std::time::Duration;
use tokio::time::Instant;

/// Acquires a connection from `pool` and runs `op` on it, all within
/// `deadline`.
pub(crate) async fn within<DB, T>(
    pool: &Pool<DB>,
    deadline: Duration,
    op: impl AsyncFnOnce(&mut DB::Connection) -> Result<T, StoreError>,
) -> Result<T, StoreError>
where
    DB: Database,
{
    let began = Instant::now();
    let mut conn = match tokio::time::timeout(deadline, pool.acquire()).await {
        Ok(conn) => conn?,
        // Nothing was sent on any connection: a definite failure.
        Err(_) => return Err(StoreError::Database(sqlx::Error::PoolTimedOut)),
    };
    let left = deadline.saturating_sub(began.elapsed());
    match tokio::time::timeout(left, op(&mut conn)).await {
        Ok(outcome) => outcome,
        Err(_) => {
            conn.close_on_drop();
            Err(StoreError::Timeout(deadline))
        }
    }
}
