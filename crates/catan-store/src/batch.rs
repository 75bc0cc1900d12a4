//! Optional group commit: lobbies hand their actions to one writer task that
//! stores whatever is waiting in a single transaction, so many lobbies share
//! one commit (one fsync) instead of paying for one each.
//!
//! The write-ahead promise is kept: [`GroupCommit::append`] returns `Ok` only
//! once the transaction holding the action has committed.
//!
//! Bounded under faults:
//! - Every append has a deadline ([`GroupCommitConfig::deadline`]), queueing
//!   included. Past it the caller gets [`StoreError::Timeout`]: the action is
//!   in doubt (its batch may still commit) and the caller settles it with
//!   [`crate::Store::ensure_action`] before it writes the game's next seq.
//! - Batches run concurrently, up to [`GroupCommitConfig::in_flight`] at a
//!   time, each on its own connection under the same deadline: one stuck
//!   batch (a lock, a dead connection) does not hold back the next ones.
//!   So the order of appends to one game is kept only if each is awaited
//!   before the next is sent, as a lobby does.
//! - A batch that fails because the database is unavailable fails every
//!   action in it at once. Only a constraint failure (a duplicate seq, an
//!   unknown game), which rolled back a batch through no fault of the other
//!   actions, is retried one action at a time so each caller gets its own
//!   answer.
//! - A request whose caller stopped waiting is not written: its caller
//!   settles it instead.

use crate::Store;
use crate::cluster::FencedAction;
use crate::error::StoreError;
use catan_core::record::RecordedAction;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Semaphore, mpsc, oneshot};
use tokio::time::Instant;
use uuid::Uuid;

/// Called with the number of actions of each committed batch (for metrics;
/// the store knows no metrics library).
pub type BatchObserver = Arc<dyn Fn(usize) + Send + Sync>;

/// How the group-commit writer batches and bounds its work.
#[derive(Clone)]
pub struct GroupCommitConfig {
    /// Most actions in one transaction.
    pub max_batch: usize,
    /// Appends waiting for the writer before callers wait for room (the
    /// back-pressure; the wait counts against the deadline).
    pub queue: usize,
    /// Batches being written at once, each on its own connection.
    pub in_flight: usize,
    /// Longest an append may take from the call to its answer.
    pub deadline: Duration,
    /// Told the size of each committed batch.
    pub observer: Option<BatchObserver>,
}

impl Default for GroupCommitConfig {
    fn default() -> Self {
        GroupCommitConfig {
            max_batch: 256,
            queue: 4096,
            in_flight: 4,
            deadline: Duration::from_secs(5),
            observer: None,
        }
    }
}

impl std::fmt::Debug for GroupCommitConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GroupCommitConfig")
            .field("max_batch", &self.max_batch)
            .field("queue", &self.queue)
            .field("in_flight", &self.in_flight)
            .field("deadline", &self.deadline)
            .field("observer", &self.observer.is_some())
            .finish()
    }
}

struct Request {
    game_id: Uuid,
    action: RecordedAction,
    /// The writer's lease epoch (`None`: not fenced).
    epoch: Option<u64>,
    reply: oneshot::Sender<Result<(), StoreError>>,
}

/// A handle to the group-commit writer task; cheap to clone.
#[derive(Clone, Debug)]
pub struct GroupCommit {
    tx: mpsc::Sender<Request>,
    deadline: Duration,
}

impl GroupCommit {
    /// Spawns the writer on the current Tokio runtime.
    pub fn spawn(store: Store, config: GroupCommitConfig) -> GroupCommit {
        let (tx, rx) = mpsc::channel(config.queue.max(1));
        let deadline = config.deadline;
        tokio::spawn(writer(store, rx, config));
        GroupCommit { tx, deadline }
    }

    /// The deadline of each append.
    pub fn deadline(&self) -> Duration {
        self.deadline
    }

    /// Stores one action; returns once it is committed, or failed, or the
    /// deadline passed ([`StoreError::Timeout`], in doubt).
    pub async fn append(&self, game_id: Uuid, action: RecordedAction) -> Result<(), StoreError> {
        self.append_fenced(game_id, action, None).await
    }

    /// [`GroupCommit::append`] for a writer holding the game's lease at
    /// `epoch`: [`StoreError::Fenced`] (nothing written) once another node
    /// took the game over.
    pub async fn append_fenced(
        &self,
        game_id: Uuid,
        action: RecordedAction,
        epoch: Option<u64>,
    ) -> Result<(), StoreError> {
        let until = Instant::now() + self.deadline;
        let Ok(room) = tokio::time::timeout_at(until, self.tx.reserve()).await else {
            // Never handed to the writer: definitely not written.
            return Err(StoreError::Unavailable {
                reason: "the commit queue stayed full".into(),
                in_doubt: false,
            });
        };
        let (reply, answer) = oneshot::channel();
        room.map_err(|_| StoreError::Closed)?.send(Request {
            game_id,
            action,
            epoch,
            reply,
        });
        match tokio::time::timeout_at(until, answer).await {
            Ok(answer) => answer.map_err(|_| StoreError::Closed)?,
            Err(_) => Err(StoreError::Timeout(self.deadline)),
        }
    }
}

async fn writer(store: Store, mut rx: mpsc::Receiver<Request>, config: GroupCommitConfig) {
    let max_batch = config.max_batch.max(1);
    let slots = Arc::new(Semaphore::new(config.in_flight.max(1)));
    let mut pending = Vec::with_capacity(max_batch);
    loop {
        // A free slot first: while every slot is busy, requests gather in the
        // channel and go out together as the next batch.
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        if rx.recv_many(&mut pending, max_batch).await == 0 {
            return;
        }
        pending.retain(|r| !r.reply.is_closed());
        if pending.is_empty() {
            continue;
        }
        let batch = std::mem::replace(&mut pending, Vec::with_capacity(max_batch));
        let (store, config) = (store.clone(), config.clone());
        tokio::spawn(async move {
            commit(&store, batch, &config).await;
            drop(slot);
        });
    }
}

/// Writes one batch and answers each of its callers.
async fn commit(store: &Store, mut batch: Vec<Request>, config: &GroupCommitConfig) {
    let actions: Vec<FencedAction> = batch
        .iter()
        .map(|r| (r.game_id, r.action.clone(), r.epoch))
        .collect();
    match store.append_fenced_within(&actions, config.deadline).await {
        Ok(fenced) => {
            if let Some(observe) = &config.observer {
                observe(batch.len() - fenced.len());
            }
            for r in batch {
                // A caller that gave up waiting is no reason to stop.
                let answer = if fenced.contains(&r.game_id) {
                    Err(StoreError::Fenced { game_id: r.game_id })
                } else {
                    Ok(())
                };
                let _ = r.reply.send(answer);
            }
        }
        Err(e) if batch.len() == 1 => {
            if let Some(r) = batch.pop() {
                let _ = r.reply.send(Err(e));
            }
        }
        Err(e) if e.is_unavailable() => {
            // Retrying one by one would only wait out the same outage once
            // per action: everyone hears at once.
            for r in batch {
                let _ = r.reply.send(Err(e.for_batch()));
            }
        }
        Err(_) => {
            // A constraint failed and rolled back the whole transaction:
            // nothing of it is stored. Retry each action alone, in order, so
            // each caller learns its own fate.
            for r in batch {
                if r.reply.is_closed() {
                    continue;
                }
                let one = [(r.game_id, r.action, r.epoch)];
                let res = match store.append_fenced_within(&one, config.deadline).await {
                    Ok(fenced) if fenced.is_empty() => Ok(()),
                    Ok(_) => Err(StoreError::Fenced { game_id: r.game_id }),
                    Err(e) => Err(e),
                };
                if res.is_ok()
                    && let Some(observe) = &config.observer
                {
                    observe(1);
                }
                let _ = r.reply.send(res);
            }
        }
    }
}
