//! The embedded SQLite backend (migrations/sqlite): TEXT for UUIDs, JSON and
//! times; WAL journal with `synchronous=FULL` so that an acknowledged write
//! survives a crash or power loss. The configured statement timeout is the
//! busy timeout: how long a write waits for another connection's lock before
//! it fails (definitely, nothing written).

use crate::StoreOptions;
use crate::error::{StoreError, classify_insert};
use crate::model::{format_time, parse_time};
use crate::rows::{ActionRow, GameRow, NewGameRow, SeatColumns, StoredAction, json_text};
use catan_core::record::{GameResult, GameStatus, RecordedAction};
use chrono::{DateTime, Utc};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteRow, SqliteSynchronous,
};
use sqlx::{Row, migrate::Migrator};
use std::str::FromStr;
use std::time::Duration;
use uuid::Uuid;

static MIGRATOR: Migrator = sqlx::migrate!("../../migrations/sqlite");

const GAME_COLUMNS: &str = "id, created, options, rules_version, seed_commitment, seed, salt, \
    seats, status, result, opener, finished, lobby";

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
    sqlx::query(
        "INSERT INTO games (id, created, options, rules_version, seed_commitment, seed, salt, \
         seats, player_names, status, opener, lobby) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'in_progress', ?10, ?11)",
    )
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
    let seq = i64::try_from(a.seq)
        .map_err(|_| StoreError::Invalid(format!("seq {} is too large", a.seq)))?;
    let row = sqlx::query(
        "SELECT seat, action, outcome, stand_in FROM game_actions WHERE game_id = ?1 AND seq = ?2",
    )
    .bind(game_id.to_string())
    .bind(seq)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(|| StoreError::Corrupt(format!("seq {} vanished from {game_id}", a.seq)))?;
    let stored = StoredAction {
        seat: row.try_get("seat")?,
        action: row.try_get("action")?,
        outcome: row.try_get("outcome")?,
        stand_in: row.try_get("stand_in")?,
    };
    stored.check_is(game_id, a)
}

async fn insert_action<'e, E: sqlx::Executor<'e, Database = sqlx::Sqlite>>(
    ex: E,
    game_id: Uuid,
    a: &RecordedAction,
    if_absent: bool,
) -> Result<(), StoreError> {
    let seq = i64::try_from(a.seq)
        .map_err(|_| StoreError::Invalid(format!("seq {} is too large", a.seq)))?;
    let time = parse_time(&a.time).map_err(StoreError::Invalid)?;
    // OR IGNORE skips only the taken key here: foreign keys still fail.
    let sql = if if_absent {
        "INSERT OR IGNORE INTO game_actions (game_id, seq, seat, action, outcome, time, stand_in) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
    } else {
        "INSERT INTO game_actions (game_id, seq, seat, action, outcome, time, stand_in) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
    };
    sqlx::query(sql)
        .bind(game_id.to_string())
        .bind(seq)
        .bind(i64::from(a.seat.0))
        .bind(json_text(&a.action)?)
        .bind(json_text(&a.outcome)?)
        .bind(format_time(time))
        .bind(a.stand_in)
        .execute(ex)
        .await
        .map_err(|e| {
            classify_insert(
                e,
                StoreError::DuplicateSeq {
                    game_id,
                    seq: a.seq,
                },
                game_id,
            )
        })?;
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
    if done.rows_affected() == 0 {
        return Err(StoreError::UnknownGame(game_id));
    }
    Ok(())
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
    if done.rows_affected() == 0 {
        return Err(StoreError::UnknownGame(game_id));
    }
    Ok(())
}

fn time_col(r: &SqliteRow, col: &str) -> Result<DateTime<Utc>, StoreError> {
    let s: String = r.try_get(col)?;
    parse_time(&s).map_err(StoreError::Corrupt)
}

fn uuid_col(r: &SqliteRow, col: &str) -> Result<Uuid, StoreError> {
    let s: String = r.try_get(col)?;
    Uuid::parse_str(&s).map_err(|e| StoreError::Corrupt(format!("{col} {s:?}: {e}")))
}

fn game_row(r: &SqliteRow) -> Result<GameRow, StoreError> {
    let finished: Option<String> = r.try_get("finished")?;
    Ok(GameRow {
        id: uuid_col(r, "id")?,
        created: time_col(r, "created")?,
        options: r.try_get("options")?,
        rules_version: r.try_get("rules_version")?,
        seed_commitment: r.try_get("seed_commitment")?,
        seed: r.try_get("seed")?,
        salt: r.try_get("salt")?,
        seats: r.try_get("seats")?,
        status: r.try_get("status")?,
        result: r.try_get("result")?,
        opener: r.try_get("opener")?,
        finished: finished
            .as_deref()
            .map(parse_time)
            .transpose()
            .map_err(StoreError::Corrupt)?,
        lobby: r.try_get("lobby")?,
    })
}

pub(crate) async fn load_game(
    pool: &SqlitePool,
    game_id: Uuid,
) -> Result<Option<(GameRow, Vec<ActionRow>)>, StoreError> {
    let Some(row) = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"))
        .bind(game_id.to_string())
        .fetch_optional(pool)
        .await?
    else {
        return Ok(None);
    };
    let game = game_row(&row)?;
    let actions = sqlx::query(
        "SELECT seq, seat, action, outcome, time, stand_in \
         FROM game_actions WHERE game_id = ?1 ORDER BY seq",
    )
    .bind(game_id.to_string())
    .fetch_all(pool)
    .await?
    .iter()
    .map(|r| {
        Ok(ActionRow {
            seq: r.try_get("seq")?,
            seat: r.try_get("seat")?,
            action: r.try_get("action")?,
            outcome: r.try_get("outcome")?,
            time: time_col(r, "time")?,
            stand_in: r.try_get("stand_in")?,
        })
    })
    .collect::<Result<Vec<_>, StoreError>>()?;
    Ok(Some((game, actions)))
}

pub(crate) async fn unfinished_ids(pool: &SqlitePool) -> Result<Vec<Uuid>, StoreError> {
    let rows =
        sqlx::query("SELECT id FROM games WHERE status = 'in_progress' ORDER BY created, id")
            .fetch_all(pool)
            .await?;
    rows.iter().map(|r| uuid_col(r, "id")).collect()
}

pub(crate) async fn list_finished(
    pool: &SqlitePool,
    needle: Option<&str>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<(GameRow, i64)>, i64), StoreError> {
    const FILTER: &str = "status <> 'in_progress' AND (?1 IS NULL OR instr(player_names, ?1) > 0)";
    let total: i64 = sqlx::query(&format!("SELECT count(*) AS n FROM games WHERE {FILTER}"))
        .bind(needle)
        .fetch_one(pool)
        .await?
        .try_get("n")?;
    let rows = sqlx::query(&format!(
        "SELECT {GAME_COLUMNS}, \
         (SELECT count(*) FROM game_actions a WHERE a.game_id = games.id) AS n_actions \
         FROM games WHERE {FILTER} ORDER BY finished DESC, created DESC, id LIMIT ?2 OFFSET ?3"
    ))
    .bind(needle)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    let games = rows
        .iter()
        .map(|r| Ok((game_row(r)?, r.try_get::<i64, _>("n_actions")?)))
        .collect::<Result<Vec<_>, StoreError>>()?;
    Ok((games, total))
}
