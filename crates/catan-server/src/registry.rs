//! The lobby registry: lobby ids to handles, the public list, and limits on
//! how many lobbies exist and how many one client created.

use crate::config::Config;
use crate::error::{Code, Refusal};
use crate::journal::{GameRecord, Journal};
use crate::lobby::LobbyHandle;
use crate::lobby::actor::LobbyActor;
use crate::lobby::info::{LobbyInfo, LobbySettings};
use crate::lobby::resume::ResumeError;
use crate::token::TokenHash;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, RwLock};
use tracing::Instrument;
use uuid::Uuid;

struct Entry {
    handle: LobbyHandle,
    info: Arc<RwLock<LobbyInfo>>,
    owner: Option<IpAddr>,
}

struct Inner {
    lobbies: RwLock<HashMap<Uuid, Entry>>,
    config: Arc<Config>,
    journal: Arc<dyn Journal>,
}

/// All live lobbies. Cheap to clone.
#[derive(Clone)]
pub struct Registry {
    inner: Arc<Inner>,
}

impl Registry {
    /// An empty registry.
    pub fn new(config: Arc<Config>, journal: Arc<dyn Journal>) -> Registry {
        Registry {
            inner: Arc::new(Inner {
                lobbies: RwLock::new(HashMap::new()),
                config,
                journal,
            }),
        }
    }

    /// The server configuration.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The journal lobbies record to.
    pub fn journal(&self) -> Arc<dyn Journal> {
        self.inner.journal.clone()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<Uuid, Entry>> {
        // Entries are replaced whole, so a poisoned map is still consistent.
        self.inner.lobbies.read().unwrap_or_else(|p| p.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<Uuid, Entry>> {
        self.inner
            .lobbies
            .write()
            .unwrap_or_else(|p| p.into_inner())
    }

    /// Creates a lobby owned by `owner` and starts its actor.
    pub fn create(
        &self,
        settings: LobbySettings,
        host: TokenHash,
        owner: Option<IpAddr>,
    ) -> Result<(LobbyHandle, LobbyInfo), Refusal> {
        let cfg = self.config();
        let mut map = self.write();
        if map.len() >= cfg.max_lobbies {
            return Err(Refusal::new(
                Code::ServerBusy,
                "the server has as many lobbies as it can hold; try later",
            ));
        }
        if let Some(ip) = owner {
            let mine = map.values().filter(|e| e.owner == Some(ip)).count();
            if mine >= cfg.max_lobbies_per_client {
                return Err(Refusal::new(
                    Code::TooManyLobbies,
                    format!(
                        "you already have {mine} open lobbies (at most {})",
                        cfg.max_lobbies_per_client
                    ),
                ));
            }
        }
        let id = Uuid::new_v4();
        let (actor, handle) = LobbyActor::new(id, settings, host, self.clone());
        let info = actor.info_slot();
        let snapshot = read_info(&info);
        map.insert(
            id,
            Entry {
                handle: handle.clone(),
                info,
                owner,
            },
        );
        drop(map);
        spawn_actor(actor, id);
        Ok((handle, snapshot))
    }

    /// Rebuilds a lobby from its journal record and starts its actor. If the
    /// lobby is live already (two requests resumed it at once), that one is
    /// kept and returned.
    pub fn resume(&self, record: &GameRecord) -> Result<LobbyHandle, ResumeError> {
        let (actor, handle) = LobbyActor::resume(record, self.clone())?;
        let id = handle.id();
        let mut map = self.write();
        if let Some(live) = map.get(&id) {
            return Ok(live.handle.clone());
        }
        map.insert(
            id,
            Entry {
                handle: handle.clone(),
                info: actor.info_slot(),
                owner: None,
            },
        );
        drop(map);
        spawn_actor(actor, id);
        Ok(handle)
    }

    /// The handle of a lobby.
    pub fn get(&self, id: Uuid) -> Option<LobbyHandle> {
        self.read().get(&id).map(|e| e.handle.clone())
    }

    /// A lobby's latest published description.
    pub fn info(&self, id: Uuid) -> Option<LobbyInfo> {
        self.read().get(&id).map(|e| read_info(&e.info))
    }

    /// Public lobbies, newest status first is up to the client; sorted by name.
    pub fn list_public(&self) -> Vec<LobbyInfo> {
        let mut v: Vec<LobbyInfo> = self
            .read()
            .values()
            .map(|e| read_info(&e.info))
            .filter(|i| i.public)
            .collect();
        v.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
        v
    }

    /// Number of live lobbies.
    pub fn len(&self) -> usize {
        self.read().len()
    }

    /// Whether there are no lobbies.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets a lobby (its actor calls this as it stops).
    pub(crate) fn remove(&self, id: Uuid) {
        self.write().remove(&id);
    }
}

fn read_info(slot: &Arc<RwLock<LobbyInfo>>) -> LobbyInfo {
    slot.read().unwrap_or_else(|p| p.into_inner()).clone()
}

fn spawn_actor(actor: LobbyActor, id: Uuid) {
    // A root span: the lobby outlives the HTTP request that created it, so
    // its log lines must not carry that request's id.
    tokio::spawn(
        actor
            .run()
            .instrument(tracing::info_span!(parent: None, "lobby", lobby_id = %id)),
    );
}
