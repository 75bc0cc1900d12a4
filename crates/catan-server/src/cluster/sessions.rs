//! The node's database session (`catan_store::NodeSession`, docs/CLUSTER.md
//! "Node sessions"), kept open on the beat's runtime for as long as the
//! node lives, and the looks, four a second at the default lease, for
//! other nodes whose session is gone: PostgreSQL closes a killed process's
//! session at once, so its lobbies are taken over without waiting for its
//! lease to run out. A cut this node makes, or hears another node made,
//! wakes the lookups waiting for that node's lease and the reaper, and
//! makes the node list be read again.

use super::Cluster;
use crate::metrics::metrics;
use catan_store::{CutNode, NodeSession};
use std::collections::HashSet;

/// Looks per lease time (a quarter of a second at the default 3 s): a
/// look is one statement on a table of a row per node.
const LOOKS_PER_LEASE: u32 = 12;

/// Runs until the process ends, on the beat's runtime (the session's
/// connection is the beat pool's, opened there).
pub(super) async fn run(cluster: Cluster) {
    let c = &cluster.inner;
    let mut tick = tokio::time::interval(c.lease / LOOKS_PER_LEASE);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut session: Option<NodeSession> = None;
    let mut heard: HashSet<CutNode> = HashSet::new();
    let mut failing = false;
    loop {
        tick.tick().await;
        let s = match session.as_mut() {
            Some(s) => s,
            None => match c.beat_store.open_node_session(&c.id, c.instance).await {
                Ok(s) => {
                    tracing::info!(key = s.key(), "this node's database session is open");
                    failing = false;
                    session.insert(s)
                }
                Err(e) => {
                    if !std::mem::replace(&mut failing, true) {
                        tracing::warn!(error = %e, "cannot open this node's database session; trying again");
                    }
                    continue;
                }
            },
        };
        // After a restart of the database every node's session is new:
        // none takes another for dead before all could open theirs again.
        if s.age() < c.lease {
            continue;
        }
        match s.cut_dead(&c.id, c.lease).await {
            Ok(cuts) => {
                let fresh: Vec<&CutNode> = cuts.iter().filter(|n| !heard.contains(n)).collect();
                if !fresh.is_empty() {
                    for n in &fresh {
                        tracing::warn!(node_id = %n.id, "a node's database session is gone: its lobbies are orphans now");
                    }
                    metrics().cluster_nodes_cut.inc_by(fresh.len() as u64);
                    cluster.heard_of_cut();
                }
                heard = cuts.into_iter().collect();
            }
            Err(e) if s.is_broken() => {
                tracing::warn!(error = %e, "this node's database session was lost; opening it again");
                session = None;
            }
            Err(e) => tracing::debug!(error = %e, "cannot look for nodes whose session is gone"),
        }
    }
}
