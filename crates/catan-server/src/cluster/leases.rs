//! The leases this node holds, shared by the cluster's beat (which renews
//! and releases them) and the journal (which writes each action under its
//! lobby's epoch). A lobby without an entry here is not this node's to
//! write: its appends are refused before they reach the database.

use catan_store::Lease;
use std::collections::HashMap;
use std::sync::Mutex;
use tokio::sync::mpsc;
use uuid::Uuid;

/// Lobby id to the epoch this node holds its lease at.
#[derive(Debug)]
pub struct Leases {
    held: Mutex<HashMap<Uuid, u64>>,
    /// Lobbies found lost by a fenced write, for the beat to stop.
    lost: mpsc::UnboundedSender<Uuid>,
}

impl Leases {
    /// An empty table and the receiver of lobbies found lost.
    pub fn new() -> (Leases, mpsc::UnboundedReceiver<Uuid>) {
        let (lost, rx) = mpsc::unbounded_channel();
        (
            Leases {
                held: Mutex::new(HashMap::new()),
                lost,
            },
            rx,
        )
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, u64>> {
        // Plain inserts and removes: a poisoned map is still consistent.
        self.held.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The epoch this node holds `lobby` at, if it holds it.
    pub fn epoch(&self, lobby: Uuid) -> Option<u64> {
        self.map().get(&lobby).copied()
    }

    /// Notes a lease won.
    pub fn insert(&self, lobby: Uuid, epoch: u64) {
        self.map().insert(lobby, epoch);
    }

    /// Forgets a lease (released, or lost); the entry it had.
    pub fn remove(&self, lobby: Uuid) -> Option<Lease> {
        self.map().remove(&lobby).map(|epoch| Lease {
            lobby_id: lobby,
            epoch,
        })
    }

    /// A write found `lobby` taken over: forget it and have it stopped.
    pub fn lost(&self, lobby: Uuid) {
        if self.remove(lobby).is_some() {
            // The beat may have stopped already (the server is stopping).
            let _ = self.lost.send(lobby);
        }
    }

    /// Every lease held.
    pub fn all(&self) -> Vec<Lease> {
        self.map()
            .iter()
            .map(|(&lobby_id, &epoch)| Lease { lobby_id, epoch })
            .collect()
    }

    /// How many leases are held.
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// Whether none is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
