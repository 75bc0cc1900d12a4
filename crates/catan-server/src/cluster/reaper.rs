//! The reaper: takes over games nobody serves (their node died or handed
//! them away), so that games with nobody asking for them, bots alone, go on
//! too, and so that a dead node's lobbies come back in a few batches rather
//! than one client request at a time. It looks when the live nodes change,
//! while orphans are left, every ten beats besides, and at once when a
//! lookup found a lobby's node gone and asked for a look at the moment that
//! node's leases run out (`Cluster::reap_at`).
//!
//! Each orphan has one taker among the live nodes (`takers::taker`,
//! rendezvous hashing over the same node list on every node): each node
//! takes its own share first, so two survivors take a dead node's lobbies
//! half each, at once, without claiming the same rows. An orphan its taker
//! has not taken within a lease time is anybody's. An expired lease whose node
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

/// Beats between two looks for orphans while nothing suggests there are
/// any: the look reads every game in progress with its lease (about 50 ms
/// of the database at 9,000 games), and every node made it every beat.
const QUIET_BEATS: u32 = 10;

/// Beats in a row the reaper looks after a change of the live nodes or a
/// lookup's request.
const EAGER_BEATS: u32 = 3;

/// What the node list looked like (each live node's id, start and whether
/// it drains): orphans come from a node leaving it, restarting or starting
/// to drain, so a change of it is a reason to look.
type NodesSeen = Vec<(String, String, bool)>;

/// Runs the reaper until the process ends. It looks for orphans when a
/// lookup asked (a dead node's lobby), when the live nodes changed, while
/// the last look found orphans, and otherwise every [`QUIET_BEATS`] beats
/// (for leases given up or released without any of that: their games of
/// bots alone have nobody to ask for them).
pub(super) async fn run(cluster: Cluster) {
    let every = cluster.inner.lease / 3;
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut seen: Option<NodesSeen> = None;
    let mut quiet_for = 0u32;
    let mut orphans_left = true;
    let mut eager = 0u32;
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
        let asked = {
            let mut at = cluster
                .inner
                .reap_at
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            let due = at.is_some_and(|t| t <= Instant::now());
            if due {
                *at = None;
            }
            due
        };
        if cluster.draining() {
            continue;
        }
        let nodes = match cluster
            .inner
            .takeover_store
            .live_nodes(cluster.inner.lease)
            .await
        {
            Ok(nodes) => nodes,
            Err(e) => {
                tracing::debug!(error = %e, "cannot list the live nodes");
                continue;
            }
        };
        let now_seen: NodesSeen = nodes
            .iter()
            .map(|n| (n.id.clone(), n.started.clone(), n.draining))
            .collect();
        quiet_for += 1;
        if asked || seen.as_ref() != Some(&now_seen) {
            // A node that left the list may have left it a moment before
            // its leases ran out: look for the next few beats.
            eager = EAGER_BEATS;
        }
        if !(eager > 0 || orphans_left || quiet_for >= QUIET_BEATS) {
            continue;
        }
        eager = eager.saturating_sub(1);
        seen = Some(now_seen);
        quiet_for = 0;
        for _ in 0..ROUNDS_IN_A_ROW {
            // An orphan its taker left for a lease time is anybody's. After
            // a beat, as before, each survivor took part of the other's
            // share in its second round, and one that took more than half
            // of a dead node's lobbies ran out of files at 3,000 games a
            // node (docs/PERFORMANCE.md).
            let (found, taken) = once(&cluster, cluster.inner.lease, &nodes).await;
            orphans_left = found > 0;
            if taken == 0 {
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
/// left for longer than `steal_after`, judged by the live `nodes`; how
/// many orphans it found and how many it took (a failed look counts as
/// orphans found: look again).
async fn once(
    cluster: &Cluster,
    steal_after: Duration,
    nodes: &[catan_store::NodeRecord],
) -> (usize, usize) {
    let store = &cluster.inner.takeover_store;
    let lease = cluster.inner.lease;
    let mut orphans = match store.orphaned_games(ORPHANS_PER_ROUND, lease).await {
        Ok(o) if !o.is_empty() => o,
        Ok(_) => return (0, 0),
        Err(e) => {
            tracing::debug!(error = %e, "cannot look for orphaned games");
            return (1, 0);
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
    let mut mine = pick(&orphans, &takers, cluster.id(), steal_after, lease);
    let room = cluster.room();
    if mine.len() > room {
        // The others take the rest (`room`).
        tracing::warn!(
            room,
            orphans = mine.len(),
            "this node has no files for more lobbies; leaving the rest to the others"
        );
        mine.truncate(room);
    }
    if mine.is_empty() {
        return (orphans.len(), 0);
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
    (orphans.len(), taken)
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
