//! What a lobby actor needs from the server around it: the configuration
//! and the journal it writes ahead to. The registry hands each actor one;
//! the actor never reaches back into the registry (the registry owns the
//! actor's task and notices its end by itself).

use crate::config::Config;
use crate::journal::Journal;
use std::sync::Arc;

/// The server's configuration and journal, as one lobby sees them. Cheap to clone.
#[derive(Clone)]
pub struct LobbyEnv {
    config: Arc<Config>,
    journal: Arc<dyn Journal>,
}

impl LobbyEnv {
    /// An environment over `config` and `journal`.
    pub fn new(config: Arc<Config>, journal: Arc<dyn Journal>) -> LobbyEnv {
        LobbyEnv { config, journal }
    }

    /// The server configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The journal lobbies record to.
    pub fn journal(&self) -> Arc<dyn Journal> {
        self.journal.clone()
    }
}
