//! The PostgreSQL backend: JSONB, UUID and TIMESTAMPTZ columns
//! (migrations/postgres). Every connection runs with the configured
//! `statement_timeout`, so a statement the server works on too long (locks,
//! an overloaded server) is cancelled there and rolled back: a definite
//! failure instead of a stuck writer.

use crate::StoreOptions;
use crate::columns;
use crate::decode::{ReadRow, action_row, game_row, stored_action};
use crate::error::{StoreError, classify_append, classify_insert, known_game};
use crate::rows::{ActionRow, GameRow, NewActionRow, NewGameRow, SeatColumns, json_text, seq_sql};
use catan_core::record::{GameResult, GameStatus, RecordedAction};
use chrono::{DateTime, Utc};
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions};
use std::str::FromStr;
use uuid::Uuid;

static MIGRATOR: Migrator = sqlx::migrate!("../../migrations/postgres");

/// Connects and applies the migrations.
pub(crate) async fn connect(url: &str, opts: &StoreOptions) -> Result<PgPool, StoreError> {
    let mut connect = PgConnectOptions::from_str(url)?.options([(
        "statement_timeout",
        format!("{}ms", opts.statement_timeout.as_millis().max(1)),
    )]);
    if opts.asynchronous_commit {
        connect = connect.options([("synchronous_commit", "off")]);
    }
    let pool = PgPoolOptions::new()
        .max_connections(opts.max_connections)
        // Fail fast when the database is gone, so that the server refuses the
        // action promptly instead of stalling the lobby.
        .acquire_timeout(opts.acquire_timeout)
        .connect_with(connect)
        .await?;
    MIGRATOR.run(&pool).await?;
    Ok(pool)
}

pub(crate) async fn create_game(pool: &PgPool, g: &NewGameRow) -> Result<(), StoreError> {
    sqlx::query(&format!(
        "INSERT INTO games ({}) VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8::jsonb, $9, \
         'in_progress', $10::jsonb, $11::jsonb)",
        columns::NEW_GAME
    ))
    .bind(g.id)
    .bind(g.created)
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
pub(crate) async fn delete_unplayed(pool: &PgPool, id: Uuid) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "DELETE FROM games WHERE id = $1 \
         AND NOT EXISTS (SELECT 1 FROM game_actions WHERE game_id = $1)",
    )
    .bind(id)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// One action in its own auto-committed statement.
pub(crate) async fn append_action(
    pool: &PgPool,
    game_id: Uuid,
    a: &RecordedAction,
) -> Result<(), StoreError> {
    insert_action(pool, game_id, a, false).await
}

/// Stores `a` unless `(game, seq)` is taken, then checks that what is stored
/// there is `a` (an append that timed out may have committed meanwhile).
pub(crate) async fn ensure_action(
    conn: &mut PgConnection,
    game_id: Uuid,
    a: &RecordedAction,
) -> Result<(), StoreError> {
    insert_action(&mut *conn, game_id, a, true).await?;
    if !is_present(conn, game_id, a).await? {
        return Err(StoreError::Corrupt(format!(
            "seq {} vanished from {game_id}",
            a.seq
        )));
    }
    Ok(())
}

/// Whether the log holds `a` at its seq (`false`: the seq is empty);
/// [`StoreError::Conflict`] when another action holds it.
pub(crate) async fn is_present(
    conn: &mut PgConnection,
    game_id: Uuid,
    a: &RecordedAction,
) -> Result<bool, StoreError> {
    let row = sqlx::query(&format!(
        "SELECT {} FROM game_actions WHERE game_id = $1 AND seq = $2",
        columns::STORED_ACTION
    ))
    .bind(game_id)
    .bind(seq_sql(a.seq)?)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else {
        return Ok(false);
    };
    stored_action(&row)?.check_is(game_id, a)?;
    Ok(true)
}

/// A batch of actions as the column arrays of one `INSERT ... SELECT FROM
/// UNNEST(...)` (the plain batch insert and the fenced one).
pub(crate) struct Columns {
    pub games: Vec<Uuid>,
    pub seqs: Vec<i64>,
    pub seats: Vec<i16>,
    pub actions: Vec<String>,
    pub outcomes: Vec<String>,
    pub times: Vec<DateTime<Utc>>,
    pub stand_ins: Vec<bool>,
}

impl Columns {
    pub(crate) fn of<'a>(
        batch: impl ExactSizeIterator<Item = (Uuid, &'a RecordedAction)>,
    ) -> Result<Columns, StoreError> {
        let n = batch.len();
        let mut c = Columns {
            games: Vec::with_capacity(n),
            seqs: Vec::with_capacity(n),
            seats: Vec::with_capacity(n),
            actions: Vec::with_capacity(n),
            outcomes: Vec::with_capacity(n),
            times: Vec::with_capacity(n),
            stand_ins: Vec::with_capacity(n),
        };
        for (game_id, a) in batch {
            let row = NewActionRow::of(a)?;
            c.games.push(game_id);
            c.seqs.push(row.seq);
            c.seats.push(i16::from(row.seat));
            c.actions.push(row.action);
            c.outcomes.push(row.outcome);
            c.times.push(row.time);
            c.stand_ins.push(row.stand_in);
        }
        Ok(c)
    }
}

impl Columns {
    /// Binds the columns as `$1..$7` of `q`, in the order above.
    pub(crate) fn bind<'q>(
        self,
        q: sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments>,
    ) -> sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments> {
        q.bind(self.games)
            .bind(self.seqs)
            .bind(self.seats)
            .bind(self.actions)
            .bind(self.outcomes)
            .bind(self.times)
            .bind(self.stand_ins)
    }
}

/// Several actions in one statement (so one transaction): all are stored or
/// none. One multi-row INSERT over arrays instead of one INSERT per action:
/// the group-commit writer is serial, and per-row round trips were what
/// limited it at thousands of actions per second.
pub(crate) async fn append_batch<'e, E: sqlx::Executor<'e, Database = sqlx::Postgres>>(
    ex: E,
    batch: &[(Uuid, RecordedAction)],
) -> Result<(), StoreError> {
    let n = batch.len();
    if n == 0 {
        return Ok(());
    }
    if let [(game_id, a)] = batch {
        return insert_action(ex, *game_id, a, false).await;
    }
    let c = Columns::of(batch.iter().map(|(g, a)| (*g, a)))?;
    c.bind(sqlx::query(&format!(
        "INSERT INTO game_actions ({}) SELECT g, s, p, a::jsonb, o::jsonb, t, i \
         FROM UNNEST($1::uuid[], $2::int8[], $3::int2[], $4::text[], $5::text[], \
                     $6::timestamptz[], $7::bool[]) AS u(g, s, p, a, o, t, i)",
        columns::NEW_ACTION
    )))
    .execute(ex)
    .await
    .map_err(|e| {
        // Name the taken (game, seq) from the server's detail when it gives
        // one; otherwise the batch's first action stands for the batch.
        let (game_id, seq) = taken_key(&e).unwrap_or((batch[0].0, batch[0].1.seq));
        classify_append(e, game_id, seq)
    })?;
    Ok(())
}

/// The `(game_id, seq)` of a unique violation, from PostgreSQL's detail text
/// `Key (game_id, seq)=(<uuid>, <seq>) already exists.`
fn taken_key(e: &sqlx::Error) -> Option<(Uuid, u64)> {
    let db = e.as_database_error()?;
    let detail = db
        .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()?
        .detail()?;
    let inner = detail.split_once("=(")?.1.split_once(')')?.0;
    let (game, seq) = inner.split_once(", ")?;
    Some((Uuid::parse_str(game).ok()?, seq.parse().ok()?))
}

/// One INSERT; with `if_absent` a taken `(game, seq)` is no error.
async fn insert_action<'e, E: sqlx::Executor<'e, Database = sqlx::Postgres>>(
    ex: E,
    game_id: Uuid,
    a: &RecordedAction,
    if_absent: bool,
) -> Result<(), StoreError> {
    let row = NewActionRow::of(a)?;
    let on_conflict = if if_absent {
        " ON CONFLICT (game_id, seq) DO NOTHING"
    } else {
        ""
    };
    sqlx::query(&format!(
        "INSERT INTO game_actions ({}) VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7){on_conflict}",
        columns::NEW_ACTION
    ))
    .bind(game_id)
    .bind(row.seq)
    .bind(i16::from(row.seat))
    .bind(row.action)
    .bind(row.outcome)
    .bind(row.time)
    .bind(row.stand_in)
    .execute(ex)
    .await
    .map_err(|e| classify_append(e, game_id, a.seq))?;
    Ok(())
}

pub(crate) async fn finish_game(
    pool: &PgPool,
    game_id: Uuid,
    status: GameStatus,
    result: Option<&GameResult>,
    at: DateTime<Utc>,
) -> Result<(), StoreError> {
    let done = sqlx::query(
        "UPDATE games SET status = $2, result = $3::jsonb, finished = $4 WHERE id = $1",
    )
    .bind(game_id)
    .bind(status.as_str())
    .bind(result.map(json_text).transpose()?)
    .bind(at)
    .execute(pool)
    .await?;
    known_game(done.rows_affected(), game_id)
}

pub(crate) async fn update_seats(
    pool: &PgPool,
    game_id: Uuid,
    seats: &SeatColumns,
) -> Result<(), StoreError> {
    let done = sqlx::query("UPDATE games SET seats = $2::jsonb, player_names = $3 WHERE id = $1")
        .bind(game_id)
        .bind(&seats.seats)
        .bind(&seats.player_names)
        .execute(pool)
        .await?;
    known_game(done.rows_affected(), game_id)
}

pub(crate) async fn load_game(
    pool: &PgPool,
    game_id: Uuid,
) -> Result<Option<(GameRow, Vec<ActionRow>)>, StoreError> {
    let Some(row) = sqlx::query(&format!(
        "SELECT {} FROM games WHERE id = $1",
        columns::GAME
    ))
    .bind(game_id)
    .fetch_optional(pool)
    .await?
    else {
        return Ok(None);
    };
    let game = game_row(&row)?;
    let actions = sqlx::query(&format!(
        "SELECT {} FROM game_actions WHERE game_id = $1 ORDER BY seq",
        columns::ACTION
    ))
    .bind(game_id)
    .fetch_all(pool)
    .await?
    .iter()
    .map(action_row)
    .collect::<Result<Vec<_>, _>>()?;
    Ok(Some((game, actions)))
}

/// The games among `ids` that are stored, with their logs: two queries
/// whatever the number (a takeover of many games at once).
pub(crate) async fn load_games(
    pool: &PgPool,
    ids: &[Uuid],
) -> Result<Vec<(GameRow, Vec<ActionRow>)>, StoreError> {
    let games = sqlx::query(&format!(
        "SELECT {} FROM games WHERE id = ANY($1::uuid[]) ORDER BY id",
        columns::GAME
    ))
    .bind(ids)
    .fetch_all(pool)
    .await?
    .iter()
    .map(game_row)
    .collect::<Result<Vec<_>, _>>()?;
    let rows = sqlx::query(&format!(
        "SELECT game_id, {} FROM game_actions \
         WHERE game_id = ANY($1::uuid[]) ORDER BY game_id, seq",
        columns::ACTION
    ))
    .bind(ids)
    .fetch_all(pool)
    .await?;
    let mut logs: std::collections::HashMap<Uuid, Vec<ActionRow>> =
        std::collections::HashMap::with_capacity(games.len());
    for r in &rows {
        let game = r.uuid("game_id")?;
        logs.entry(game).or_default().push(action_row(r)?);
    }
    Ok(games
        .into_iter()
        .map(|g| {
            let log = logs.remove(&g.id).unwrap_or_default();
            (g, log)
        })
        .collect())
}
