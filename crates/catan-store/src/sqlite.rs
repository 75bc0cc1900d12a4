//! The embedded SQLite backend (migrations/sqlite): TEXT for UUIDs, JSON and
//! times; WAL journal with `synchronous=FULL` so that an acknowledged write
//! survives a crash or power loss. The configured statement timeout is the
//! busy timeout: how long a write waits for another connection's lock before
//! it fails (definitely, nothing written).
//!
//! The statements it runs as PostgreSQL does are in `writes.rs` and
//! `queries.rs`, its way with their parameters in `dialect.rs`; here is
//! what only it does: connecting, and a batch as one INSERT per action.

use crate::StoreOptions;
use crate::error::StoreError;
use crate::writes;
use catan_core::record::RecordedAction;
use sqlx::migrate::Migrator;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use std::str::FromStr;
use std::time::Duration;
use uuid::Uuid;

static MIGRATOR: Migrator = sqlx::migrate!("../../migrations/sqlite");

/// Opens (creating if needed) the database at `url` (`sqlite:...` URL or a
/// plain file path) and applies the migrations.
pub(crate) async fn connect(url: &str, store: &StoreOptions) -> Result<SqlitePool, StoreError> {
    let mut opts = if url.starts_with("sqlite:") {
        let o = SqliteConnectOptions::from_str(url)?;
        // A URL without an explicit mode opens read-write and creates the
        // file, like a plain path does.
        if url.contains("mode=") {
            o
        } else {
            o.create_if_missing(true)
        }
    } else {
        SqliteConnectOptions::new()
            .filename(url)
            .create_if_missing(true)
    };
    let memory = url.contains(":memory:") || url.contains("mode=memory");
    opts = opts
        .foreign_keys(true)
        .busy_timeout(store.statement_timeout)
        .synchronous(SqliteSynchronous::Full);
    if !memory {
        opts = opts.journal_mode(SqliteJournalMode::Wal);
    }
    let pool = SqlitePoolOptions::new()
        // An in-memory database lives in one connection: keep exactly one.
        .max_connections(if memory { 1 } else { 4 })
        .min_connections(if memory { 1 } else { 0 })
        .idle_timeout(if memory {
            None
        } else {
            Some(Duration::from_secs(600))
        })
        .max_lifetime(if memory {
            None
        } else {
            Some(Duration::from_secs(1800))
        })
        .acquire_timeout(store.acquire_timeout)
        .connect_with(opts)
        .await?;
    MIGRATOR.run(&pool).await?;
    Ok(pool)
}

/// Several actions in one transaction: all are stored or none.
pub(crate) async fn append_batch(
    pool: &SqlitePool,
    batch: &[(Uuid, RecordedAction)],
) -> Result<(), StoreError> {
    let mut conn = pool.acquire().await?;
    append_batch_on(&mut conn, batch).await
}

/// [`append_batch`] on a connection the caller holds.
pub(crate) async fn append_batch_on(
    conn: &mut SqliteConnection,
    batch: &[(Uuid, RecordedAction)],
) -> Result<(), StoreError> {
    if let [(game_id, a)] = batch {
        return writes::insert_action(conn, *game_id, a, false).await;
    }
    let mut tx = sqlx::Connection::begin(conn).await?;
    for (game_id, a) in batch {
        writes::insert_action(&mut *tx, *game_id, a, false).await?;
    }
    tx.commit().await?;
    Ok(())
}
