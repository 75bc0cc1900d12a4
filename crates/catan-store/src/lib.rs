//! Game log storage behind one [`Store`] type with two real backends:
//! PostgreSQL (production) and an embedded SQLite file (the default).
//!
//! The action log is the source of truth: a game is its options, seed and
//! accepted actions; states are rebuilt with [`catan_core::record::replay`].
//! [`Store::append_action`] is one short auto-committed INSERT, so when it
//! returns `Ok` the action is durable and may be broadcast (write-ahead).
//! Migrations (`migrations/postgres`, `migrations/sqlite`) are applied by
//! [`Store::connect`]. [`GroupCommit`] optionally shares one transaction
//! among many lobbies' appends while keeping the write-ahead promise.
//!
//! Nothing waits on the database without bound: [`StoreOptions`] sets a
//! statement timeout (PostgreSQL's `statement_timeout`, SQLite's busy
//! timeout) and a pool acquire timeout, and the group-commit writer puts a
//! deadline on each append. A write cut off by a deadline is *in doubt*
//! ([`StoreError::is_in_doubt`]); [`Store::ensure_action`] settles it.

mod batch;
mod cluster;
mod columns;
mod decode;
mod dialect;
mod error;
mod model;
mod postgres;
mod queries;
mod rooms;
mod rows;
mod session;
mod sqlite;
mod within;
mod writes;

pub use batch::{BatchObserver, GroupCommit, GroupCommitConfig};
pub use cluster::{
    Claim, FencedAction, Holder, Lease, LeaseOwner, Listing, NodeLoad, NodeRecord, Orphan,
};
pub use error::StoreError;
pub use model::{GamePage, GameSummary, MAX_PER_PAGE, StoredGame, format_time, hash_token};
pub use session::{CutNode, NodeSession};

use catan_core::record::{GameRecord, GameResult, GameStatus, RecordedAction};
use chrono::{DateTime, Utc};
use sqlx::{PgPool, Postgres, Sqlite, SqlitePool};
use std::time::Duration;
use uuid::Uuid;

/// How a [`Store`] bounds its waits on the database.
#[derive(Clone, Debug)]
pub struct StoreOptions {
    /// Longest a statement may run: PostgreSQL cancels it (and rolls it
    /// back); SQLite gives up waiting for another connection's lock.
    pub statement_timeout: Duration,
    /// Longest a caller waits for a pooled connection.
    pub acquire_timeout: Duration,
    /// PostgreSQL pool size.
    pub max_connections: u32,
    /// PostgreSQL answers a commit before its log record is on disk
    /// (`synchronous_commit = off`; SQLite ignores it). Only for writes a
    /// crash of the database may lose: the cluster beat's, whose lost
    /// renewal only makes the node's lease look shorter after the crash
    /// than the node thought (the journal's appends, fenced by epoch, keep
    /// the log whole either way), and which must not wait behind a
    /// checkpoint's disk writes: at 10,000 games a renewal waiting for its
    /// commit during a checkpoint cost a node every lobby.
    pub asynchronous_commit: bool,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            statement_timeout: Duration::from_secs(4),
            acquire_timeout: Duration::from_secs(3),
            max_connections: 10,
            asynchronous_commit: false,
        }
    }
}

/// Which database a [`Store`] talks to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Backend {
    /// PostgreSQL.
    Postgres,
    /// SQLite.
    Sqlite,
}

/// The game store. Cheap to clone (the pools are shared handles).
#[derive(Clone, Debug)]
pub enum Store {
    /// A PostgreSQL pool.
    Postgres(PgPool),
    /// A SQLite pool.
    Sqlite(SqlitePool),
}

impl Store {
    /// Connects and applies migrations. `postgres://` or `postgresql://`
    /// URLs pick PostgreSQL; `sqlite:` URLs (e.g. `sqlite://data/catan.db?mode=rwc`,
    /// `sqlite::memory:`) and plain file paths pick SQLite (created if missing).
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Store::connect_with(url, &StoreOptions::default()).await
    }

    /// [`Store::connect`] with the given timeouts.
    pub async fn connect_with(url: &str, opts: &StoreOptions) -> Result<Store, StoreError> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Store::Postgres(postgres::connect(url, opts).await?))
        } else if url.starts_with("sqlite:") || (!url.contains("://") && !url.is_empty()) {
            Ok(Store::Sqlite(sqlite::connect(url, opts).await?))
        } else {
            Err(StoreError::BadUrl(url.to_string()))
        }
    }

    /// Which backend this is.
    pub fn backend(&self) -> Backend {
        match self {
            Store::Postgres(_) => Backend::Postgres,
            Store::Sqlite(_) => Backend::Sqlite,
        }
    }

    /// Closes the pool, waiting for connections to finish.
    pub async fn close(&self) {
        match self {
            Store::Postgres(p) => p.close().await,
            Store::Sqlite(p) => p.close().await,
        }
    }

    /// Checks that the database answers (for health endpoints).
    pub async fn ping(&self) -> Result<(), StoreError> {
        match self {
            Store::Postgres(p) => {
                sqlx::query("SELECT 1").execute(p).await?;
            }
            Store::Sqlite(p) => {
                sqlx::query("SELECT 1").execute(p).await?;
            }
        }
        Ok(())
    }

    /// Records a game that starts (status `in_progress`, no action yet, its
    /// seed and the seed's commitment, as [`GameRecord::start`] makes it);
    /// anything else is [`StoreError::Invalid`]. Fails with
    /// [`StoreError::DuplicateGame`] if the id exists.
    pub async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        let row = rows::NewGameRow::of(game)?;
        match self {
            Store::Postgres(p) => writes::create_game(p, &row).await,
            Store::Sqlite(p) => writes::create_game(p, &row).await,
        }
    }

    /// Records `game` in place of a stored game with the same id that has no
    /// action yet: a start whose write was cut off by a deadline may have
    /// been stored after all, and the lobby's next start must not be refused
    /// for it. A game with actions is never replaced
    /// ([`StoreError::DuplicateGame`]).
    pub async fn replace_unplayed_game(&self, game: &StoredGame) -> Result<(), StoreError> {
        // Checked before anything is deleted: an invalid game replaces nothing.
        let row = rows::NewGameRow::of(game)?;
        let deleted = match self {
            Store::Postgres(p) => writes::delete_unplayed(p, row.start.id).await?,
            Store::Sqlite(p) => writes::delete_unplayed(p, row.start.id).await?,
        };
        if !deleted {
            return Err(StoreError::DuplicateGame(row.start.id));
        }
        match self {
            Store::Postgres(p) => writes::create_game(p, &row).await,
            Store::Sqlite(p) => writes::create_game(p, &row).await,
        }
    }

    /// Appends one accepted action in its own short transaction; `Ok` means
    /// it is durable. A taken `(game, seq)` fails with
    /// [`StoreError::DuplicateSeq`] and writes nothing; an unknown game with
    /// [`StoreError::UnknownGame`]; `action.time` must be RFC 3339.
    pub async fn append_action(
        &self,
        game_id: Uuid,
        action: &RecordedAction,
    ) -> Result<(), StoreError> {
        match self {
            Store::Postgres(p) => writes::insert_action(p, game_id, action, false).await,
            Store::Sqlite(p) => writes::insert_action(p, game_id, action, false).await,
        }
    }

    /// Appends several actions (of any games) in one transaction: all are
    /// stored or none. Used by [`GroupCommit`].
    pub async fn append_actions(&self, batch: &[(Uuid, RecordedAction)]) -> Result<(), StoreError> {
        match self {
            Store::Postgres(p) => postgres::append_batch(p, batch).await,
            Store::Sqlite(p) => sqlite::append_batch(p, batch).await,
        }
    }

    /// [`Store::append_actions`] within `deadline`, connection acquisition
    /// included. [`StoreError::Timeout`] means the deadline passed and the
    /// batch is in doubt; the connection it was on is closed, not reused.
    pub async fn append_actions_within(
        &self,
        batch: &[(Uuid, RecordedAction)],
        deadline: Duration,
    ) -> Result<(), StoreError> {
        match self {
            Store::Postgres(p) => {
                within::within(p, deadline, async |c| {
                    postgres::append_batch(c, batch).await
                })
                .await
            }
            Store::Sqlite(p) => {
                within::within(p, deadline, async |c| {
                    sqlite::append_batch_on(c, batch).await
                })
                .await
            }
        }
    }

    /// [`Store::append_actions_within`] with fencing: each action with an
    /// epoch is stored only while that epoch is its game's lease epoch
    /// (`cluster`). Answers the games whose actions were fenced out; the
    /// others are stored together or not at all.
    pub async fn append_fenced_within(
        &self,
        batch: &[FencedAction],
        deadline: Duration,
    ) -> Result<std::collections::HashSet<Uuid>, StoreError> {
        if batch.iter().all(|(_, _, e)| e.is_none()) {
            let plain: Vec<(Uuid, RecordedAction)> =
                batch.iter().map(|(g, a, _)| (*g, a.clone())).collect();
            self.append_actions_within(&plain, deadline).await?;
            return Ok(Default::default());
        }
        match self {
            Store::Postgres(p) => {
                within::within(p, deadline, async |c| {
                    cluster::append_fenced(c, batch).await
                })
                .await
            }
            Store::Sqlite(_) => Err(StoreError::NeedsPostgres),
        }
    }

    /// [`Store::ensure_action`] for a writer holding the game's lease at
    /// `epoch`: [`StoreError::Fenced`] when the epoch is no longer the
    /// lease's and the action is not in the log.
    pub async fn ensure_action_fenced(
        &self,
        game_id: Uuid,
        action: &RecordedAction,
        epoch: Option<u64>,
        deadline: Duration,
    ) -> Result<(), StoreError> {
        let Some(epoch) = epoch else {
            return self.ensure_action(game_id, action, deadline).await;
        };
        match self {
            Store::Postgres(p) => {
                within::within(p, deadline, async |c| {
                    use sqlx::Connection;
                    let mut tx = c.begin().await?;
                    if !cluster::holds(&mut tx, game_id, epoch).await? {
                        // Taken over: whatever the log holds is the new
                        // owner's to read; this writer adds nothing.
                        let present =
                            writes::is_present::<Postgres>(&mut tx, game_id, action).await?;
                        return match present {
                            true => Ok(()),
                            false => Err(StoreError::Fenced { game_id }),
                        };
                    }
                    writes::ensure_action::<Postgres>(&mut tx, game_id, action).await?;
                    tx.commit().await?;
                    Ok(())
                })
                .await
            }
            Store::Sqlite(_) => Err(StoreError::NeedsPostgres),
        }
    }

    /// Settles an append whose outcome is in doubt: stores `action` unless
    /// its `(game, seq)` is taken, and checks that what the log holds there
    /// is this action. `Ok` means the action is durable (written now or by
    /// the earlier attempt); [`StoreError::Conflict`] that another action
    /// holds the seq; an in-doubt error that it is still unknown (try again).
    pub async fn ensure_action(
        &self,
        game_id: Uuid,
        action: &RecordedAction,
        deadline: Duration,
    ) -> Result<(), StoreError> {
        match self {
            Store::Postgres(p) => {
                within::within(p, deadline, async |c| {
                    writes::ensure_action::<Postgres>(c, game_id, action).await
                })
                .await
            }
            Store::Sqlite(p) => {
                within::within(p, deadline, async |c| {
                    writes::ensure_action::<Sqlite>(c, game_id, action).await
                })
                .await
            }
        }
    }

    /// Marks a game over (`Finished` or `Abandoned`) with its result; from
    /// then on [`Store::get_record`] reveals its seed and salt.
    pub async fn finish_game(
        &self,
        game_id: Uuid,
        status: GameStatus,
        result: Option<&GameResult>,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        if !status.is_over() {
            return Err(StoreError::Invalid(
                "finish_game needs the status finished or abandoned".into(),
            ));
        }
        match self {
            Store::Postgres(p) => writes::finish_game(p, game_id, status, result, at).await,
            Store::Sqlite(p) => writes::finish_game(p, game_id, status, result, at).await,
        }
    }

    /// Replaces the stored seats of `game` (its record's seats and its token
    /// hashes) with `game`'s: a seat changed hands (new name, bot kind or
    /// token hash). Nothing else of the stored game changes.
    pub async fn update_seats(&self, game: &StoredGame) -> Result<(), StoreError> {
        let seats = rows::SeatColumns::of(game)?;
        match self {
            Store::Postgres(p) => writes::update_seats(p, game.id, &seats).await,
            Store::Sqlite(p) => writes::update_seats(p, game.id, &seats).await,
        }
    }

    /// Loads a game for the server: the full record (seed always included),
    /// the seats' token hashes and the lobby metadata. `None` if there is no such game.
    pub async fn load_game(&self, game_id: Uuid) -> Result<Option<StoredGame>, StoreError> {
        let rows = match self {
            Store::Postgres(p) => queries::load_game(p, game_id).await?,
            Store::Sqlite(p) => queries::load_game(p, game_id).await?,
        };
        rows.map(|(g, a)| g.into_stored(a)).transpose()
    }

    /// The stored games among `ids` (ids with no stored game are left out),
    /// loaded as [`Store::load_game`] loads one; on PostgreSQL in two
    /// queries whatever their number, for a takeover of many at once.
    pub async fn load_games(&self, ids: &[Uuid]) -> Result<Vec<StoredGame>, StoreError> {
        let rows = match self {
            Store::Postgres(p) => postgres::load_games(p, ids).await?,
            Store::Sqlite(p) => {
                let mut rows = Vec::with_capacity(ids.len());
                for &id in ids {
                    rows.extend(queries::load_game(p, id).await?);
                }
                rows
            }
        };
        rows.into_iter().map(|(g, a)| g.into_stored(a)).collect()
    }

    /// Every game still in progress, oldest first, loaded for recovery.
    pub async fn unfinished_games(&self) -> Result<Vec<StoredGame>, StoreError> {
        let ids = match self {
            Store::Postgres(p) => queries::unfinished_ids(p).await?,
            Store::Sqlite(p) => queries::unfinished_ids(p).await?,
        };
        let mut games = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(g) = self.load_game(id).await? {
                games.push(g);
            }
        }
        Ok(games)
    }

    /// Finished (and abandoned) games, newest end first. `page` counts from 1
    /// (0 is read as 1); `per_page` is clamped to 1..=[`MAX_PER_PAGE`];
    /// `player` keeps games where some seat's name contains it
    /// (case-insensitive; empty means no filter).
    pub async fn list_finished(
        &self,
        page: u32,
        per_page: u32,
        player: Option<&str>,
    ) -> Result<GamePage, StoreError> {
        let page = page.max(1);
        let per_page = per_page.clamp(1, MAX_PER_PAGE);
        let offset = i64::from(page - 1) * i64::from(per_page);
        let needle = rows::name_needle(player);
        let needle = needle.as_deref();
        let (rows, total) = match self {
            Store::Postgres(p) => {
                queries::list_finished(p, needle, i64::from(per_page), offset).await?
            }
            Store::Sqlite(p) => {
                queries::list_finished(p, needle, i64::from(per_page), offset).await?
            }
        };
        Ok(GamePage {
            page,
            per_page,
            total: u64::try_from(total).unwrap_or(0),
            games: rows
                .into_iter()
                .map(|(g, n)| g.into_summary(n))
                .collect::<Result<_, _>>()?,
        })
    }

    /// The public game record: seed and salt only once the game is over,
    /// never token hashes. `None` if there is no such game.
    pub async fn get_record(&self, game_id: Uuid) -> Result<Option<GameRecord>, StoreError> {
        Ok(self.load_game(game_id).await?.map(rows::public_record))
    }
}
