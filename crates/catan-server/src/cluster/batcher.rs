//! Lookups' takeovers in batches. When a node dies, every client of each
//! of its lobbies looks its lobby up at once; one lookup per lobby gets to
//! take it over (the lobby's gate), and those lookups hand their lobbies
//! to the batcher here and wait. The batcher waits for a takeover turn and
//! takes over, in that one turn, every lobby handed to it meanwhile (up to
//! [`LOAD_BATCH`]): one claim and one load for them all instead of one
//! each, so the takeover turns are no longer what a dead node's clients
//! queue for.

use super::Cluster;
use super::takeover::{By, LOAD_BATCH};
use crate::lobby::LobbyHandle;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

/// Longest a batch waits for more lobbies after its first: far less than a
/// takeover's claim and load on a busy node (hundreds of milliseconds), so
/// that a lone lookup hardly notices it.
const GATHER: Duration = Duration::from_millis(50);

/// A lookup's lobby, and where its answer goes: the lobby's handle when the
/// batch took it over, `None` when it did not (then the lookup looks at it
/// alone: a waiting room, or another node was faster).
pub(super) struct Want {
    lobby: Uuid,
    reply: oneshot::Sender<Option<LobbyHandle>>,
}

/// The lookups' side of the batcher.
pub(super) type Wants = mpsc::UnboundedSender<Want>;

/// A new batcher queue: the sender for `Inner`, the receiver for [`run`].
pub(super) fn queue() -> (Wants, mpsc::UnboundedReceiver<Want>) {
    mpsc::unbounded_channel()
}

impl Cluster {
    /// Hands `lobby` to the batcher and waits for its batch: its handle if
    /// the batch took it over here.
    pub(super) async fn batched(&self, lobby: Uuid) -> Option<LobbyHandle> {
        let (reply, answer) = oneshot::channel();
        self.inner.wants.send(Want { lobby, reply }).ok()?;
        answer.await.ok().flatten()
    }
}

/// Runs the batcher until the process ends: waits for a lobby, gathers
/// others for up to [`GATHER`], waits for a takeover turn, then takes over
/// those lobbies and every other one handed in meanwhile, in a task of
/// their own (so the next batch gathers while this one loads).
pub(super) async fn run(cluster: Cluster, mut wants: mpsc::UnboundedReceiver<Want>) {
    while let Some(first) = wants.recv().await {
        let mut batch = vec![first];
        let until = tokio::time::Instant::now() + GATHER;
        while batch.len() < LOAD_BATCH {
            match tokio::time::timeout_at(until, wants.recv()).await {
                Ok(Some(want)) => batch.push(want),
                // Closed (the process ends) or gathered long enough.
                Ok(None) | Err(_) => break,
            }
        }
        let turn = cluster.turn().await;
        while batch.len() < LOAD_BATCH {
            match wants.try_recv() {
                Ok(want) => batch.push(want),
                Err(_) => break,
            }
        }
        // A lookup that gave up (its request timed out) needs no takeover.
        batch.retain(|w| !w.reply.is_closed());
        if batch.is_empty() {
            continue;
        }
        let cluster = cluster.clone();
        tokio::spawn(async move {
            let ids: Vec<Uuid> = batch.iter().map(|w| w.lobby).collect();
            let mut live = cluster.take_batch(&ids, turn, By::Lookups).await;
            for want in batch {
                // The lookup may have stopped waiting: nothing to tell.
                let _ = want.reply.send(live.remove(&want.lobby));
            }
        });
    }
}
