//! [`StoreJournal`]: the lobby actor's write-ahead journal over a
//! [`Store`]. Every accepted action goes through a [`GroupCommit`] writer,
//! so `append` resolves only once the transaction holding it has committed;
//! many lobbies' actions share one commit when they arrive together.
//!
//! Every call the lobby awaits answers within the journal deadline
//! (`CATAN_JOURNAL_DEADLINE_MS`). An append that fails in doubt (the store's
//! [`StoreError::is_in_doubt`]) is reported so, and [`Journal::settle`]
//! resolves it with [`Store::ensure_action`]. A game start whose write was
//! stored after its deadline is replaced by the lobby's next start, since no
//! action can follow a start the lobby never saw succeed.

use crate::cluster::leases::Leases;
use crate::journal::{Journal, JournalError, JournalFuture, SeatChange};
use crate::metrics::metrics;
use catan_core::record::{self, GameResult, GameStatus, RecordedAction};
use catan_store::{GroupCommit, GroupCommitConfig, Store, StoreError, StoredGame};
use chrono::Utc;
use std::sync::Arc;
use std::time::Duration;
use uuid::Uuid;

/// Actions one group commit may hold.
const MAX_BATCH: usize = 256;
/// Appends waiting for the writer before callers wait for room.
const QUEUE: usize = 4096;
/// Batches written at once (each holds a pooled connection).
const IN_FLIGHT: usize = 4;
/// Connections of the appends' own pool ([`StoreJournal::with_writer`]):
/// one for each batch in flight and one to settle an append in doubt.
pub const WRITER_CONNECTIONS: u32 = IN_FLIGHT as u32 + 1;

/// The journal that writes to the database.
#[derive(Clone, Debug)]
pub struct StoreJournal {
    store: Store,
    /// Where appends are written and settled: `store`, or a pool of their
    /// own ([`StoreJournal::with_writer`]).
    appends: Store,
    writer: GroupCommit,
    /// In a cluster: the leases this node holds; every append is fenced by
    /// its lobby's epoch.
    fence: Option<Arc<Leases>>,
}

fn failed(what: &str, e: impl std::fmt::Display) -> JournalError {
    JournalError::new(format!("{what}: {e}"))
}

/// An append's failure, in doubt when the store says it may have committed.
fn append_failed(e: &StoreError) -> JournalError {
    let message = format!("cannot record the action: {e}");
    if e.is_fenced() {
        JournalError::fenced(message)
    } else if e.is_in_doubt() {
        JournalError::in_doubt(message)
    } else {
        JournalError::new(message)
    }
}

impl StoreJournal {
    /// A journal over `store` whose appends answer within `deadline`;
    /// spawns the group-commit writer on the current Tokio runtime.
    pub fn new(store: Store, deadline: Duration) -> StoreJournal {
        StoreJournal::with_writer(store.clone(), store, deadline)
    }

    /// [`StoreJournal::new`] writing and settling the appends over
    /// `appends`, a pool of their own ([`WRITER_CONNECTIONS`]), and the
    /// rest over `store`. Requests share `store`'s pool: a flood of them
    /// (a dead node's clients looking their lobbies up, replays) queued
    /// there for seconds, and the games' actions waiting behind them were
    /// refused with `storage_unavailable` (docs/PERFORMANCE.md).
    pub fn with_writer(store: Store, appends: Store, deadline: Duration) -> StoreJournal {
        let writer = GroupCommit::spawn(
            appends.clone(),
            GroupCommitConfig {
                max_batch: MAX_BATCH,
                queue: QUEUE,
                in_flight: IN_FLIGHT,
                deadline,
                observer: Some(Arc::new(|n| metrics().batch_size.observe(n as f64))),
            },
        );
        StoreJournal {
            store,
            appends,
            writer,
            fence: None,
        }
    }

    /// The same journal writing only lobbies whose lease `leases` holds,
    /// each action under its lobby's epoch (a cluster node).
    pub fn fenced_by(mut self, leases: Arc<Leases>) -> StoreJournal {
        self.fence = Some(leases);
        self
    }

    /// The epoch to write `lobby` at: `Ok(None)` on a single server, an
    /// error when this node does not hold the lobby.
    fn epoch(&self, lobby: Uuid) -> Result<Option<u64>, JournalError> {
        match &self.fence {
            None => Ok(None),
            Some(leases) => leases
                .epoch(lobby)
                .map(Some)
                .ok_or_else(|| JournalError::fenced("this server no longer owns the lobby")),
        }
    }

    /// Tells the lease table a write was fenced out.
    fn note(&self, lobby: Uuid, e: &StoreError) {
        if e.is_fenced()
            && let Some(leases) = &self.fence
        {
            tracing::warn!(lobby_id = %lobby, "another node owns this lobby now; stopping it here");
            leases.lost(lobby);
        }
    }

    /// The store behind this journal.
    pub fn store(&self) -> &Store {
        &self.store
    }

    async fn start(&self, game: &StoredGame) -> Result<(), JournalError> {
        match self.bounded(self.store.create_game(game)).await {
            // An earlier start of this lobby was refused when its write ran
            // past the deadline, yet it was stored: it has no action (the
            // lobby never started), so this start takes its place.
            Err(StoreError::DuplicateGame(_)) => {
                self.bounded(self.store.replace_unplayed_game(game)).await
            }
            r => r,
        }
        .map_err(|e| failed("cannot record the game start", e))
    }

    /// A store call the lobby awaits, cut off at the append deadline so that
    /// a database that stopped answering cannot park the lobby.
    async fn bounded<T>(
        &self,
        call: impl std::future::Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        let deadline = self.writer.deadline();
        tokio::time::timeout(deadline, call)
            .await
            .unwrap_or(Err(StoreError::Timeout(deadline)))
    }

    async fn write(&self, lobby: Uuid, action: &RecordedAction) -> Result<(), JournalError> {
        let epoch = self.epoch(lobby)?;
        self.writer
            .append_fenced(lobby, action.clone(), epoch)
            .await
            .map_err(|e| {
                self.note(lobby, &e);
                append_failed(&e)
            })
    }

    async fn settle_action(
        &self,
        lobby: Uuid,
        action: &RecordedAction,
    ) -> Result<(), JournalError> {
        let epoch = self.epoch(lobby)?;
        match self
            .appends
            .ensure_action_fenced(lobby, action, epoch, self.writer.deadline())
            .await
        {
            Ok(()) => Ok(()),
            Err(e) if e.is_fenced() => {
                self.note(lobby, &e);
                Err(append_failed(&e))
            }
            // The database did not answer (again): still unknown.
            Err(e) if e.is_unavailable() => Err(JournalError::in_doubt(format!(
                "cannot settle the action yet: {e}"
            ))),
            Err(e) => Err(failed("the action will not be recorded", e)),
        }
    }

    async fn change_seat(
        &self,
        lobby_id: Uuid,
        change: SeatChange<'_>,
    ) -> Result<(), JournalError> {
        let mut game = self
            .bounded(self.store.load_game(lobby_id))
            .await
            .map_err(|e| failed("cannot load the game", e))?
            .ok_or_else(|| JournalError::new(format!("no game {lobby_id} is stored")))?;
        change.apply(&mut game)?;
        // In a cluster the change is fenced like an append: an old owner
        // paused past a takeover must not overwrite the new owner's seats.
        let written = match self.epoch(lobby_id)? {
            None => self.bounded(self.store.update_seats(&game)).await,
            Some(epoch) => {
                self.bounded(self.store.update_seats_fenced(&game, epoch))
                    .await
            }
        };
        written.map_err(|e| self.fenced_failure(lobby_id, "cannot record the seat change", e))
    }

    /// A fenced write's failure: fenced (the lobby must stop here, and the
    /// lease table is told) or a plain one.
    fn fenced_failure(&self, lobby: Uuid, what: &str, e: StoreError) -> JournalError {
        self.note(lobby, &e);
        if e.is_fenced() {
            JournalError::fenced(format!("{what}: {e}"))
        } else {
            failed(what, e)
        }
    }

    /// Stores lobby `lobby`'s waiting room under its lease (a cluster node
    /// only: a single server keeps rooms in memory).
    async fn save_room(&self, lobby: Uuid, room: &serde_json::Value) -> Result<(), JournalError> {
        let Some(epoch) = self.epoch(lobby)? else {
            return Ok(());
        };
        self.bounded(self.store.save_waiting_room(lobby, epoch, room))
            .await
            .map_err(|e| self.fenced_failure(lobby, "cannot record the waiting room", e))
    }

    /// Deletes lobby `lobby`'s stored waiting room (a cluster node only).
    async fn close_room(&self, lobby: Uuid) -> Result<(), JournalError> {
        let Some(epoch) = self.epoch(lobby)? else {
            return Ok(());
        };
        self.bounded(self.store.delete_waiting_room(lobby, epoch))
            .await
            .map_err(|e| self.fenced_failure(lobby, "cannot delete the waiting room", e))
    }

    /// Records the end of lobby `id`'s game; the result is derived from the
    /// stored log, not taken from the lobby.
    async fn finish(&self, id: Uuid) -> Result<(), JournalError> {
        let outcome = finish_game(&self.store, id).await;
        if outcome.is_err() {
            // Every action is stored, so the end can be recorded later; until
            // it is, the game would only be finished by the next start-up's
            // recovery. Keep trying in the background for a while.
            let store = self.store.clone();
            tokio::spawn(async move {
                for _ in 0..FINISH_RETRIES {
                    tokio::time::sleep(FINISH_RETRY_EVERY).await;
                    match finish_game(&store, id).await {
                        Ok(()) => {
                            tracing::info!(game_id = %id, "end of game recorded on retry");
                            return;
                        }
                        Err(e) => tracing::debug!(game_id = %id, error = %e, "retrying the end"),
                    }
                }
                tracing::warn!(game_id = %id, "gave up recording the end; recovery will");
            });
        }
        outcome
    }
}

/// How often and how long a failed end of game is retried.
const FINISH_RETRY_EVERY: std::time::Duration = std::time::Duration::from_secs(5);
const FINISH_RETRIES: u32 = 120;

/// Records the end of a stored game from its log.
async fn finish_game(store: &Store, id: Uuid) -> Result<(), JournalError> {
    // The end is derived from the log, not trusted from the caller: the
    // stored actions must replay to a finished game.
    let stored = store
        .load_game(id)
        .await
        .map_err(|e| failed("cannot load the game", e))?
        .ok_or_else(|| JournalError::new(format!("no game {id} is stored")))?;
    finish_stored(store, &stored).await
}

/// Marks a stored game over with the result its log replays to. Refuses a
/// log that does not end the game.
pub(crate) async fn finish_stored(store: &Store, stored: &StoredGame) -> Result<(), JournalError> {
    let record = &stored.record;
    let game = record::replay(record).map_err(|e| failed("the stored log does not replay", e))?;
    let status = record::GameRecord::status_of(&game);
    if status != GameStatus::Finished {
        return Err(JournalError::new(format!(
            "game {} is not over after its {} stored actions",
            stored.id,
            record.actions.len()
        )));
    }
    let result = GameResult::from_game(&game);
    store
        .finish_game(stored.id, status, Some(&result), Utc::now())
        .await
        .map_err(|e: StoreError| failed("cannot record the end of the game", e))
}

impl Journal for StoreJournal {
    fn game_started<'a>(&'a self, game: &'a StoredGame) -> JournalFuture<'a> {
        Box::pin(self.start(game))
    }

    fn append<'a>(&'a self, lobby_id: Uuid, action: &'a RecordedAction) -> JournalFuture<'a> {
        Box::pin(self.write(lobby_id, action))
    }

    fn settle<'a>(&'a self, lobby_id: Uuid, action: &'a RecordedAction) -> JournalFuture<'a> {
        Box::pin(self.settle_action(lobby_id, action))
    }

    fn seat_changed<'a>(&'a self, lobby_id: Uuid, change: SeatChange<'a>) -> JournalFuture<'a> {
        Box::pin(self.change_seat(lobby_id, change))
    }

    fn game_finished<'a>(&'a self, lobby_id: Uuid, _result: &'a GameResult) -> JournalFuture<'a> {
        // The end is derived from the stored log (see `finish_game`).
        Box::pin(self.finish(lobby_id))
    }

    fn room_changed<'a>(
        &'a self,
        lobby_id: Uuid,
        room: &'a serde_json::Value,
    ) -> JournalFuture<'a> {
        Box::pin(self.save_room(lobby_id, room))
    }

    fn room_closed(&self, lobby_id: Uuid) -> JournalFuture<'_> {
        Box::pin(self.close_room(lobby_id))
    }

    fn durable(&self) -> bool {
        true
    }
}
