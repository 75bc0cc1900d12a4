//! The lobby registry: lobby ids to handles, the public list, and limits on
//! how many lobbies exist and how many one client created.

use crate::config::Config;
use crate::error::Refusal;
use crate::journal::Journal;
use crate::lobby::LobbyHandle;
use crate::lobby::actor::LobbyActor;
use crate::lobby::env::LobbyEnv;
use crate::lobby::resume::ResumeError;
use crate::settings::LobbySettings;
use crate::token::TokenHash;
use catan_protocol::Code;
use catan_protocol::LobbyInfo;
use catan_store::StoredGame;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use tracing::Instrument;
use uuid::Uuid;

struct Entry {
    handle: LobbyHandle,
    info: Arc<RwLock<LobbyInfo>>,
    owner: Option<IpAddr>,
    /// Which actor task this entry is (a lobby resumed after a failure is a
    /// new one), so that a task's end removes exactly its own entry.
    instance: u64,
}

struct Inner {
    lobbies: RwLock<HashMap<Uuid, Entry>>,
    env: LobbyEnv,
    next_instance: AtomicU64,
    panics: AtomicU64,
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
                env: LobbyEnv::new(config, journal),
                next_instance: AtomicU64::new(1),
                panics: AtomicU64::new(0),
            }),
        }
    }

    /// The server configuration.
    pub fn config(&self) -> &Config {
        self.inner.env.config()
    }

    /// The journal lobbies record to.
    pub fn journal(&self) -> Arc<dyn Journal> {
        self.inner.env.journal()
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
        let (actor, handle) = LobbyActor::new(id, settings, host, self.inner.env.clone());
        let info = actor.info_slot();
        let snapshot = read_info(&info);
        let instance = self.inner.next_instance.fetch_add(1, Ordering::Relaxed);
        map.insert(
            id,
            Entry {
                handle: handle.clone(),
                info,
                owner,
                instance,
            },
        );
        drop(map);
        self.spawn_actor(actor, id, instance);
        Ok((handle, snapshot))
    }

    /// Rebuilds a lobby from its stored game and starts its actor. If the
    /// lobby is live already (two requests resumed it at once), that one is
    /// kept and returned.
    pub fn resume(&self, stored: &StoredGame) -> Result<LobbyHandle, ResumeError> {
        let (actor, handle) = LobbyActor::resume(stored, self.inner.env.clone())?;
        Ok(self.adopt(actor, handle))
    }

    /// Rebuilds lobby `id`'s waiting room from its stored `room` (a
    /// cluster's takeover) and starts its actor; a live one is kept, as in
    /// [`Registry::resume`].
    pub fn restore_room(&self, id: Uuid, room: &serde_json::Value) -> Result<LobbyHandle, String> {
        let (actor, handle) = LobbyActor::restore(id, room, self.inner.env.clone())?;
        Ok(self.adopt(actor, handle))
    }

    /// Registers a rebuilt lobby's actor and starts it, unless the lobby is
    /// live already (two requests rebuilt it at once): then that one is
    /// kept and returned.
    fn adopt(&self, actor: LobbyActor, handle: LobbyHandle) -> LobbyHandle {
        let id = handle.id();
        let mut map = self.write();
        if let Some(live) = map.get(&id)
            && !live.handle.is_closed()
        {
            return live.handle.clone();
        }
        let instance = self.inner.next_instance.fetch_add(1, Ordering::Relaxed);
        map.insert(
            id,
            Entry {
                handle: handle.clone(),
                info: actor.info_slot(),
                owner: None,
                instance,
            },
        );
        drop(map);
        self.spawn_actor(actor, id, instance);
        handle
    }

    /// The handle of a live lobby (not of one whose task has ended and is
    /// about to leave the registry).
    pub fn get(&self, id: Uuid) -> Option<LobbyHandle> {
        self.read()
            .get(&id)
            .map(|e| e.handle.clone())
            .filter(|h| !h.is_closed())
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

    /// The ids of every lobby in the registry.
    pub fn ids(&self) -> Vec<Uuid> {
        self.read().keys().copied().collect()
    }

    /// Every lobby's latest published description.
    pub fn infos(&self) -> Vec<LobbyInfo> {
        self.read().values().map(|e| read_info(&e.info)).collect()
    }

    /// Stops a lobby's task here, closing its sockets with `reason`, and
    /// waits (at most `wait`) until its entry has left the registry. Its game
    /// stays in the log.
    pub async fn stop(
        &self,
        id: Uuid,
        reason: catan_protocol::CloseReason,
        wait: std::time::Duration,
    ) {
        let Some(handle) = self.read().get(&id).map(|e| e.handle.clone()) else {
            return;
        };
        if handle.stop(reason).await.is_err() {
            // The task is gone or wedged; its entry goes with it.
            tracing::warn!(lobby_id = %id, "lobby did not take the order to stop");
        }
        let until = tokio::time::Instant::now() + wait;
        while self.read().contains_key(&id) && tokio::time::Instant::now() < until {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    }

    /// Number of live lobbies.
    pub fn len(&self) -> usize {
        self.read().len()
    }

    /// Whether there are no lobbies.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Lobby tasks that ended in a panic since the server started.
    pub fn panics(&self) -> u64 {
        self.inner.panics.load(Ordering::Relaxed)
    }

    /// Forgets the lobby entry of one actor task, if it is still that task's.
    fn remove_instance(&self, id: Uuid, instance: u64) {
        let mut map = self.write();
        if map.get(&id).is_some_and(|e| e.instance == instance) {
            map.remove(&id);
        }
    }

    /// Runs a lobby's actor and owns its lifetime: when the task ends, by
    /// itself or in a panic (a bug in bot code, the engine, anywhere), that
    /// task's entry leaves the registry. A panic is logged with the lobby
    /// id; the lobby's sockets see their queue end and are closed with 1011,
    /// and a durable game comes back from its log on the next request for it.
    fn spawn_actor(&self, actor: LobbyActor, id: Uuid, instance: u64) {
        // A root span: the lobby outlives the HTTP request that created it, so
        // its log lines must not carry that request's id.
        let task = tokio::spawn(
            actor
                .run()
                .instrument(tracing::info_span!(parent: None, "lobby", lobby_id = %id)),
        );
        let registry = self.clone();
        tokio::spawn(async move {
            if let Err(e) = task.await {
                if e.is_panic() {
                    registry.inner.panics.fetch_add(1, Ordering::Relaxed);
                    crate::metrics::metrics().lobby_panics.inc();
                    let payload = e.into_panic();
                    let what = payload
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "unknown panic".into());
                    tracing::error!(lobby_id = %id, panic = %what, "lobby task panicked; removed it");
                } else {
                    tracing::warn!(lobby_id = %id, "lobby task was cancelled; removed it");
                }
            }
            registry.remove_instance(id, instance);
        });
    }
}

fn read_info(slot: &Arc<RwLock<LobbyInfo>>) -> LobbyInfo {
    slot.read().unwrap_or_else(|p| p.into_inner()).clone()
}
