//! Shared application state handed to every request handler.

use crate::config::Config;
use crate::journal::Journal;
use crate::registry::Registry;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

/// What handlers share: the lobbies, the configuration, the shutdown signal.
#[derive(Clone)]
pub struct AppState {
    /// Live lobbies.
    pub registry: Registry,
    /// Server configuration.
    pub config: Arc<Config>,
    /// The game store behind the saved-games endpoints (`None`: games live
    /// in memory only).
    pub store: Option<catan_store::Store>,
    /// This node's membership of a cluster (`None`: a single server).
    pub cluster: Option<crate::cluster::Cluster>,
    /// How a request's client address is found (for per-client limits).
    pub addresses: crate::http_limits::Addresses,
    /// The per-address limit on HTTP POST requests.
    pub post_limiter: crate::http_limits::PostLimiter,
    shutdown: Arc<watch::Sender<bool>>,
    next_conn: Arc<AtomicU64>,
    unauthenticated: Arc<Semaphore>,
    sockets: Arc<AtomicUsize>,
}

/// Counts one open WebSocket task while it lives.
pub struct SocketGuard(Arc<AtomicUsize>);

impl Drop for SocketGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl AppState {
    /// State for a server with `config`, recording games to `journal`.
    pub fn new(config: Config, journal: Arc<dyn Journal>) -> AppState {
        let config = Arc::new(config);
        let (tx, _) = watch::channel(false);
        let addresses = crate::http_limits::Addresses::new(config.trust_forwarded_for);
        AppState {
            registry: Registry::new(config.clone(), journal),
            post_limiter: crate::http_limits::post_limiter(&config, &addresses),
            addresses,
            config: config.clone(),
            store: None,
            cluster: None,
            unauthenticated: Arc::new(Semaphore::new(config.max_unauthenticated)),
            shutdown: Arc::new(tx),
            next_conn: Arc::new(AtomicU64::new(1)),
            sockets: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// The same state serving saved games from `store`.
    pub fn with_store(mut self, store: catan_store::Store) -> AppState {
        self.store = Some(store);
        self
    }

    /// The same state as one node of `cluster`.
    pub fn with_cluster(mut self, cluster: crate::cluster::Cluster) -> AppState {
        self.addresses.trust_nodes(cluster.key().to_string());
        self.cluster = Some(cluster);
        self
    }

    /// Tells every WebSocket to close because the server is stopping.
    pub fn begin_shutdown(&self) {
        self.shutdown.send_replace(true);
    }

    /// A receiver that turns `true` when the server is stopping.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// A place for one more socket that has not said hello yet, if the
    /// server has one ([`Config::max_unauthenticated`]).
    pub fn unauthenticated_permit(&self) -> Option<OwnedSemaphorePermit> {
        self.unauthenticated.clone().try_acquire_owned().ok()
    }

    /// Marks one more WebSocket task as running until the guard drops.
    pub fn socket_opened(&self) -> SocketGuard {
        self.sockets.fetch_add(1, Ordering::Relaxed);
        SocketGuard(self.sockets.clone())
    }

    /// WebSocket tasks running now (open sockets, lingering closes included).
    pub fn open_sockets(&self) -> usize {
        self.sockets.load(Ordering::Relaxed)
    }

    /// The counter behind [`AppState::open_sockets`].
    pub fn socket_counter(&self) -> Arc<AtomicUsize> {
        self.sockets.clone()
    }

    /// A fresh connection id.
    pub fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }
}
