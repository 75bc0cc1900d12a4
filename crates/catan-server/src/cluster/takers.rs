//! Which live node takes an orphaned lobby over (its node died, or handed
//! it away): rendezvous hashing over the live nodes, so that a dead node's
//! lobbies split evenly between the survivors without them having to talk.
//! The reaper takes its own share by it, and a lookup of an orphan that is
//! another node's share sends its client there (`Cluster::find`), so that
//! the survivor its clients happen to ask first does not take the dead
//! node's lobbies, and their sockets, alone. The node list lookups judge by
//! is read at most once a beat: a dead node's clients all ask at once.

use super::Cluster;
use std::sync::Arc;
use tokio::time::Instant;
use uuid::Uuid;

/// A live node that may take lobbies over: its id and URL.
type Taker = (String, String);

/// One reading of the live nodes: when, how many cuts (`Inner::cuts`)
/// this node had heard of then (a cut since makes it stale), and the
/// nodes.
type Reading = (Instant, u64, Arc<Vec<Taker>>);

/// The live nodes as this node last read them.
#[derive(Default)]
pub(super) struct NodeList {
    read: tokio::sync::Mutex<Option<Reading>>,
}

impl Cluster {
    /// The URL of the node other than this one whose share the orphan
    /// `lobby` is, among the live nodes that are not draining, leaving out
    /// `holder` (the node that held it) and a node at `unreachable` (a
    /// lookup could not reach it); `None` when it is this node's to take
    /// (or the node list cannot be read: then this node takes it, as
    /// before there was a list).
    pub(super) async fn taker_elsewhere(
        &self,
        lobby: Uuid,
        holder: Option<&str>,
        unreachable: Option<&str>,
    ) -> Option<String> {
        let nodes = self.takers().await?;
        let me = self.id();
        let mut ids: Vec<&str> = nodes
            .iter()
            .filter(|(id, url)| Some(id.as_str()) != holder && Some(url.as_str()) != unreachable)
            .map(|(id, _)| id.as_str())
            .collect();
        if !ids.contains(&me) {
            ids.push(me);
        }
        let chosen = taker(&ids, lobby)?;
        if chosen == me {
            return None;
        }
        nodes
            .iter()
            .find(|(id, _)| id == chosen)
            .map(|(_, url)| url.clone())
    }

    /// The live nodes that are not draining, read again when the last
    /// reading is a beat old or a node was cut since (one reading for
    /// every lookup waiting).
    async fn takers(&self) -> Option<Arc<Vec<Taker>>> {
        let fresh = self.inner.lease / 3;
        let cuts = *self.inner.cuts.borrow();
        let mut read = self.inner.nodes.read.lock().await;
        if let Some((at, cut, nodes)) = read.as_ref()
            && at.elapsed() < fresh
            && *cut == cuts
        {
            return Some(nodes.clone());
        }
        let nodes = match self.inner.store.live_nodes(self.inner.lease).await {
            Ok(nodes) => nodes,
            Err(e) => {
                tracing::debug!(error = %e, "cannot list the live nodes");
                return None;
            }
        };
        let nodes: Arc<Vec<Taker>> = Arc::new(
            nodes
                .into_iter()
                .filter(|n| !n.draining)
                .map(|n| (n.id, n.url))
                .collect(),
        );
        *read = Some((Instant::now(), cuts, nodes.clone()));
        Some(nodes)
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
    use std::collections::HashMap;

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
