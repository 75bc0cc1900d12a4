//! The PostgreSQL backend: JSONB, UUID and TIMESTAMPTZ columns
//! (migrations/postgres). Every connection runs with the configured
//! `statement_timeout`, so a statement the server works on too long (locks,
//! an overloaded server) is cancelled there and rolled back: a definite
//! failure instead of a stuck writer.
//!
//! The statements it runs as SQLite does are in `writes.rs` and
//! `queries.rs`, its way with their parameters in `dialect.rs`; here is
//! what only it does: connecting, batches as one INSERT over arrays, and
//! loading many games in two queries.

use crate::StoreOptions;
use crate::columns;
use crate::decode::{ReadRow, action_row, game_row};
use crate::error::{StoreError, classify_append};
use crate::rows::{ActionRow, GameRow, NewActionRow};
use crate::writes;
use catan_core::record::RecordedAction;
use chrono::{DateTime, Utc};
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
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
        return writes::insert_action(ex, *game_id, a, false).await;
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

/// A transaction whose statements read by index, in one process, whatever
/// the statistics say: for the batch reads of a few rows by id (`=
/// ANY($1)`) out of tables of thousands (games, leases) or millions (the
/// journal). Without statistics (autovacuum off, or behind tables that
/// grew fast) the planner takes each id for half a percent of a table, a
/// batch of 50 for a quarter of it, and scanned the whole journal with two
/// parallel workers: 1.5 s a batch at a million actions while a dead
/// node's lobbies waited for their logs; by index, still with two workers,
/// 0.3-0.4 s (docs/PERFORMANCE.md, "A takeover's reads without
/// statistics"). An index read of a batch in one process is the right
/// plan at any size: starting workers for a few thousand rows only adds
/// processes on cores the database shares with the nodes. The settings
/// go with the `BEGIN`, in one round trip.
pub(crate) async fn by_index(
    pool: &PgPool,
) -> Result<sqlx::Transaction<'static, sqlx::Postgres>, StoreError> {
    Ok(pool
        .begin_with(
            "BEGIN; SET LOCAL enable_seqscan = off; \
             SET LOCAL max_parallel_workers_per_gather = 0",
        )
        .await?)
}

/// A transaction whose statements join whole tables by hashing, whatever
/// the statistics say: for the reads of every game in progress with its
/// lease. Without statistics the planner took the games in progress for
/// 150 and probed the leases' index once for each of 9,000 (400-480 ms a
/// look under load, where a hash join takes a tenth of that).
pub(crate) async fn whole_tables(
    pool: &PgPool,
) -> Result<sqlx::Transaction<'static, sqlx::Postgres>, StoreError> {
    Ok(pool
        .begin_with("BEGIN; SET LOCAL enable_nestloop = off")
        .await?)
}

/// The games among `ids` that are stored, with their logs: two queries
/// whatever the number (a takeover of many games at once).
pub(crate) async fn load_games(
    pool: &PgPool,
    ids: &[Uuid],
) -> Result<Vec<(GameRow, Vec<ActionRow>)>, StoreError> {
    let mut tx = by_index(pool).await?;
    let games = sqlx::query(&format!(
        "SELECT {} FROM games WHERE id = ANY($1::uuid[]) ORDER BY id",
        columns::GAME
    ))
    .bind(ids)
    .fetch_all(&mut *tx)
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
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    let mut logs: std::collections::HashMap<Uuid, Vec<ActionRow>> =
        std::collections::HashMap::with_capacity(games.len());
    for r in &rows {
        let game = r.uuid("game_id")?;
        logs.entry(game).or_default().push(action_row(r)?);
    }
    Ok(games
        .into_iter()
        .map(|g| {
            let log = logs.remove(&g.start.id).unwrap_or_default();
            (g, log)
        })
        .collect())
}
