//! The node's beat, three times per lease time: report the node's load,
//! renew the node's lease (one row, whatever the number of lobbies it
//! holds) and publish the lobby listings that changed, park the leases of
//! lobbies that ended here, and stop serving everything before the lease
//! can expire when renewals keep failing (then take a new generation, so
//! that every lobby of the old one is the others' at once). After a
//! renewal answered so late that the lease may have run out meanwhile, it
//! checks which lobbies another node took over and stops those; after
//! the process was paused (SIGSTOP, a stalled machine), it renews before
//! it gives anything up, so that what nobody took over meanwhile stays
//! served, its clients connected. The beat has a pool
//! of its own, so that client requests filling the main pool (a reconnect
//! storm, a slow database) cannot hold renewals up until every lease of
//! the node runs out, and a thread and runtime of its own (`PoolThread`),
//! so that a swamped lobby runtime cannot either. The reaper (a task on the
//! lobbies' runtime, `reaper`) takes over orphaned games.

use super::Cluster;
use crate::metrics::metrics;
use catan_protocol::{CloseReason, LobbyInfo};
use catan_store::{Lease, Listing, NodeLoad};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::Instant;
use uuid::Uuid;

/// Renewals sent and not yet answered, at most: a renewal slower than a
/// beat (a busy database) does not hold the next one back, and the beat's
/// pool (`Config::beat_store_options`) has room for them, the node's load
/// report and a parking.
const RENEWALS_IN_FLIGHT: usize = 2;

/// The node counts as busy, and refuses new lobbies with `server_busy`,
/// from when a renewal fails or has been waiting for this share of the
/// lease time, a beat (the database answers more slowly than the beat:
/// more work would bring the node closer to losing every lease at once,
/// and its players with them).
const BUSY_AFTER: u32 = 3;

/// It is not busy any more once a renewal is answered within this share
/// of the lease time (half a beat, well below [`BUSY_AFTER`]'s, so that
/// renewals about as slow as the threshold do not switch it on and off
/// every beat).
const CALM_WITHIN: u32 = 6;

/// A tick this share of the lease time late or more means the beat was
/// held up (the process paused, its thread starved), not merely busy.
const HELD_UP: u32 = 10;

/// Runs the beat until the process ends, on the [`PoolThread`].
/// `valid_until`: until when the node's registration surely holds its lease.
pub(super) async fn run(
    cluster: Cluster,
    mut lost: mpsc::UnboundedReceiver<Uuid>,
    valid_until: Instant,
) {
    let every = cluster.inner.lease / 3;
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut beat = Beat {
        cluster,
        valid_until: Some(valid_until),
        published: HashMap::new(),
        absent: HashSet::new(),
        renewals: JoinSet::new(),
        pending: Vec::new(),
        gave_up: None,
        resumed: None,
        reporting: None,
    };
    loop {
        let give_up = beat.give_up_at();
        // In this order, not at random: after a pause of the process (or a
        // starved thread) the tick and the give-up are due together, and
        // the tick must come first, so that a renewal is sent (and answers
        // already in are taken) before the node would give everything up
        // unasked; then a node nobody took anything from keeps it all.
        tokio::select! {
            biased;
            Some(done) = beat.renewals.join_next(), if !beat.renewals.is_empty() => {
                match done {
                    Ok(answer) => beat.answered(answer),
                    Err(e) => tracing::error!(error = %e, "a lease renewal task failed"),
                }
            }
            due = tick.tick() => beat.once(due),
            _ = tokio::time::sleep_until(give_up.unwrap_or_else(Instant::now)), if give_up.is_some() => {
                beat.give_up("no answer before the leases had to be given up");
            }
            Some(id) = lost.recv() => beat.lose(id, "a write was fenced out"),
        }
    }
}

struct Beat {
    cluster: Cluster,
    /// Until when the node's lease renewed last is surely still ours.
    valid_until: Option<Instant>,
    /// Per lobby, its listing as last published, but for the game's
    /// version (`listing_key`): only changes are sent.
    published: HashMap<Uuid, String>,
    /// Leased lobbies missing from the registry at the last beat.
    absent: HashSet<Uuid>,
    /// The renewals in flight.
    renewals: JoinSet<Renewal>,
    /// When each renewal in flight was sent.
    pending: Vec<Instant>,
    /// When the node last gave all its leases up: answers to renewals sent
    /// before then renew nothing it still serves.
    gave_up: Option<Instant>,
    /// When the beat last ran again after being held up (a tick at least
    /// [`HELD_UP`] late: the process was paused, or its thread starved).
    /// Renewals sent before then count as sent then (`give_up_at`).
    resumed: Option<Instant>,
    /// The node's load report in flight, if any.
    reporting: Option<tokio::task::JoinHandle<()>>,
}

/// One renewal and its answer.
struct Renewal {
    /// When it was sent: the lease it renews runs from later.
    sent: Instant,
    /// The generation it renews (`None`: it asks for a new one).
    generation: Option<i64>,
    /// The listings published after it (by lobby: epoch and listing).
    listings: Vec<(u64, Listing)>,
    /// Their keys (`listing_key`), in the same order.
    keys: Vec<String>,
    /// Whether they were published.
    published: bool,
    /// The generation renewed (`None`: refused, the row is another
    /// process's or at a newer generation), or why the renewal failed.
    answer: Result<Option<i64>, String>,
}

impl Beat {
    /// One beat: the node's load report, the parking of ended lobbies and
    /// a renewal of every held lease, each sent without waiting for the
    /// others' answers.
    /// `due`: when the beat was due.
    fn once(&mut self, due: Instant) {
        let lease = self.cluster.inner.lease;
        let late = due.elapsed();
        if late >= lease / HELD_UP {
            // Whatever was in flight could not be taken while the beat
            // stood still: it gets its time from now (`give_up_at`).
            tracing::warn!(
                late_ms = u64::try_from(late.as_millis()).unwrap_or(u64::MAX),
                "the beat was held up (the process was paused or starved); \
                 renewing before giving anything up"
            );
            self.resumed = Some(Instant::now());
        }
        self.report_load();
        self.release_ended();
        if self
            .pending
            .iter()
            .any(|t| t.elapsed() >= lease / BUSY_AFTER)
        {
            self.set_busy(true, "a lease renewal is slow to be answered");
        }
        self.renew();
    }

    /// Turns the node's refusal of new lobbies on or off (logged when it
    /// changes).
    fn set_busy(&self, busy: bool, why: &str) {
        let c = &self.cluster.inner;
        if c.busy.swap(busy, Ordering::Relaxed) != busy {
            metrics().cluster_busy.set(i64::from(busy));
            if busy {
                tracing::warn!(
                    why,
                    "this node refuses new lobbies until renewals are quick again"
                );
            } else {
                tracing::info!(why, "this node takes new lobbies again");
            }
        }
    }

    /// Reports the node's load, unless the last report is still on its way.
    fn report_load(&mut self) {
        if self.reporting.as_ref().is_some_and(|t| !t.is_finished()) {
            return;
        }
        let cluster = self.cluster.clone();
        let c = &cluster.inner;
        let load = NodeLoad {
            lobbies: i32::try_from(c.registry.len()).unwrap_or(i32::MAX),
            sockets: i32::try_from(c.sockets.load(Ordering::Relaxed)).unwrap_or(i32::MAX),
            load: load_average(),
            draining: cluster.draining(),
        };
        self.reporting = Some(tokio::spawn(async move {
            let c = &cluster.inner;
            match c.beat_store.node_beat(&c.id, c.instance, &load).await {
                Ok(true) => {}
                Ok(false) => tracing::error!(
                    node_id = %c.id,
                    "another process registered under this node id; give each node its own --node-id"
                ),
                Err(e) => tracing::warn!(error = %e, "node beat failed"),
            }
        }));
    }

    /// Sends a renewal of the node's lease, then the listings that changed,
    /// unless [`RENEWALS_IN_FLIGHT`] are unanswered already (another would
    /// only queue behind them). A node that gave its lobbies up asks for a
    /// new generation.
    fn renew(&mut self) {
        if self.renewals.len() >= RENEWALS_IN_FLIGHT {
            tracing::warn!(
                in_flight = self.renewals.len(),
                "lease renewals are slower than the beat; this beat sends none"
            );
            return;
        }
        let cluster = self.cluster.clone();
        let (listings, keys): (Vec<_>, Vec<_>) = self
            .changed_listings()
            .into_iter()
            .map(|(epoch, listing, key)| ((epoch, listing), key))
            .unzip();
        let generation = match cluster.inner.generation.load(Ordering::Acquire) {
            0 => None,
            g => Some(g),
        };
        let sent = Instant::now();
        self.pending.push(sent);
        self.renewals.spawn(async move {
            let c = &cluster.inner;
            let answer = c
                .beat_store
                .renew_node_lease(&c.id, c.instance, generation, c.lease)
                .await
                .map_err(|e| e.to_string());
            let mut published = false;
            if matches!(answer, Ok(Some(_))) && !listings.is_empty() {
                match c.beat_store.publish_listings(&c.id, &listings).await {
                    Ok(()) => published = true,
                    Err(e) => tracing::warn!(error = %e, "cannot publish lobby listings"),
                }
            }
            Renewal {
                sent,
                generation,
                listings,
                keys,
                published,
                answer,
            }
        });
    }

    /// When the node must stop serving its lobbies unless a renewal is
    /// answered first: a tenth of the lease time before the lease renewed
    /// last can expire (it runs from the database's clock when the renewal
    /// ran, later than it was sent, and the two clocks' rates differ by far
    /// less). The oldest renewal in flight, if it was sent late (this beat
    /// itself was held up, by a busy runtime), still gets a third of the
    /// lease: it keeps whatever nobody has taken over meanwhile (checked
    /// when it is answered, `check_held`), which giving up unasked would
    /// have handed to the others, every lobby and its players at once; an
    /// old owner's writes stay fenced. A renewal sent before the beat was
    /// held up ([`Beat::resumed`]: a pause of the process) counts as sent
    /// when it ran again, for the same reason. `None`: all were given up.
    fn give_up_at(&self) -> Option<Instant> {
        let lease = self.cluster.inner.lease;
        let stop = self.valid_until?.checked_sub(lease / 10)?;
        let oldest = self
            .pending
            .iter()
            .min()
            .map(|&t| self.resumed.map_or(t, |r| t.max(r)) + lease / 3);
        Some(oldest.map_or(stop, |t| stop.max(t)))
    }

    /// Takes a renewal's answer: the node's lease is ours until a lease
    /// time after it was sent. One answered so late that the lease may have
    /// run out before it (the node kept serving for a renewal that was sent
    /// late, `give_up_at`) has the lobbies checked: another node may have
    /// taken some over meanwhile.
    fn answered(&mut self, r: Renewal) {
        self.pending.retain(|&t| t != r.sent);
        if self.gave_up.is_some_and(|g| r.sent <= g) {
            // Sent before the node gave everything up: none of it is served here.
            return;
        }
        let cluster = self.cluster.clone();
        let c = &cluster.inner;
        match r.answer {
            Ok(Some(generation)) => {
                let took = r.sent.elapsed();
                metrics().cluster_renew.observe(took.as_secs_f64());
                if took >= c.lease / BUSY_AFTER {
                    self.set_busy(true, "a lease renewal was slow");
                } else if took < c.lease / CALM_WITHIN && self.pending.is_empty() {
                    self.set_busy(false, "lease renewals are quick again");
                }
                let late = self
                    .valid_until
                    .is_some_and(|u| Instant::now() + c.lease / 10 >= u);
                if r.generation.is_none() {
                    c.generation.fetch_max(generation, Ordering::AcqRel);
                    tracing::info!(generation, "this node holds a new lease generation");
                }
                let until = r.sent + c.lease;
                self.valid_until = Some(self.valid_until.map_or(until, |u| u.max(until)));
                if r.published {
                    for ((_, l), key) in r.listings.iter().zip(r.keys) {
                        self.published.insert(l.lobby_id, key);
                    }
                }
                if late {
                    self.check_held();
                }
            }
            Ok(None) => {
                // The generation renewed has ended for good (generations
                // only grow): nothing of it is this node's any more.
                self.set_busy(true, "a lease renewal was refused");
                self.give_up(
                    "the node's lease generation ended: another node found its database \
                     session gone, or another process took its row",
                );
            }
            Err(e) => {
                // The next beat tries again; the give-up deadline stands.
                tracing::warn!(error = %e, "cannot renew the node's lease");
                self.set_busy(true, "a lease renewal failed");
            }
        }
    }

    /// Stops serving every lobby: the leases may expire before a renewal
    /// gets through.
    fn give_up(&mut self, why: &str) {
        let held = self.cluster.inner.leases.all();
        if held.is_empty() {
            tracing::warn!(why, "the node's lease was not renewed in time");
        } else {
            tracing::error!(
                why,
                leases = held.len(),
                "leases not renewed in time; this node stops serving its lobbies"
            );
        }
        for l in held {
            self.cluster.inner.leases.remove(l.lobby_id);
            self.lose(l.lobby_id, "its lease could not be renewed");
        }
        self.valid_until = None;
        self.gave_up = Some(Instant::now());
        self.pending.clear();
        // The next renewal asks for a new generation: the lobbies of the old
        // one are the others' from then on, even if a late renewal of it
        // gets through (until then, its lease runs out in a moment).
        self.cluster.inner.generation.store(0, Ordering::Release);
    }

    /// Stops the lobbies another node took over while this node's lease
    /// may have run out (a renewal answered later than the lease it
    /// renewed could last): those no longer leased here at their epochs.
    fn check_held(&self) {
        let cluster = self.cluster.clone();
        tokio::spawn(async move {
            let c = &cluster.inner;
            let held = c.leases.all();
            let Ok(holder) = cluster.holder() else {
                return;
            };
            match c.beat_store.held_leases(holder, &held).await {
                Ok(still) => {
                    for l in held.iter().filter(|l| !still.contains(&l.lobby_id)) {
                        // Taken over meanwhile, or released: not ours to serve.
                        if c.leases.epoch(l.lobby_id) == Some(l.epoch) {
                            tracing::warn!(lobby_id = %l.lobby_id, "taken over while this node's lease was late");
                            c.leases.lost(l.lobby_id);
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "cannot check the leases held"),
            }
        });
    }

    /// The listings of held lobbies that changed since last published,
    /// each with the epoch it is held at and its key (`listing_key`).
    fn changed_listings(&self) -> Vec<(u64, Listing, String)> {
        let registry = &self.cluster.inner.registry;
        let held = self.cluster.inner.leases.all();
        held.iter()
            .filter_map(|l| {
                let info = registry.info(l.lobby_id)?;
                let key = listing_key(&info)?;
                if self.published.get(&l.lobby_id) == Some(&key) {
                    return None;
                }
                let listing = Listing {
                    lobby_id: l.lobby_id,
                    public: info.public,
                    info: serde_json::to_string(&info).ok()?,
                };
                Some((l.epoch, listing, key))
            })
            .collect()
    }

    /// Parks the leases of lobbies that ended here (unloaded while idle,
    /// or failed), once they were missing from the registry at two beats in
    /// a row: a lobby being taken over is leased a moment before it is
    /// registered. Parked, not released: a released lease is an orphan that
    /// some node's reaper resumes at once, so an idle game would be loaded
    /// again somewhere, unloaded again after the idle time, and so on for
    /// ever; a parked one waits for a client to ask for it, as on a single
    /// node.
    fn release_ended(&mut self) {
        let c = &self.cluster.inner;
        // Lobbies being loaded for a takeover are leased before they are
        // registered, and leave the claiming set only once registered: read
        // in this order, none of them looks missing.
        let mut live: HashSet<Uuid> = self.cluster.claiming().iter().copied().collect();
        live.extend(c.registry.ids());
        let missing: HashSet<Uuid> = c
            .leases
            .all()
            .into_iter()
            .map(|l| l.lobby_id)
            .filter(|id| !live.contains(id))
            .collect();
        let ended: Vec<Lease> = missing
            .intersection(&self.absent)
            .filter_map(|&id| c.leases.remove(id))
            .collect();
        self.absent = missing;
        if ended.is_empty() {
            return;
        }
        for l in &ended {
            self.published.remove(&l.lobby_id);
        }
        let cluster = self.cluster.clone();
        tokio::spawn(async move {
            let c = &cluster.inner;
            if let Err(e) = c.beat_store.park_leases(&c.id, &ended).await {
                tracing::warn!(error = %e, "cannot release leases; they expire by themselves");
            }
        });
    }

    /// Stops a lobby whose lease this node no longer holds.
    fn lose(&mut self, id: Uuid, why: &str) {
        tracing::warn!(lobby_id = %id, why, "lease lost; stopping the lobby here");
        metrics().cluster_leases_lost.inc();
        self.published.remove(&id);
        // On the lobbies' runtime: a give-up stops thousands at once.
        let registry = self.cluster.inner.registry.clone();
        self.cluster.inner.main_rt.spawn(async move {
            registry
                .stop(id, CloseReason::MOVED, Duration::from_secs(5))
                .await;
        });
    }
}

/// What decides whether a lobby's listing is published again: the lobby
/// as listed, but for the game's version, which every action moves. A
/// listing serves other nodes' lobby lists (seats, status, options), where
/// a version a few actions old says nothing wrong; republishing it at
/// every action was a row of JSON rewritten per playing lobby per beat,
/// 3,333 a second per node at 10,000 games (docs/PERFORMANCE.md).
fn listing_key(info: &LobbyInfo) -> Option<String> {
    let mut keyed = info.clone();
    keyed.version = 0;
    serde_json::to_string(&keyed).ok()
}

/// The one-minute load average (Linux), 0 where it cannot be read.
fn load_average() -> f32 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn info(version: u64, seats_taken: usize) -> LobbyInfo {
        serde_json::from_value(json!({
            "id": "2f6b3f8d-c3ae-4061-b804-8c9c037c8d19",
            "name": "deal",
            "public": true,
            "status": "playing",
            "options": {
                "players": 3, "vp_target": 10, "board": "random",
                "friendly_robber": false, "open_hands": false,
                "classic_phases": false, "turn_limit": 500
            },
            "turn_timer": { "enabled": false, "seconds": 90 },
            "bot_delay_ms": 0,
            "bot_offer_wait_ms": 15000,
            "seats": [
                { "seat": 0, "name": "Ann", "kind": "human", "bot": null, "connected": true },
                { "seat": 1, "name": "Bot 2", "kind": "bot", "bot": "normal", "connected": true },
                { "seat": 2, "name": "Bot 3", "kind": "bot", "bot": "normal", "connected": true }
            ],
            "seats_taken": seats_taken,
            "spectators": 0,
            "version": version,
            "seed_commitment": null
        }))
        .unwrap()
    }

    #[test]
    fn a_listing_is_published_again_for_a_change_not_for_an_action() {
        assert_eq!(listing_key(&info(12, 3)), listing_key(&info(13, 3)));
        assert_ne!(listing_key(&info(12, 3)), listing_key(&info(12, 2)));
    }
}
