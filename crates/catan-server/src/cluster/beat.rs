//! The node's beat, three times per lease time: report the node's load,
//! renew every lease it holds in one statement (publishing changed lobby
//! listings with it), stop the lobbies whose leases were lost, park the
//! leases of lobbies that ended here, and stop serving everything before
//! the leases can expire when renewals keep failing. The beat has a pool
//! of its own, so that client requests filling the main pool (a reconnect
//! storm, a slow database) cannot hold renewals up until every lease of
//! the node runs out. The reaper (a second task, `reaper`) takes over
//! orphaned games.

use super::Cluster;
use crate::metrics::metrics;
use catan_protocol::CloseReason;
use catan_store::{Lease, Listing, NodeLoad};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;
use uuid::Uuid;

/// Runs the beat and the orphan reaper until the process ends.
pub(super) async fn run(cluster: Cluster, mut lost: mpsc::UnboundedReceiver<Uuid>) {
    tokio::spawn(super::reaper::run(cluster.clone()));
    let every = cluster.inner.lease / 3;
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut beat = Beat {
        cluster,
        valid_until: None,
        published: HashMap::new(),
        absent: HashSet::new(),
    };
    loop {
        tokio::select! {
            _ = tick.tick() => beat.once().await,
            Some(id) = lost.recv() => beat.lose(id, "a write was fenced out"),
        }
    }
}

struct Beat {
    cluster: Cluster,
    /// Until when the leases renewed last are surely still ours.
    valid_until: Option<Instant>,
    /// The listing text last published per lobby (only changes are sent).
    published: HashMap<Uuid, String>,
    /// Leased lobbies missing from the registry at the last beat.
    absent: HashSet<Uuid>,
}

impl Beat {
    async fn once(&mut self) {
        let c = &self.cluster.inner;
        let load = NodeLoad {
            lobbies: i32::try_from(c.registry.len()).unwrap_or(i32::MAX),
            sockets: i32::try_from(c.sockets.load(Ordering::Relaxed)).unwrap_or(i32::MAX),
            load: load_average(),
            draining: self.cluster.draining(),
        };
        match c.beat_store.node_beat(&c.id, c.instance, &load).await {
            Ok(true) => {}
            Ok(false) => tracing::error!(
                node_id = %c.id,
                "another process registered under this node id; give each node its own --node-id"
            ),
            Err(e) => tracing::warn!(error = %e, "node beat failed"),
        }
        self.release_ended().await;
        self.renew().await;
    }

    /// Renews every held lease; stops lobbies whose lease is gone, and all
    /// of them when the leases may expire before a renewal gets through.
    async fn renew(&mut self) {
        let cluster = self.cluster.clone();
        let c = &cluster.inner;
        let held = c.leases.all();
        let listings = self.changed_listings(&held);
        let sent = Instant::now();
        // Stop before the database's clock can expire the leases, a tenth
        // of the lease time early: the leases run from the database's clock
        // when the renewal ran, later than `sent`, and the two clocks'
        // rates differ by far less. A renewal still unanswered by then is
        // given up (a slow one that is answered in time counts: the leases
        // it renews run from when it was sent). One sent late (this beat
        // itself was held up, by a busy runtime) still gets a third of the
        // lease: it renews whatever nobody has taken over meanwhile, which
        // giving up unasked would have handed to the others, every lobby
        // and its players at once; an old owner's writes stay fenced.
        let margin = c.lease / 10;
        let renewal = c.beat_store.renew_leases(&c.id, &held, &listings, c.lease);
        let answer = match self.valid_until.and_then(|u| u.checked_sub(margin)) {
            Some(stop) => tokio::time::timeout_at(stop.max(sent + c.lease / 3), renewal)
                .await
                .map_err(|_| "no answer before the leases had to be given up".to_string())
                .and_then(|r| r.map_err(|e| e.to_string())),
            None => renewal.await.map_err(|e| e.to_string()),
        };
        match answer {
            Ok(renewed) => {
                metrics()
                    .cluster_renew
                    .observe(sent.elapsed().as_secs_f64());
                self.valid_until = Some(sent + c.lease);
                for l in &listings {
                    self.published.insert(l.lobby_id, l.info.clone());
                }
                for l in held.iter().filter(|l| !renewed.contains(&l.lobby_id)) {
                    // Taken over (this node was paused or cut off for longer
                    // than the lease) or released: not ours to serve.
                    if c.leases.epoch(l.lobby_id) == Some(l.epoch) {
                        c.leases.remove(l.lobby_id);
                        self.lose(l.lobby_id, "its lease was taken over");
                    }
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, leases = held.len(), "cannot renew leases");
                if self
                    .valid_until
                    .is_some_and(|until| Instant::now() + margin >= until)
                {
                    tracing::error!(
                        leases = held.len(),
                        "leases not renewed in time; this node stops serving its lobbies"
                    );
                    for l in held {
                        c.leases.remove(l.lobby_id);
                        self.lose(l.lobby_id, "its lease could not be renewed");
                    }
                    self.valid_until = None;
                }
            }
        }
    }

    /// The listings of held lobbies that changed since last published.
    fn changed_listings(&self, held: &[Lease]) -> Vec<Listing> {
        let registry = &self.cluster.inner.registry;
        held.iter()
            .filter_map(|l| {
                let info = registry.info(l.lobby_id)?;
                let text = serde_json::to_string(&info).ok()?;
                (self.published.get(&l.lobby_id) != Some(&text)).then_some(Listing {
                    lobby_id: l.lobby_id,
                    public: info.public,
                    info: text,
                })
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
    async fn release_ended(&mut self) {
        let c = &self.cluster.inner;
        let live: HashSet<Uuid> = c.registry.ids().into_iter().collect();
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
        if let Err(e) = c.beat_store.park_leases(&c.id, &ended).await {
            tracing::warn!(error = %e, "cannot release leases; they expire by themselves");
        }
    }

    /// Stops a lobby whose lease this node no longer holds.
    fn lose(&mut self, id: Uuid, why: &str) {
        tracing::warn!(lobby_id = %id, why, "lease lost; stopping the lobby here");
        metrics().cluster_leases_lost.inc();
        self.published.remove(&id);
        let registry = self.cluster.inner.registry.clone();
        tokio::spawn(async move {
            registry
                .stop(id, CloseReason::MOVED, Duration::from_secs(5))
                .await;
        });
    }
}

/// The one-minute load average (Linux), 0 where it cannot be read.
fn load_average() -> f32 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0)
}
