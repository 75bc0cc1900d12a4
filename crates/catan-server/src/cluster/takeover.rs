//! Taking lobbies over from their logs, in batches: one statement claims
//! up to [`LOAD_BATCH`] games, two queries load their logs, and the games
//! resume here. The reaper takes a dead node's lobbies in such batches, and
//! so do lookups (`batcher`: the lobbies lookups want are gathered while
//! they wait for a turn), since a dead node's clients all look their
//! lobbies up at once and one claim, one load and one answer a lobby left
//! the takeover turns queued for seconds (docs/PERFORMANCE.md, "Recovery
//! at 3,000 games per node"). What a batch cannot take (a waiting room, a
//! lobby another node was faster to) is looked at one at a time.

use super::{Cluster, Located};
use crate::lobby::LobbyHandle;
use catan_store::{Claim, Lease, StoreError};
use std::collections::HashMap;
use std::time::Duration;
use tokio::sync::OwnedSemaphorePermit;
use uuid::Uuid;

/// Most games claimed and loaded in one batch.
pub(super) const LOAD_BATCH: usize = 50;
/// The reaper's batches under way at once (each holds a takeover turn and
/// a database connection while it claims and loads).
const BATCHES_AT_ONCE: usize = 2;

/// Who asked for a batch (for the log).
#[derive(Clone, Copy, Debug)]
pub(super) enum By {
    /// The reaper, for orphans nobody asked for yet.
    Reaper,
    /// Lookups of clients whose lobby nobody serves.
    Lookups,
}

impl Cluster {
    /// Claims `lobby` and resumes it from its log: in a batch with other
    /// lookups' lobbies, or alone when the batch did not take it.
    pub(super) async fn take_over(&self, lobby: Uuid) -> Result<Located, StoreError> {
        if let Some(handle) = self.batched(lobby).await {
            return Ok(Located::Here(handle));
        }
        self.take_one(lobby).await
    }

    /// Claims `lobby` alone and resumes it from its log (a game in
    /// progress, or a stored waiting room), or says where it is.
    async fn take_one(&self, lobby: Uuid) -> Result<Located, StoreError> {
        let store = &self.inner.takeover_store;
        // Never closed, so acquiring cannot fail.
        let _turn = self.inner.takeovers.acquire().await;
        if self.room() == 0 {
            return Ok(Located::Moving);
        }
        let _claiming = Claiming::new(self, vec![lobby]);
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

    /// Takes over those of `ids` nobody serves and no lookup here is
    /// taking over, in batches of [`LOAD_BATCH`], each batch holding its
    /// lobbies' takeover locks until they are live here (so that their
    /// clients' lookups find them here instead of claiming them). How many
    /// are now served here.
    pub(super) async fn take_many(&self, ids: &[Uuid]) -> usize {
        use futures_util::StreamExt;
        let chunks: Vec<Vec<Uuid>> = ids.chunks(LOAD_BATCH).map(<[Uuid]>::to_vec).collect();
        futures_util::stream::iter(chunks)
            .map(|chunk| self.take_gated(chunk))
            .buffer_unordered(BATCHES_AT_ONCE)
            .fold(0, |n, one| async move { n + one })
            .await
    }

    /// One batch of the reaper's: takes the takeover locks of those of
    /// `ids` not live here and not being taken over by a lookup, then takes
    /// them over; how many are now served here.
    async fn take_gated(&self, ids: Vec<Uuid>) -> usize {
        let mut gated = Vec::with_capacity(ids.len());
        for id in ids {
            if self.inner.registry.get(id).is_some() {
                continue;
            }
            let gate = self.gate(id);
            match gate.take.clone().try_lock_owned() {
                // A lookup took it over before letting the lock go.
                Ok(_) if self.inner.registry.get(id).is_some() => self.ungate(id, &gate),
                Ok(turn) => gated.push((id, gate, turn)),
                // A lookup here is taking it over.
                Err(_) => self.ungate(id, &gate),
            }
        }
        let want: Vec<Uuid> = gated.iter().map(|(id, _, _)| *id).collect();
        let live = if want.is_empty() {
            HashMap::new()
        } else {
            let turn = self.turn().await;
            self.take_batch(&want, turn, By::Reaper).await
        };
        for (id, gate, turn) in gated {
            drop(turn);
            self.ungate(id, &gate);
        }
        live.len()
    }

    /// A takeover turn (a database connection's worth of work).
    pub(super) async fn turn(&self) -> OwnedSemaphorePermit {
        match self.inner.takeovers.clone().acquire_owned().await {
            Ok(turn) => turn,
            // Never closed while a `Cluster` holds it.
            Err(_) => unreachable!("the takeover semaphore is never closed"),
        }
    }

    /// Claims those of `ids` that are games in progress nobody holds (one
    /// statement), loads their logs (two queries) in `turn`, and resumes
    /// them here; the handles of those now live here. A claimed game that
    /// cannot be resumed is given back.
    pub(super) async fn take_batch(
        &self,
        ids: &[Uuid],
        turn: OwnedSemaphorePermit,
        by: By,
    ) -> HashMap<Uuid, LobbyHandle> {
        let began = std::time::Instant::now();
        let mut live = HashMap::with_capacity(ids.len());
        // Only as many as this node has the files for (`room`): the others
        // take the rest.
        let ids = &ids[..ids.len().min(self.room())];
        if ids.is_empty() {
            return live;
        }
        let _claiming = Claiming::new(self, ids.to_vec());
        let generation = match self.holder() {
            Ok(holder) => holder.generation,
            Err(e) => {
                tracing::warn!(error = %e, games = ids.len(), "cannot claim lobbies to take over");
                return live;
            }
        };
        // The claim, the load and the rebuilding of the lobbies run on the
        // takeovers' own thread: on the lobbies' runtime, swamped by a dead
        // node's reconnecting clients, each step's answer waited there for
        // hundreds of milliseconds before the next could start. Only the
        // lobbies' actors are spawned there.
        let store = self.inner.takeover_store.clone();
        let node = self.inner.id.clone();
        let leases = self.inner.leases.clone();
        let registry = self.inner.registry.clone();
        let lobbies = self.inner.main_rt.clone();
        let want = ids.to_vec();
        let took = self
            .inner
            .takeover_rt
            .spawn(async move {
                let holder = catan_store::Holder {
                    node: &node,
                    generation,
                };
                let won = store.claim_games(&want, holder).await?;
                let claim = began.elapsed();
                for &(id, epoch) in &won {
                    leases.insert(id, epoch);
                }
                let claimed: Vec<Uuid> = won.iter().map(|(id, _)| *id).collect();
                let mut live = HashMap::with_capacity(claimed.len());
                if claimed.is_empty() {
                    return Ok((claimed, live, claim, Duration::ZERO, claim));
                }
                let loaded = store.load_games(&claimed).await;
                let load = began.elapsed() - claim;
                match loaded {
                    Ok(games) => {
                        for stored in games.iter().filter(|g| !g.record.status.is_over()) {
                            let handle = crate::persist::resume_loaded_onto(
                                &lobbies, &registry, &store, stored,
                            )
                            .await;
                            if let Some(handle) = handle {
                                live.insert(stored.id, handle);
                            }
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, games = claimed.len(), "cannot load lobbies to take over")
                    }
                }
                Ok::<_, StoreError>((claimed, live, claim, load, began.elapsed()))
            })
            .await;
        drop(turn);
        let (claimed, took, claim, load, done) = match took {
            Ok(Ok(took)) => took,
            Ok(Err(e)) => {
                tracing::warn!(error = %e, games = ids.len(), "cannot claim lobbies to take over");
                return live;
            }
            Err(e) => {
                tracing::warn!(error = %e, games = ids.len(), "the takeover failed");
                return live;
            }
        };
        live = took;
        if claimed.is_empty() {
            return live;
        }
        // How long rebuilding the lobbies took, and how long the answer
        // then waited for the lobbies' runtime (they are served meanwhile).
        let resume = done - claim - load;
        let handed = began.elapsed() - done;
        let failed: Vec<Uuid> = claimed
            .into_iter()
            .filter(|id| !live.contains_key(id))
            .collect();
        self.give_back(&failed).await;
        crate::metrics::metrics()
            .cluster_takeovers
            .inc_by(live.len() as u64);
        tracing::info!(
            ?by,
            wanted = ids.len(),
            games = live.len(),
            failed = failed.len(),
            claim_ms = claim.as_millis() as u64,
            load_ms = load.as_millis() as u64,
            resume_ms = resume.as_millis() as u64,
            handed_ms = handed.as_millis() as u64,
            ms = began.elapsed().as_millis() as u64,
            "took a batch of lobbies over from their logs"
        );
        live
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

/// Lobbies being claimed and loaded here, from before the claim until they
/// are live in the registry (or given back): the beat, which parks the
/// leases of lobbies missing from the registry, leaves their leases alone.
/// A batch's logs can take seconds to load on a busy node; a lease parked
/// meanwhile is another node's to claim, and the lobby resumed here would
/// then be fenced out at its first action.
struct Claiming<'a> {
    cluster: &'a Cluster,
    ids: Vec<Uuid>,
}

impl<'a> Claiming<'a> {
    fn new(cluster: &'a Cluster, ids: Vec<Uuid>) -> Claiming<'a> {
        cluster.claiming().extend(ids.iter().copied());
        Claiming { cluster, ids }
    }
}

impl Drop for Claiming<'_> {
    fn drop(&mut self) {
        let mut claiming = self.cluster.claiming();
        for id in &self.ids {
            claiming.remove(id);
        }
    }
}

impl Cluster {
    /// The lobbies being claimed and loaded here.
    pub(super) fn claiming(&self) -> std::sync::MutexGuard<'_, std::collections::HashSet<Uuid>> {
        self.inner
            .claiming
            .lock()
            .unwrap_or_else(|p| p.into_inner())
    }
}
