//! Taking lobbies over from their logs: one at a time for a lookup that
//! found nobody serving its lobby, or many at once for the reaper (one
//! statement claims them all, two queries per batch load their logs), and
//! which live node should take an orphan over (rendezvous hashing), so that
//! a dead node's lobbies split evenly between the survivors without them
//! having to talk.

use super::{Cluster, Located};
use catan_store::{Claim, Lease, StoreError};
use std::collections::HashMap;
use uuid::Uuid;

/// Games loaded and resumed per query of a batch takeover.
const LOAD_BATCH: usize = 50;
/// Batches of a takeover loaded at once (each holds a takeover permit and
/// a database connection while it loads).
const BATCHES_AT_ONCE: usize = 2;

impl Cluster {
    /// Claims `lobby` and resumes it from its log.
    pub(super) async fn take_over(&self, lobby: Uuid) -> Result<Located, StoreError> {
        let store = &self.inner.store;
        // Never closed, so acquiring cannot fail.
        let _turn = self.inner.takeovers.acquire().await;
        match store.claim_game(lobby, self.holder()?).await? {
            Claim::Won(epoch) => self.inner.leases.insert(lobby, epoch),
            // This node gave its lobbies up a moment ago and has no lease
            // yet: another may take it, or this one after its next beat.
            Claim::Lapsed => return Ok(Located::Moving),
            // Only a stored game in progress can be taken over.
            Claim::NoGame => return Ok(Located::Nowhere),
            // Someone was faster: ask again where it went.
            Claim::Held => {
                return Ok(match store.lease_owner(lobby).await? {
                    Some(o) if o.live => o.url.map_or(Located::Moving, Located::There),
                    _ => Located::Moving,
                });
            }
        }
        let began = std::time::Instant::now();
        let registry = &self.inner.registry;
        let resumed = match crate::persist::resume_on_demand(registry, store, lobby).await {
            Some(handle) => Some(handle),
            // Claimed without a game in progress: a stored waiting room.
            None => crate::persist::restore_room(registry, store, lobby).await,
        };
        match resumed {
            Some(handle) => {
                tracing::info!(
                    lobby_id = %lobby,
                    ms = began.elapsed().as_millis() as u64,
                    "took the lobby over from the store"
                );
                crate::metrics::metrics().cluster_takeovers.inc();
                Ok(Located::Here(handle))
            }
            None => {
                // Not rebuildable here (logged): give it back for another try.
                self.give_back(&[lobby]).await;
                Ok(Located::Nowhere)
            }
        }
    }

    /// Takes over those of `ids` nobody serves and no lookup here is busy
    /// with: claims them in one statement, then loads and resumes them in
    /// batches, holding each lobby's lookup gate until it is live here (so
    /// that its clients' lookups find it here instead of claiming it). How
    /// many are now served here.
    pub(super) async fn take_many(&self, ids: &[Uuid]) -> usize {
        use futures_util::StreamExt;
        let mut gates = HashMap::with_capacity(ids.len());
        for &id in ids {
            if self.inner.registry.get(id).is_some() {
                continue;
            }
            let gate = self.gate(id);
            match gate.clone().try_lock_owned() {
                Ok(turn) => {
                    gates.insert(id, (gate, turn));
                }
                // A lookup here is on it.
                Err(_) => self.ungate(id, &gate),
            }
        }
        let want: Vec<Uuid> = gates.keys().copied().collect();
        let won = {
            let _turn = self.inner.takeovers.acquire().await;
            match self.holder() {
                Ok(holder) => self.inner.store.claim_games(&want, holder).await,
                Err(e) => Err(e),
            }
        };
        let won = match won {
            Ok(won) => won,
            Err(e) => {
                tracing::warn!(error = %e, games = want.len(), "cannot claim orphaned games");
                Vec::new()
            }
        };
        for &(id, epoch) in &won {
            self.inner.leases.insert(id, epoch);
        }
        // The lost ones (someone else was faster) are free for lookups now.
        let mut chunks: Vec<Vec<(Uuid, super::Gate, _)>> = Vec::new();
        for part in won.chunks(LOAD_BATCH) {
            chunks.push(
                part.iter()
                    .filter_map(|&(id, _)| gates.remove(&id).map(|(g, t)| (id, g, t)))
                    .collect(),
            );
        }
        for (id, (gate, turn)) in gates {
            drop(turn);
            self.ungate(id, &gate);
        }
        futures_util::stream::iter(chunks)
            .map(|chunk| self.resume_batch(chunk))
            .buffer_unordered(BATCHES_AT_ONCE)
            .fold(0, |n, one| async move { n + one })
            .await
    }

    /// Loads and resumes one batch of games just claimed here, then opens
    /// their gates; a game that cannot be resumed is given back.
    async fn resume_batch(
        &self,
        chunk: Vec<(
            Uuid,
            super::Gate,
            tokio::sync::OwnedMutexGuard<Option<tokio::time::Instant>>,
        )>,
    ) -> usize {
        let ids: Vec<Uuid> = chunk.iter().map(|(id, _, _)| *id).collect();
        let began = std::time::Instant::now();
        let loaded = {
            let _turn = self.inner.takeovers.acquire().await;
            self.inner.store.load_games(&ids).await
        };
        let mut resumed = Vec::with_capacity(ids.len());
        match loaded {
            Ok(games) => {
                for stored in games.iter().filter(|g| !g.record.status.is_over()) {
                    let live = crate::persist::resume_loaded(
                        &self.inner.registry,
                        &self.inner.store,
                        stored,
                    )
                    .await;
                    if live.is_some() {
                        resumed.push(stored.id);
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, games = ids.len(), "cannot load orphaned games"),
        }
        let failed: Vec<Uuid> = ids
            .iter()
            .copied()
            .filter(|id| !resumed.contains(id))
            .collect();
        self.give_back(&failed).await;
        for (id, gate, turn) in chunk {
            drop(turn);
            self.ungate(id, &gate);
        }
        crate::metrics::metrics()
            .cluster_takeovers
            .inc_by(resumed.len() as u64);
        tracing::info!(
            games = resumed.len(),
            failed = failed.len(),
            ms = began.elapsed().as_millis() as u64,
            "took a batch of lobbies over from their logs"
        );
        resumed.len()
    }

    /// Releases the leases of lobbies claimed here but not resumed, for
    /// another try (here or elsewhere).
    async fn give_back(&self, ids: &[Uuid]) {
        let leases: Vec<Lease> = ids
            .iter()
            .filter_map(|&id| self.inner.leases.remove(id))
            .collect();
        if leases.is_empty() {
            return;
        }
        if let Err(e) = self
            .inner
            .store
            .release_leases(&self.inner.id, &leases)
            .await
        {
            tracing::warn!(error = %e, "cannot release leases; they expire by themselves");
        }
    }
}

/// Which of `nodes` (ids) should take the orphaned `lobby` over: the one
/// with the highest score for it (rendezvous hashing). Every node computes
/// the same answer from the same node list, each node gets an equal share,
/// and a node leaving the list moves only its own share.
pub(super) fn taker<'a>(nodes: &[&'a str], lobby: Uuid) -> Option<&'a str> {
    nodes.iter().copied().max_by_key(|node| score(node, lobby))
}

/// A well-mixed 64-bit hash of `node` and `lobby` (FNV-1a, then the
/// SplitMix64 finalizer), the same in every build, unlike std's hasher.
fn score(node: &str, lobby: Uuid) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in lobby.as_bytes().iter().chain(node.as_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lobbies(n: usize) -> Vec<Uuid> {
        (0..n as u128).map(Uuid::from_u128).collect()
    }

    #[test]
    fn orphans_split_evenly_between_nodes() {
        let nodes = ["127.0.0.1:18181", "127.0.0.1:18182", "127.0.0.1:18183"];
        let mut count = HashMap::new();
        for id in lobbies(3_000) {
            *count.entry(taker(&nodes, id).unwrap()).or_insert(0) += 1;
        }
        for node in nodes {
            let n = count[node];
            assert!((900..=1_100).contains(&n), "{node} takes {n} of 3,000");
        }
    }

    #[test]
    fn a_node_leaving_moves_only_its_own_share() {
        let three = ["a", "b", "c"];
        let two = ["a", "c"];
        for id in lobbies(1_000) {
            let before = taker(&three, id).unwrap();
            let after = taker(&two, id).unwrap();
            if before != "b" {
                assert_eq!(before, after, "lobby {id} moved although its node stayed");
            }
        }
        assert_eq!(taker(&[], Uuid::nil()), None);
    }
}
