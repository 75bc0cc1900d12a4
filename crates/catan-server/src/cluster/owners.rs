//! Lookups' reads of who owns a lobby, in batches. When a node dies, each
//! of its clients looks its lobby up at once, on the survivors, and each
//! lookup read its lobby's lease in a statement of its own: twelve
//! thousand statements queued for ten connections, the survivors' pools
//! stayed full for seconds, and thousands of lookups ran out of time
//! waiting for a connection (docs/PERFORMANCE.md). Here the lobbies asked
//! for while a read is under way are read together in the next one.

use super::Cluster;
use catan_store::{LeaseOwner, StoreError};
use std::sync::Arc;
use tokio::sync::{Semaphore, mpsc, oneshot};
use uuid::Uuid;

/// Most lobbies read in one statement.
const PER_READ: usize = 256;
/// Reads under way at once (each holds a connection of the main pool).
const READS_AT_ONCE: usize = 2;

/// A lookup's lobby, and where its owner goes (an error as its text: one
/// failed read answers every lookup of its batch).
pub(super) struct Ask {
    lobby: Uuid,
    reply: oneshot::Sender<Result<Option<LeaseOwner>, String>>,
}

/// The lookups' side of the reader.
pub(super) type Asks = mpsc::UnboundedSender<Ask>;

/// A new queue: the sender for `Inner`, the receiver for [`run`].
pub(super) fn queue() -> (Asks, mpsc::UnboundedReceiver<Ask>) {
    mpsc::unbounded_channel()
}

impl Cluster {
    /// Who owns `lobby` ([`catan_store::Store::lease_owner`]), read
    /// together with the lobbies other lookups ask for meanwhile.
    pub(super) async fn owner(&self, lobby: Uuid) -> Result<Option<LeaseOwner>, StoreError> {
        let (reply, answer) = oneshot::channel();
        if self.inner.asks.send(Ask { lobby, reply }).is_ok()
            && let Ok(read) = answer.await
        {
            return read.map_err(|reason| StoreError::Unavailable {
                reason,
                in_doubt: false,
            });
        }
        // The reader has stopped (the runtime is shutting down).
        self.inner.store.lease_owner(lobby).await
    }
}

/// Runs the reader until the process ends: waits for a lookup, then for a
/// read's turn, then reads that lobby and every other one asked for
/// meanwhile (up to [`PER_READ`]), in a task of its own so that the next
/// batch gathers while this one reads.
pub(super) async fn run(cluster: Cluster, mut asks: mpsc::UnboundedReceiver<Ask>) {
    let turns = Arc::new(Semaphore::new(READS_AT_ONCE));
    while let Some(first) = asks.recv().await {
        let Ok(turn) = turns.clone().acquire_owned().await else {
            return;
        };
        let mut batch = vec![first];
        while batch.len() < PER_READ {
            match asks.try_recv() {
                Ok(ask) => batch.push(ask),
                Err(_) => break,
            }
        }
        // A lookup that gave up (its request timed out) needs no answer.
        batch.retain(|a| !a.reply.is_closed());
        if batch.is_empty() {
            continue;
        }
        let store = cluster.inner.store.clone();
        tokio::spawn(async move {
            let ids: Vec<Uuid> = batch.iter().map(|a| a.lobby).collect();
            let read = store.lease_owners(&ids).await;
            drop(turn);
            match read {
                Ok(owners) => {
                    for ask in batch {
                        // The lookup may have stopped waiting.
                        let _ = ask.reply.send(Ok(owners.get(&ask.lobby).cloned()));
                    }
                }
                Err(e) => {
                    let reason = e.to_string();
                    for ask in batch {
                        let _ = ask.reply.send(Err(reason.clone()));
                    }
                }
            }
        });
    }
}
