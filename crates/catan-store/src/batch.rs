//! Optional group commit: lobbies hand their actions to one writer task that
//! stores whatever is waiting in a single transaction, so many lobbies share
//! one commit (one fsync) instead of paying for one each.
//!
//! The write-ahead promise is kept: [`GroupCommit::append`] returns only once
//! the transaction holding the action has committed. If a batch fails, its
//! actions are retried one by one so that each caller gets its own answer (a
//! duplicate seq in one lobby does not fail the others).

use crate::Store;
use crate::error::StoreError;
use catan_core::record::RecordedAction;
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

struct Request {
    game_id: Uuid,
    action: RecordedAction,
    reply: oneshot::Sender<Result<(), StoreError>>,
}

/// A handle to the group-commit writer task; cheap to clone.
#[derive(Clone, Debug)]
pub struct GroupCommit {
    tx: mpsc::Sender<Request>,
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Request({}, seq {})", self.game_id, self.action.seq)
    }
}

impl GroupCommit {
    /// Spawns the writer on the current Tokio runtime. `max_batch` caps the
    /// actions per transaction; `queue` bounds the waiting requests (callers
    /// wait for room, which is the back-pressure).
    pub fn spawn(store: Store, max_batch: usize, queue: usize) -> GroupCommit {
        let (tx, rx) = mpsc::channel(queue.max(1));
        tokio::spawn(writer(store, rx, max_batch.max(1)));
        GroupCommit { tx }
    }

    /// Stores one action; returns once it is committed (or failed).
    pub async fn append(&self, game_id: Uuid, action: RecordedAction) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Request {
                game_id,
                action,
                reply,
            })
            .await
            .map_err(|_| StoreError::Closed)?;
        answer.await.map_err(|_| StoreError::Closed)?
    }
}

async fn writer(store: Store, mut rx: mpsc::Receiver<Request>, max_batch: usize) {
    let mut pending = Vec::with_capacity(max_batch);
    while rx.recv_many(&mut pending, max_batch).await > 0 {
        let batch: Vec<(Uuid, RecordedAction)> = pending
            .iter()
            .map(|r| (r.game_id, r.action.clone()))
            .collect();
        let outcome = if batch.len() == 1 {
            store.append_action(batch[0].0, &batch[0].1).await
        } else {
            store.append_actions(&batch).await
        };
        match outcome {
            Ok(()) => {
                for r in pending.drain(..) {
                    // A caller that gave up waiting is no reason to stop.
                    let _ = r.reply.send(Ok(()));
                }
            }
            Err(e) if pending.len() == 1 => {
                if let Some(r) = pending.pop() {
                    let _ = r.reply.send(Err(e));
                }
            }
            Err(_) => {
                // The transaction rolled back: nothing of it is stored. Retry
                // each action alone, in order, so each caller learns its fate.
                for r in pending.drain(..) {
                    let res = store.append_action(r.game_id, &r.action).await;
                    let _ = r.reply.send(res);
                }
            }
        }
    }
}
