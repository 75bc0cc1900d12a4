//! The embedded SQLite backend (migrations/sqlite): TEXT for UUIDs, JSON and
//! times; WAL journal with `synchronous=FULL` so that an acknowledged write
//! survives a crash or power loss. The configured statement timeout is the
//! busy timeout: how long a write waits for another connection's lock before
//! it fails (definitely, nothing written).

use crate::StoreOptions;
use crate::columns;
use crate::decode::{action_row, game_row, stored_action};
use crate::error::{StoreError, classify_append, classify_insert, known_game};
use crate::model::format_time;
use crate::rows::{ActionRow, GameRow, NewActionRow, NewGameRow, SeatColumns, json_text, seq_sql};
use catan_core::record::{GameResult, GameStatus, RecordedAction};
use chrono::{DateTime, Utc};
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

pub(crate) async fn create_game(pool: &SqlitePool, g: &NewGameRow) -> Result<(), StoreError> {
    sqlx::query(&format!(
        "INSERT INTO games ({}) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'in_progress', ?10, ?11)",
        columns::NEW_GAME
    ))
    .bind(g.id.to_string())
    .bind(format_time(g.created))
    .bind(&g.options)
    .bind(&g.rules_version)
    .bind(&g.seed_commitment)
    .bind(&g.seed)
    .bind(&g.salt)
    .bind(&g.seats.seats)
    .bind(&g.seats.player_names)
    .bind(&g.opener)
    .bind(&g.lobby)
    .execute(pool)
    .await
    .map_err(|e| classify_insert(e, StoreError::DuplicateGame(g.id), g.id))?;
    Ok(())
}

/// Deletes game `id` if it has no action; whether it did.
pub(crate) async fn delete_unplayed(pool: &SqlitePool, id: Uuid) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "DELETE FROM games WHERE id = ?1 \
         AND NOT EXISTS (SELECT 1 FROM game_actions WHERE game_id = ?1)",
    )
    .bind(id.to_string())
    .execute(pool)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// One action in its own auto-committed statement.
pub(crate) async fn append_action(
    pool: &SqlitePool,
    game_id: Uuid,
    a: &RecordedAction,
) -> Result<(), StoreError> {
    insert_action(pool, game_id, a, false).await
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
        return insert_action(conn, *game_id, a, false).await;
    }
    let mut tx = sqlx::Connection::begin(conn).await?;
    for (game_id, a) in batch {
        insert_action(&mut *tx, *game_id, a, false).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Stores `a` unless `(game, seq)` is taken, then checks that what is stored
/// there is `a` (an append that timed out may have committed meanwhile).
pub(crate) async fn ensure_action(
    conn: &mut SqliteConnection,
    game_id: Uuid,
    a: &RecordedAction,
) -> Result<(), StoreError> {
    insert_action(&mut *conn, game_id, a, true).await?;
    let row = sqlx::query(&format!(
        "SELECT {} FROM game_actions WHERE game_id = ?1 AND seq = ?2",
        columns::STORED_ACTION
    ))
    .bind(game_id.to_string())
    .bind(seq_sql(a.seq)?)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(|| StoreError::Corrupt(format!("seq {} vanished from {game_id}", a.seq)))?;
    stored_action(&row)?.check_is(game_id, a)
}

async fn insert_action<'e, E: sqlx::Executor<'e, Database = sqlx::Sqlite>>(
    ex: E,
    game_id: Uuid,
    a: &RecordedAction,
    if_absent: bool,
) -> Result<(), StoreError> {
    let row = NewActionRow::of(a)?;
    // OR IGNORE skips only the taken key here: foreign keys still fail.
    let or_ignore = if if_absent { " OR IGNORE" } else { "" };
    sqlx::query(&format!(
        "INSERT{or_ignore} INTO game_actions ({}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        columns::NEW_ACTION
    ))
    .bind(game_id.to_string())
    .bind(row.seq)
    .bind(i64::from(row.seat))
    .bind(row.action)
    .bind(row.outcome)
    .bind(format_time(row.time))
    .bind(row.stand_in)
    .execute(ex)
    .await
    .map_err(|e| classify_append(e, game_id, a.seq))?;
    Ok(())
}

pub(crate) async fn finish_game(
    pool: &SqlitePool,
    game_id: Uuid,
    status: GameStatus,
    result: Option<&GameResult>,
    at: DateTime<Utc>,
) -> Result<(), StoreError> {
    let done =
        sqlx::query("UPDATE games SET status = ?2, result = ?3, finished = ?4 WHERE id = ?1")
            .bind(game_id.to_string())
            .bind(status.as_str())
            .bind(result.map(json_text).transpose()?)
            .bind(format_time(at))
            .execute(pool)
            .await?;
    known_game(done.rows_affected(), game_id)
}

pub(crate) async fn update_seats(
    pool: &SqlitePool,
    game_id: Uuid,
    seats: &SeatColumns,
) -> Result<(), StoreError> {
    let done = sqlx::query("UPDATE games SET seats = ?2, player_names = ?3 WHERE id = ?1")
        .bind(game_id.to_string())
        .bind(&seats.seats)
        .bind(&seats.player_names)
        .execute(pool)
        .await?;
    known_game(done.rows_affected(), game_id)
}

pub(crate) async fn load_game(
    pool: &SqlitePool,
    game_id: Uuid,
) -> Result<Option<(GameRow, Vec<ActionRow>)>, StoreError> {
    let Some(row) = sqlx::query(&format!(
        "SELECT {} FROM games WHERE id = ?1",
        columns::GAME
    ))
    .bind(game_id.to_string())
    .fetch_optional(pool)
    .await?
    else {
        return Ok(None);
    };
    let game = game_row(&row)?;
    let actions = sqlx::query(&format!(
        "SELECT {} FROM game_actions WHERE game_id = ?1 ORDER BY seq",
        columns::ACTION
    ))
    .bind(game_id.to_string())
    .fetch_all(pool)
    .await?
    .iter()
    .map(action_row)
    .collect::<Result<Vec<_>, _>>()?;
    Ok(Some((game, actions)))
}
