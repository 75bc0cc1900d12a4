//! Waiting rooms that outlive their node (docs/CLUSTER.md): before a
//! change to a room not yet started is answered (a person joins or leaves,
//! the host adds or removes a bot), the room as it now is goes to the
//! journal ([`crate::journal::Journal::room_changed`]), which a cluster
//! node writes under the lobby's lease; a node that takes the lobby over
//! rebuilds the room from it ([`LobbyActor::restore`]). A change the
//! journal refuses is undone and refused, so nothing answered is lost.
//! A refused write may still have committed (it answered too late), so
//! the room is then stored again as it is, retried until the journal takes
//! it: a node taking over never rebuilds a seat that was refused.

use super::LobbyHandle;
use super::actor::{BotSeat, Human, LobbyActor, Slot};
use super::env::LobbyEnv;
use super::manage::storage_unavailable;
use super::stored::{StoredRoom, StoredSeat};
use super::think::server_bot;
use crate::error::Refusal;
use crate::token::TokenHash;
use catan_protocol::{CloseReason, Code, LobbyStatus};
use rand::Rng;
use std::time::Duration;
use tokio::time::Instant;
use uuid::Uuid;

/// How long after a failed waiting-room write the room is stored again.
const RESAVE_EVERY: Duration = Duration::from_millis(500);

impl LobbyActor {
    /// The room as it is now, to store.
    pub(super) fn stored_room(&self) -> StoredRoom {
        let seats = self
            .seats
            .iter()
            .map(|slot| match slot {
                Slot::Empty => StoredSeat::Empty,
                Slot::Human(h) => StoredSeat::Person {
                    name: h.name.clone(),
                    token_hash: h.token.to_hex(),
                },
                Slot::Bot(b) => StoredSeat::Bot {
                    name: b.name.clone(),
                    bot: b.kind,
                },
            })
            .collect();
        StoredRoom {
            settings: self.settings.clone(),
            host: self.host.to_hex(),
            seats,
        }
    }

    /// Records the room as it is now; the caller undoes its change when
    /// this fails. A room another node took over meanwhile stops here.
    pub(super) async fn save_room(&mut self) -> Result<(), Refusal> {
        let room = serde_json::to_value(self.stored_room()).map_err(|e| {
            tracing::error!(error = %e, "cannot encode the waiting room");
            Refusal::new(Code::Internal, "the waiting room cannot be recorded")
        })?;
        let journal = self.env.journal();
        match journal.room_changed(self.id, &room).await {
            Ok(()) => {
                self.room_resave = None;
                Ok(())
            }
            Err(e) if e.fenced => {
                self.room_resave = None;
                tracing::warn!(error = %e, "waiting room taken over; change refused");
                self.stopping = Some(CloseReason::MOVED);
                Err(Refusal::new(
                    Code::LobbyMoved,
                    "another server serves this lobby now; reconnect to it",
                ))
            }
            Err(e) => {
                tracing::warn!(error = %e, "journal refused a waiting-room change");
                self.room_resave = Some(Instant::now() + RESAVE_EVERY);
                Err(storage_unavailable())
            }
        }
    }

    /// Stores the room again after a failed write (whose change the caller
    /// undid, though the write may have committed), if one is owed and the
    /// room still waits; a failure schedules the next try.
    pub(super) async fn resave_room(&mut self) {
        if self.room_resave.is_none() {
            return;
        }
        if self.status() != LobbyStatus::Waiting {
            self.room_resave = None;
            return;
        }
        if self.save_room().await.is_ok() {
            tracing::info!("waiting room stored again after a failed write");
        }
    }

    /// Forgets the stored room (its game started, or it closed idle). A
    /// failure is only logged: a room beside a started game is never read,
    /// and an idle room left behind comes back empty-handed at worst.
    pub(super) async fn close_room(&mut self) {
        if let Err(e) = self.env.journal().room_closed(self.id).await {
            tracing::warn!(error = %e, "cannot delete the stored waiting room");
        }
    }

    /// Rebuilds lobby `id`'s waiting room from what was stored: the same
    /// settings, host and people (each with their seat token's hash, so
    /// their clients' tokens work here), and new bots of the same kinds.
    pub fn restore(
        id: Uuid,
        room: &serde_json::Value,
        env: LobbyEnv,
    ) -> Result<(LobbyActor, LobbyHandle), String> {
        let mut room: StoredRoom = serde_json::from_value(room.clone())
            .map_err(|e| format!("unreadable waiting room: {e}"))?;
        room.settings.validate().map_err(|r| r.message)?;
        if room.seats.len() != usize::from(room.settings.options.players) {
            return Err(format!(
                "the stored room has {} seats for {} players",
                room.seats.len(),
                room.settings.options.players
            ));
        }
        let host = TokenHash::from_hex(&room.host).ok_or("unreadable host token hash")?;
        let (mut actor, handle) = LobbyActor::new(id, room.settings, host, env);
        for (i, seat) in room.seats.into_iter().enumerate() {
            actor.seats[i] = match seat {
                StoredSeat::Empty => Slot::Empty,
                StoredSeat::Person { name, token_hash } => Slot::Human(Human {
                    name,
                    token: TokenHash::from_hex(&token_hash)
                        .ok_or_else(|| format!("unreadable token hash of seat {i}"))?,
                    away_since: Some(tokio::time::Instant::now()),
                }),
                StoredSeat::Bot { name, bot } => {
                    let seed = actor.rng.random();
                    Slot::Bot(BotSeat {
                        name,
                        kind: bot,
                        bot: server_bot(bot, seed, actor.env.config()),
                    })
                }
            };
        }
        actor.publish();
        Ok((actor, handle))
    }
}
