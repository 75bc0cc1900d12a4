//! Several server nodes over one PostgreSQL database (docs/CLUSTER.md).
//!
//! Each node registers itself, beats, and holds a lease of its own, renewed
//! in one row per beat; each lobby is served by exactly one node, the
//! holder of its lobby lease (live while the holder's own lease is), and
//! every journal append is fenced by the lobby lease's epoch (`catan_store`
//! `cluster`). Requests for a lobby another
//! node serves are forwarded to it (`route`); a WebSocket opened on the
//! wrong node is closed with 4010 and the owner's URL. A lobby whose node
//! died (its lease expired) is taken over from its log by the live nodes'
//! reapers, split between them (`reaper`, `takeover`), or by whichever
//! live node is asked for it when no reaper has. SIGTERM drains a node: its lobbies stop, their
//! sockets close with 4010, and their leases are released for the others.

mod batcher;
mod beat;
mod holder;
pub mod leases;
mod owners;
mod pool_thread;
mod reaper;
mod room;
pub mod route;
mod seen;
mod sessions;
mod takeover;
mod takers;

use crate::lobby::LobbyHandle;
use crate::registry::Registry;
use catan_protocol::CloseReason;
use catan_store::{Holder, NodeRecord, Store, StoreError};
use leases::Leases;
pub use pool_thread::PoolThread;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;
use uuid::Uuid;

/// Where a lobby is served, as far as this node can tell.
#[derive(Debug)]
pub enum Located {
    /// Here (live, or just taken over).
    Here(LobbyHandle),
    /// By another live node, at this base URL.
    There(String),
    /// Nowhere: no such lobby (or a waiting room that closed).
    Nowhere,
    /// Moving (this node is draining, or the owner has no URL on record):
    /// try again in a moment.
    Moving,
}

struct Inner {
    id: String,
    url: String,
    /// The cluster's shared key (sent with forwarded requests).
    key: String,
    instance: Uuid,
    /// The generation of this node's lease, under which it holds its
    /// lobbies; 0 from when it gave them all up until a renewal starts a
    /// new one (it may take no lobby meanwhile).
    generation: AtomicI64,
    store: Store,
    /// The takeovers' own pool (`Config::takeover_store_options`): a
    /// takeover's claim and log reads, and the reaper's looks for orphans,
    /// never queue for a connection behind the lookups and appends of a
    /// node busy with a dead node's clients (with them in one pool, a
    /// claim of fifty lobbies took 0.3-1 s at 3,000 games a node, against
    /// 20-200 ms on its own: docs/PERFORMANCE.md).
    takeover_store: Store,
    /// The takeovers' own runtime (`PoolThread`), where `takeover_store`'s
    /// connections are driven and a batch's claim and load run.
    takeover_rt: tokio::runtime::Handle,
    /// The beat's own pool (`Config::beat_store_options`): renewals never
    /// wait behind client traffic for a connection. Used on `beat_rt` only,
    /// where its connections were opened.
    beat_store: Store,
    /// The beat's own runtime (`PoolThread`).
    beat_rt: tokio::runtime::Handle,
    /// The runtime that serves the lobbies: work for them the beat starts
    /// (stopping a lobby) runs there.
    main_rt: tokio::runtime::Handle,
    registry: Registry,
    leases: Arc<Leases>,
    lease: Duration,
    draining: AtomicBool,
    /// Whether lease renewals are slow (`beat`): new lobbies are refused
    /// with `server_busy` while they are, so that a node near losing its
    /// leases takes no more work on.
    busy: AtomicBool,
    sockets: Arc<AtomicUsize>,
    /// One lookup at a time per lobby not served here: the clients of a
    /// lobby whose node died all ask at once, and the first one's takeover
    /// answers the others (who then find it here) instead of each claiming
    /// and loading the log again. A gate holds until when its lookups wait
    /// for a dead node's lease (they wait without holding it), and a lock
    /// of its own for taking the lobby over, which the reaper holds for
    /// the lobbies of its batch and a lookup only once its reads are done.
    gates: Mutex<HashMap<Uuid, Gate>>,
    /// Where other nodes' lobbies were found a moment ago (`seen`): the
    /// clients of a lobby ask together, and one query answers them all.
    seen: seen::Seen,
    /// When the reaper should look for orphans next, sooner than its beat:
    /// set by a lookup that found a lobby's node gone, for the moment the
    /// lease runs out, so that the dead node's lobbies are taken over in
    /// batches (split between the live nodes) rather than one by one.
    reap_at: Mutex<Option<Instant>>,
    /// Wakes the reaper when `reap_at` moved earlier.
    reap_wake: tokio::sync::Notify,
    /// How many times this node heard of another node's cut (its session
    /// gone: `sessions`): lookups waiting for a dead node's lease look
    /// again when it moves, and the node list is read again.
    cuts: tokio::sync::watch::Sender<u64>,
    /// Takeovers at once (the reaper's batches, the lookups' batches and
    /// the lookups' lone claims): each holds a connection of the
    /// takeovers' own pool while it claims and loads, one each, so a
    /// takeover waits here, never for the pool (and is never timed out
    /// waiting for a connection).
    takeovers: Arc<tokio::sync::Semaphore>,
    /// Lobbies lookups want taken over, for the batcher (`batcher`).
    wants: batcher::Wants,
    /// Lobbies whose owner lookups want read, for the reader (`owners`).
    asks: owners::Asks,
    /// The live nodes as last read, for lookups of orphans (`takers`).
    nodes: takers::NodeList,
    /// Lookups that may wait at once (see `locate_gated`).
    lookups: tokio::sync::Semaphore,
    /// Lobbies claimed here and not yet live in the registry (their logs
    /// are loading): the beat parks the leases of lobbies missing from the
    /// registry, and must leave these alone (`takeover::Claiming`).
    claiming: Mutex<HashSet<Uuid>>,
    /// The process's limit on open files, read at the start (`room`).
    files: Option<usize>,
}

/// Lookups of lobbies not live here that may wait at once (each holds its
/// client's connection, a file, while it waits): a quarter of the files a
/// node has at the default limit of many systems (4,096) and few enough
/// that a node holding 18,000 sockets under a 20,000-file limit survives
/// the lookups of a dead node's 12,000 clients.
const LOOKUPS_AT_ONCE: usize = 1_024;

/// See `Inner::takeovers`: one connection each of the takeovers' own pool
/// (`Config::takeover_store_options`).
pub(crate) const TAKEOVERS_AT_ONCE: usize = 6;

/// The pools a node works with besides the beat's: the main one (appends,
/// lookups, listings) and the takeovers' own.
pub struct Stores {
    /// The node's main pool.
    pub store: Store,
    /// The takeovers' pool ([`crate::Config::takeover_store_options`]), on
    /// a thread of its own.
    pub takeovers: PoolThread,
}

/// How long after its lease's expiry a takeover of a dead node's lobby is
/// tried: the expiry is the database's, read a moment ago.
const EXPIRY_SLACK: Duration = Duration::from_millis(50);

/// How much later than the reaper a lookup waiting for a dead node's lease
/// looks again: by then the live nodes' reapers have claimed the dead
/// node's lobbies in one statement each, and the lookup finds its lobby
/// here or there rather than claiming it alone.
const REAPER_HEAD_START: Duration = Duration::from_millis(200);

/// A lobby's gate (`Inner::gates`).
type Gate = Arc<GateLocks>;

/// The two locks of a lobby's gate.
#[derive(Default)]
struct GateLocks {
    /// One lookup at a time, holding until when its lookups wait for the
    /// lease of a node that is gone, and how many cuts this node had heard
    /// of when that was found (`Inner::cuts`: a cut since ends the wait).
    lookup: tokio::sync::Mutex<Option<(Instant, u64)>>,
    /// Taking the lobby over: held by a lookup only for the takeover
    /// itself, after its reads, and by the reaper for the lobbies of its
    /// batch. A lookup's reads take seconds on a node busy with a dead
    /// node's clients (docs/PERFORMANCE.md, "Where a recovery's seconds
    /// go"), and the reaper, which leaves a lobby alone while another
    /// takes it over, waited on the slowest of them for its last lobbies.
    take: Arc<tokio::sync::Mutex<()>>,
}

/// What one look at a lobby's lease came to.
enum Found {
    /// The answer.
    Done(Located),
    /// Its node is gone: look again at this time, once its lease ran out.
    WaitUntil(Instant),
}

/// This node's membership of the cluster. Cheap to clone.
#[derive(Clone)]
pub struct Cluster {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("id", &self.inner.id)
            .field("url", &self.inner.url)
            .finish()
    }
}

/// Why a node could not join the cluster.
#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    /// The store is not PostgreSQL.
    #[error("a cluster node needs DATABASE_URL to name a PostgreSQL database")]
    NeedsPostgres,
    /// `--node-url` is not an http(s) URL.
    #[error("--node-url {0:?} is not an http:// or https:// URL")]
    BadUrl(String),
    /// Registration failed (the id is in use, or the database failed).
    #[error("cannot register this node: {0}")]
    Register(#[from] StoreError),
}

/// The node id `--node-id` gives, or the host and port of the node's URL.
pub fn node_id(config: &crate::Config) -> Option<String> {
    let explicit = config.node_id.as_deref().map(str::trim);
    if let Some(id) = explicit.filter(|i| !i.is_empty()) {
        return Some(id.to_string());
    }
    let url = config.node_url.as_deref()?.trim();
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    Some(rest.trim_end_matches('/').to_string())
}

impl Cluster {
    /// The lease table the journal must be fenced by; make it before the
    /// journal, then join with it.
    pub fn leases() -> (Arc<Leases>, tokio::sync::mpsc::UnboundedReceiver<Uuid>) {
        let (leases, lost) = Leases::new();
        (Arc::new(leases), lost)
    }

    /// Registers this node (retrying while a previous process under the same
    /// id may still look alive, up to twice the lease time) and starts its
    /// beat. `stores` are the node's main pool and its takeovers' own;
    /// `sockets` counts the node's open WebSockets (for the node list);
    /// `beat` is the beat's own runtime, with a pool of its own on the same
    /// database. Call it on the runtime that serves the lobbies (the
    /// takeovers spawn the lobbies' actors there).
    pub async fn join(
        config: &crate::Config,
        stores: Stores,
        beat: PoolThread,
        registry: Registry,
        leases: Arc<Leases>,
        lost: tokio::sync::mpsc::UnboundedReceiver<Uuid>,
        sockets: Arc<AtomicUsize>,
    ) -> Result<Cluster, JoinError> {
        let Stores { store, takeovers } = stores;
        if store.backend() != catan_store::Backend::Postgres {
            return Err(JoinError::NeedsPostgres);
        }
        let url = config
            .node_url
            .as_deref()
            .map(|u| u.trim().trim_end_matches('/').to_string())
            .unwrap_or_default();
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(JoinError::BadUrl(url));
        }
        let id = node_id(config).unwrap_or_else(|| url.clone());
        let instance = Uuid::new_v4();
        let lease = config.lease();
        let until = tokio::time::Instant::now() + lease * 2;
        let (generation, registered) = loop {
            let sent = Instant::now();
            match store.register_node(&id, &url, instance, lease).await {
                Ok(generation) => break (generation, sent),
                // A process killed under this id beat until it died: its row
                // frees itself within the lease time.
                Err(StoreError::NodeIdInUse(_)) if tokio::time::Instant::now() < until => {
                    tokio::time::sleep(lease / 4).await;
                }
                Err(e) => return Err(e.into()),
            }
        };
        let key = store.cluster_key().await?;
        let (wants, wanted) = batcher::queue();
        let (asks, asked) = owners::queue();
        tracing::info!(node_id = %id, %url, "joined the cluster");
        let cluster = Cluster {
            inner: Arc::new(Inner {
                id,
                url,
                key,
                instance,
                generation: AtomicI64::new(generation),
                store,
                takeover_store: takeovers.store().clone(),
                takeover_rt: takeovers.handle().clone(),
                beat_store: beat.store().clone(),
                beat_rt: beat.handle().clone(),
                main_rt: tokio::runtime::Handle::current(),
                registry,
                leases,
                lease,
                draining: AtomicBool::new(false),
                busy: AtomicBool::new(false),
                sockets,
                gates: Mutex::new(HashMap::new()),
                seen: seen::Seen::new(lease / 3),
                reap_at: Mutex::new(None),
                reap_wake: tokio::sync::Notify::new(),
                cuts: tokio::sync::watch::Sender::new(0),
                takeovers: Arc::new(tokio::sync::Semaphore::new(TAKEOVERS_AT_ONCE)),
                wants,
                asks,
                nodes: takers::NodeList::default(),
                lookups: tokio::sync::Semaphore::new(LOOKUPS_AT_ONCE),
                claiming: Mutex::new(HashSet::new()),
                files: room::open_files_limit(),
            }),
        };
        // The registration holds the node's lease from when it was sent.
        // The reaper and the lookups' batcher run on the takeovers' thread
        // too: on the lobbies' runtime, each of their steps waited behind a
        // dead node's reconnecting clients (docs/PERFORMANCE.md).
        let takers = takeovers.handle();
        takers.spawn(reaper::run(cluster.clone()));
        takers.spawn(batcher::run(cluster.clone(), wanted));
        tokio::spawn(owners::run(cluster.clone(), asked));
        beat.handle()
            .spawn(beat::run(cluster.clone(), lost, registered + lease));
        if config.node_sessions {
            beat.handle().spawn(sessions::run(cluster.clone()));
        }
        Ok(cluster)
    }

    /// This node's id.
    pub fn id(&self) -> &str {
        &self.inner.id
    }

    /// The cluster's shared key: a request forwarded with it names its
    /// client's address (`http_limits::Addresses`).
    pub fn key(&self) -> &str {
        &self.inner.key
    }

    /// The URL clients reach this node at.
    pub fn url(&self) -> &str {
        &self.inner.url
    }

    /// Whether this node is handing its lobbies away.
    pub fn draining(&self) -> bool {
        self.inner.draining.load(Ordering::Relaxed)
    }

    /// Whether this node's lease renewals are slow enough that it refuses
    /// new lobbies (see `beat::BUSY_AFTER`).
    pub fn busy(&self) -> bool {
        self.inner.busy.load(Ordering::Relaxed)
    }

    /// The live nodes.
    pub async fn nodes(&self) -> Result<Vec<NodeRecord>, StoreError> {
        self.inner.store.live_nodes(self.inner.lease).await
    }

    /// Every live lobby's published listing.
    pub async fn listings(&self) -> Result<Vec<catan_store::Listing>, StoreError> {
        self.inner.store.live_listings().await
    }

    /// Takes the lease of a lobby just created here.
    pub async fn claim_new(&self, lobby: Uuid) -> Result<(), StoreError> {
        match self.claim(lobby).await? {
            true => Ok(()),
            // A fresh random id someone else holds: never in practice.
            false => Err(StoreError::Invalid(format!(
                "lobby {lobby} is leased already"
            ))),
        }
    }

    /// This node as the holder of its lobbies, at its lease's generation;
    /// [`StoreError::LeaseLapsed`] from when it gave its lobbies up until
    /// its next renewal.
    fn holder(&self) -> Result<Holder<'_>, StoreError> {
        match self.inner.generation.load(Ordering::Acquire) {
            0 => Err(StoreError::LeaseLapsed),
            generation => Ok(Holder {
                node: &self.inner.id,
                generation,
            }),
        }
    }

    /// Claims `lobby`'s lease for this node; whether it won.
    async fn claim(&self, lobby: Uuid) -> Result<bool, StoreError> {
        let won = self.inner.store.claim_lease(lobby, self.holder()?).await?;
        if let Some(epoch) = won {
            self.inner.leases.insert(lobby, epoch);
        }
        Ok(won.is_some())
    }

    /// Where `lobby` is served; takes it over from its log when nobody
    /// serves it (its node died or handed it away) and this node may. A
    /// lobby whose node stopped beating is waited for until its lease runs
    /// out (at most the lease time) and then taken over, so that the client
    /// is not sent to a dead node.
    pub async fn locate(&self, lobby: Uuid) -> Result<Located, StoreError> {
        self.locate_gated(lobby, None).await
    }

    /// Where `lobby` is served, after its owner could not be reached at
    /// `url`: while the lease is still that node's, it is taken for gone,
    /// waited for and taken over like one that stopped beating (its lease
    /// decides: a node that is alive after all keeps renewing it, and the
    /// answer names it again). A lobby another node took over meanwhile is
    /// simply located there.
    pub async fn locate_unreachable(&self, lobby: Uuid, url: &str) -> Result<Located, StoreError> {
        self.locate_gated(lobby, Some(url)).await
    }

    async fn locate_gated(
        &self,
        lobby: Uuid,
        unreachable: Option<&str>,
    ) -> Result<Located, StoreError> {
        if let Some(h) = self.inner.registry.get(lobby) {
            return Ok(Located::Here(h));
        }
        match unreachable {
            Some(_) => self.inner.seen.forget(lobby),
            None => {
                if let Some(url) = self.inner.seen.get(lobby) {
                    return Ok(Located::There(url));
                }
            }
        }
        // A lookup past this point may wait (for its lobby's gate, a dead
        // node's lease, a takeover) and holds its client's connection
        // meanwhile: when a node dies, all of its clients ask at once, and
        // unbounded waits would hold a file each, past the process's limit.
        // The lookups beyond the bound are told to try again in a moment.
        let Ok(_waiting) = self.inner.lookups.try_acquire() else {
            return Ok(Located::Moving);
        };
        let gate = self.gate(lobby);
        let found = self.take_turns(lobby, unreachable, &gate).await;
        self.ungate(lobby, &gate);
        found
    }

    /// Looks `lobby` up in its turn, waiting (without the gate) for a dead
    /// node's lease as long as the first lookup that saw it found.
    async fn take_turns(
        &self,
        lobby: Uuid,
        mut unreachable: Option<&str>,
        gate: &Gate,
    ) -> Result<Located, StoreError> {
        let mut waited = false;
        let mut cuts = self.inner.cuts.subscribe();
        loop {
            let mut turn = gate.lookup.lock().await;
            let wait = match *turn {
                // Another lookup found the node gone, and no cut was heard
                // of since: wait for the lease as it does.
                Some((until, cut))
                    if !waited && until > Instant::now() && cut == *cuts.borrow() =>
                {
                    until
                }
                _ => {
                    let cut = *cuts.borrow_and_update();
                    match self.find(lobby, unreachable, waited, gate).await? {
                        Found::Done(located) => {
                            match &located {
                                Located::There(url) => self.inner.seen.insert(lobby, url),
                                _ => self.inner.seen.forget(lobby),
                            }
                            return Ok(located);
                        }
                        Found::WaitUntil(until) => {
                            *turn = Some((until, cut));
                            until
                        }
                    }
                }
            };
            drop(turn);
            tokio::select! {
                () = tokio::time::sleep_until(wait) => {}
                // A node was cut: the lease waited for may be over already;
                // the reapers have been woken, so give them their head start.
                Ok(()) = cuts.changed() => tokio::time::sleep(REAPER_HEAD_START).await,
            }
            waited = true;
            unreachable = None;
        }
    }

    /// The lookup lock of `lobby`, made on first use.
    fn gate(&self, lobby: Uuid) -> Gate {
        let mut gates = self.inner.gates.lock().unwrap_or_else(|p| p.into_inner());
        gates.entry(lobby).or_default().clone()
    }

    /// Forgets `lobby`'s lookup lock once nobody else holds or waits for it
    /// (counted under the map's lock, where new holders clone it).
    fn ungate(&self, lobby: Uuid, gate: &Gate) {
        let mut gates = self.inner.gates.lock().unwrap_or_else(|p| p.into_inner());
        if gates.get(&lobby).is_some_and(|g| Arc::ptr_eq(g, gate)) && Arc::strong_count(gate) <= 2 {
            gates.remove(&lobby);
        }
    }

    /// The lobbies some lookup here is waiting for (the reaper takes those
    /// first).
    fn wanted(&self) -> HashSet<Uuid> {
        let gates = self.inner.gates.lock().unwrap_or_else(|p| p.into_inner());
        gates.keys().copied().collect()
    }

    /// Another node was cut (its session is gone, `sessions`): its lobbies
    /// are orphans now. The lookups waiting for its lease look again, the
    /// node list is read again, and the reaper looks at once.
    fn heard_of_cut(&self) {
        self.inner.cuts.send_modify(|n| *n += 1);
        self.reap_at(Instant::now());
    }

    /// Asks the reaper to look for orphans at `at` (or sooner).
    fn reap_at(&self, at: Instant) {
        let mut next = self.inner.reap_at.lock().unwrap_or_else(|p| p.into_inner());
        if next.is_none_or(|t| at < t) {
            *next = Some(at);
            self.inner.reap_wake.notify_one();
        }
    }

    /// One look at where `lobby` is; `waited`: this lookup already waited
    /// for the lease of a node that was gone.
    async fn find(
        &self,
        lobby: Uuid,
        unreachable: Option<&str>,
        waited: bool,
        gate: &Gate,
    ) -> Result<Found, StoreError> {
        // Another lookup, or the reaper, may have taken it over meanwhile.
        if let Some(h) = self.inner.registry.get(lobby) {
            return Ok(Found::Done(Located::Here(h)));
        }
        // Or the lookup before this one in its turn found it elsewhere.
        if unreachable.is_none()
            && !waited
            && let Some(url) = self.inner.seen.get(lobby)
        {
            return Ok(Found::Done(Located::There(url)));
        }
        let lease = self.inner.lease;
        let owner = self.owner(lobby).await?;
        let holder = owner.as_ref().and_then(|o| o.node_id.clone());
        match owner {
            // Its holder beats but renews late (a busy database): still its
            // lobby, unless that node just could not be reached.
            Some(owner)
                if holder::late(&owner, self.id(), lease)
                    && !(unreachable.is_some() && owner.url.as_deref() == unreachable) =>
            {
                return Ok(Found::Done(match owner.url {
                    Some(url) => Located::There(url),
                    None => Located::Moving,
                }));
            }
            Some(owner) if owner.live && owner.node_id.as_deref() != Some(self.id()) => {
                let cut_off = unreachable.is_some() && owner.url.as_deref() == unreachable;
                if !(cut_off || holder::gone(&owner, lease)) {
                    return Ok(Found::Done(match owner.url {
                        Some(url) => Located::There(url),
                        None => Located::Moving,
                    }));
                }
                if !waited {
                    // Its node cannot renew the lease: the reaper takes its
                    // lobbies over when it runs out; look again after that
                    // (and claim it here if nobody has: the claim fails if
                    // the node renewed after all).
                    let expiry = Instant::now() + owner.expires_in + EXPIRY_SLACK;
                    self.reap_at(expiry);
                    return Ok(Found::WaitUntil(expiry + REAPER_HEAD_START));
                }
            }
            _ => {}
        }
        if self.draining() {
            return Ok(Found::Done(Located::Moving));
        }
        // Nobody serves it: it is one live node's share (`takers`), whose
        // reaper takes it over, and so does that node when this lookup is
        // sent there. This node takes its own share, and another's only
        // when that node could not be reached.
        if holder.as_deref() != Some(self.id())
            && let Some(url) = self
                .taker_elsewhere(lobby, holder.as_deref(), unreachable)
                .await
        {
            return Ok(Found::Done(Located::There(url)));
        }
        // No files left for its sockets: the other nodes take it over.
        if self.room() == 0 {
            return Ok(Found::Done(Located::Moving));
        }
        // Only now is the lobby taken over here, and the reaper may have
        // taken it in a batch while this lookup read.
        let _taking = gate.take.lock().await;
        if let Some(h) = self.inner.registry.get(lobby) {
            return Ok(Found::Done(Located::Here(h)));
        }
        self.take_over(lobby).await.map(Found::Done)
    }

    /// Hands every lobby of this node to the others: stops taking lobbies,
    /// stops each lobby here (its sockets close with 4010), releases the
    /// leases at once, and leaves the node list.
    pub async fn drain(&self) {
        self.inner.draining.store(true, Ordering::Relaxed);
        let began = std::time::Instant::now();
        let ids = self.inner.registry.ids();
        let stops = ids.iter().map(|&id| {
            self.inner
                .registry
                .stop(id, CloseReason::MOVED, Duration::from_secs(5))
        });
        futures_util::future::join_all(stops).await;
        let held = self.inner.leases.all();
        for l in &held {
            self.inner.leases.remove(l.lobby_id);
        }
        let cluster = self.clone();
        let released = self
            .inner
            .beat_rt
            .spawn(async move {
                let c = &cluster.inner;
                c.beat_store.release_leases(&c.id, &held).await
            })
            .await;
        match released {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "cannot release leases; they expire by themselves")
            }
            Err(e) => tracing::warn!(error = %e, "the release of the leases failed"),
        }
        if let Err(e) = self
            .inner
            .store
            .leave_cluster(&self.inner.id, self.inner.instance)
            .await
        {
            tracing::warn!(error = %e, "cannot leave the node list; the entry expires");
        }
        tracing::info!(
            lobbies = ids.len(),
            ms = began.elapsed().as_millis() as u64,
            "drained: lobbies handed to the other nodes"
        );
    }
}
