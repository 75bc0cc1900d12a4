//! The reaper: takes over games nobody serves (their node died or handed
//! them away), so that games with nobody asking for them, bots alone, go on
//! too, and so that a dead node's lobbies come back in a few batches rather
//! than one client request at a time. It looks every beat, and at once when
//! a lookup found a lobby's node gone and asked for a look at the moment
//! that node's leases run out (`Cluster::reap_at`).
//!
//! Each orphan has one taker among the live nodes (`takers::taker`,
//! rendezvous hashing over the same node list on every node): each node
//! takes its own share first, so two survivors take a dead node's lobbies
//! half each, at once, without claiming the same rows. An orphan its taker
//! has not taken within a beat is anybody's. An expired lease whose node
//! still beats (its renewal is late: a busy database) is left to that node
//! for a whole lease time more: taking it would move a lobby that is
//! being served, and its clients, for nothing.

use super::Cluster;
use super::takers::taker;
use catan_store::Orphan;
use std::time::Duration;
use tokio::time::Instant;
use uuid::Uuid;

/// Orphaned games looked at per round.
const ORPHANS_PER_ROUND: i64 = 2_000;
/// Orphans taken over per round (one claiming statement).
const TAKEN_PER_ROUND: usize = 1_000;
/// Rounds in a row while each finds more to take (then wait for the beat:
/// a game that cannot be resumed here must not be retried in a loop).
const ROUNDS_IN_A_ROW: usize = 3;

/// Runs the reaper until the process ends.
pub(super) async fn run(cluster: Cluster) {
    let every = cluster.inner.lease / 3;
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let soon = *cluster
            .inner
            .reap_at
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        tokio::select! {
            _ = tick.tick() => {}
            _ = sleep_until(soon) => {}
            // `reap_at` moved earlier: wait for the new time.
            _ = cluster.inner.reap_wake.notified() => continue,
        }
        {
            let mut at = cluster
                .inner
                .reap_at
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            if at.is_some_and(|t| t <= Instant::now()) {
                *at = None;
            }
        }
        if cluster.draining() {
            continue;
        }
        for _ in 0..ROUNDS_IN_A_ROW {
            if once(&cluster, every).await == 0 {
                break;
            }
        }
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}

/// One round: takes over this node's share of the orphans, and any orphan
/// left for longer than `steal_after`; how many it took.
async fn once(cluster: &Cluster, steal_after: Duration) -> usize {
    let store = &cluster.inner.store;
    let lease = cluster.inner.lease;
    let mut orphans = match store.orphaned_games(ORPHANS_PER_ROUND, lease).await {
        Ok(o) if !o.is_empty() => o,
        Ok(_) => return 0,
        Err(e) => {
            tracing::debug!(error = %e, "cannot look for orphaned games");
            return 0;
        }
    };
    let nodes = match store.live_nodes(cluster.inner.lease).await {
        Ok(nodes) => nodes,
        Err(e) => {
            tracing::debug!(error = %e, "cannot list the live nodes");
            return 0;
        }
    };
    let takers: Vec<&str> = nodes
        .iter()
        .filter(|n| !n.draining)
        .map(|n| n.id.as_str())
        .collect();
    // Lobbies whose clients wait here for them first (the sort is stable:
    // most recently orphaned first otherwise, as the store answers).
    let wanted = cluster.wanted();
    orphans.sort_by_key(|o| !wanted.contains(&o.game_id));
    let mine = pick(&orphans, &takers, cluster.id(), steal_after, lease);
    if mine.is_empty() {
        return 0;
    }
    let began = std::time::Instant::now();
    let taken = cluster.take_many(&mine).await;
    if taken > 0 {
        tracing::info!(
            taken,
            orphans = orphans.len(),
            ms = began.elapsed().as_millis() as u64,
            "took over orphaned games"
        );
    }
    taken
}

/// The orphans node `me` takes in a round: those it is the taker of among
/// `takers`, and those left for `steal_after` or longer, except that one
/// whose holder still beats waits for `grace`; at most [`TAKEN_PER_ROUND`].
fn pick(
    orphans: &[Orphan],
    takers: &[&str],
    me: &str,
    steal_after: Duration,
    grace: Duration,
) -> Vec<Uuid> {
    orphans
        .iter()
        .filter(|o| {
            if o.holder_live {
                o.orphaned_for >= grace
            } else {
                o.orphaned_for >= steal_after || taker(takers, o.game_id) == Some(me)
            }
        })
        .map(|o| o.game_id)
        .take(TAKEN_PER_ROUND)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRACE: Duration = Duration::from_secs(3);

    fn orphan(n: u128, ms: u64) -> Orphan {
        Orphan {
            game_id: Uuid::from_u128(n),
            orphaned_for: Duration::from_millis(ms),
            holder_live: false,
        }
    }

    #[test]
    fn survivors_take_disjoint_halves_then_whatever_was_left() {
        let fresh: Vec<Orphan> = (0..200).map(|n| orphan(n, 50)).collect();
        let takers = ["b", "c"];
        let steal = Duration::from_secs(1);
        let b = pick(&fresh, &takers, "b", steal, GRACE);
        let c = pick(&fresh, &takers, "c", steal, GRACE);
        assert!(b.iter().all(|id| !c.contains(id)), "both took one orphan");
        assert_eq!(b.len() + c.len(), 200, "an orphan had no taker");
        assert!(
            b.len() > 60 && c.len() > 60,
            "split {} / {}",
            b.len(),
            c.len()
        );
        // A node that is not a taker (its beat is late) takes only what
        // was left a beat long; so does a taker, beyond its own share.
        assert!(pick(&fresh, &takers, "d", steal, GRACE).is_empty());
        let stale: Vec<Orphan> = (0..10).map(|n| orphan(n, 1_500)).collect();
        assert_eq!(pick(&stale, &takers, "d", steal, GRACE).len(), 10);
        assert_eq!(pick(&stale, &takers, "b", steal, GRACE).len(), 10);
    }

    #[test]
    fn a_live_nodes_late_renewal_is_left_to_it_for_a_lease_time() {
        let late = |ms| Orphan {
            holder_live: true,
            ..orphan(7, ms)
        };
        let steal = Duration::from_secs(1);
        for ms in [50, 1_500, 2_900] {
            assert!(pick(&[late(ms)], &["a"], "a", steal, GRACE).is_empty());
        }
        assert_eq!(pick(&[late(3_000)], &["a"], "a", steal, GRACE).len(), 1);
    }

    #[test]
    fn a_round_takes_at_most_its_limit() {
        let many: Vec<Orphan> = (0..3_000).map(|n| orphan(n, 5_000)).collect();
        assert_eq!(
            pick(&many, &["a"], "a", Duration::ZERO, GRACE).len(),
            TAKEN_PER_ROUND
        );
    }
}
