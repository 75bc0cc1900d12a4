//! Shared application state handed to every request handler.

use crate::config::Config;
use crate::journal::Journal;
use crate::registry::Registry;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::watch;

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
    shutdown: Arc<watch::Sender<bool>>,
    next_conn: Arc<AtomicU64>,
}

impl AppState {
    /// State for a server with `config`, recording games to `journal`.
    pub fn new(config: Config, journal: Arc<dyn Journal>) -> AppState {
        let config = Arc::new(config);
        let (tx, _) = watch::channel(false);
        AppState {
            registry: Registry::new(config.clone(), journal),
            config,
            store: None,
            shutdown: Arc::new(tx),
            next_conn: Arc::new(AtomicU64::new(1)),
        }
    }

    /// The same state serving saved games from `store`.
    pub fn with_store(mut self, store: catan_store::Store) -> AppState {
        self.store = Some(store);
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

    /// A fresh connection id.
    pub fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }
}
