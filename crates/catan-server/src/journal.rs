//! The write-ahead journal the lobby actor awaits before telling anyone
//! about an action.
//!
//! The actor calls [`Journal::append`] for every accepted action and only
//! broadcasts once it returned `Ok`; if it fails the action is refused with
//! `storage_unavailable` and the game stays as it was. A failure marked
//! [`JournalError::in_doubt`] (the append timed out, it may still commit) is
//! settled with [`Journal::settle`] before the game takes another action
//! (see `lobby::settle`). A record holds what is
//! needed to rebuild a lobby: settings, seed, seats (token hashes only) and
//! the actions in order. [`MemoryJournal`] keeps it in memory (the default and
//! the tests' journal); the persistent store plugs in behind the same trait.

use crate::settings::LobbySettings;
use catan_bots::BotKind;
use catan_core::record::Outcome;
use catan_core::{Action, Seat};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use uuid::Uuid;

/// Why the journal could not record something.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("journal unavailable: {message}")]
pub struct JournalError {
    /// What went wrong.
    pub message: String,
    /// Whether the write may nevertheless have been stored (it timed out
    /// or its connection broke on the way): only [`Journal::settle`] tells.
    /// For `settle` itself: the outcome is still unknown, try again.
    pub in_doubt: bool,
    /// Whether this server no longer owns the lobby (another node took it
    /// over): nothing was recorded, and the lobby must stop serving here.
    pub fenced: bool,
}

impl JournalError {
    /// A definite failure: nothing was recorded.
    pub fn new(message: impl Into<String>) -> JournalError {
        JournalError {
            message: message.into(),
            in_doubt: false,
            fenced: false,
        }
    }

    /// A failure whose write may still have been recorded.
    pub fn in_doubt(message: impl Into<String>) -> JournalError {
        JournalError {
            message: message.into(),
            in_doubt: true,
            fenced: false,
        }
    }

    /// A write refused because another node owns the lobby now.
    pub fn fenced(message: impl Into<String>) -> JournalError {
        JournalError {
            message: message.into(),
            in_doubt: false,
            fenced: true,
        }
    }
}

/// A boxed future, so that [`Journal`] stays object safe.
pub type JournalFuture<'a> = Pin<Box<dyn Future<Output = Result<(), JournalError>> + Send + 'a>>;

/// Who sits in a seat, as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatOccupant {
    /// A person, known by the SHA-256 (hex) of their seat token.
    Human {
        /// Display name.
        name: String,
        /// Hex SHA-256 of the seat token.
        token_hash: String,
    },
    /// A bot.
    Bot {
        /// Display name.
        name: String,
        /// Which bot.
        bot: BotKind,
    },
}

/// One seat as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// The seat.
    pub seat: Seat,
    /// Its occupant.
    pub occupant: SeatOccupant,
}

/// A game's start: enough, with the actions, to rebuild it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameStart {
    /// The lobby (and game) id.
    pub lobby_id: Uuid,
    /// The lobby's settings.
    pub settings: LobbySettings,
    /// The game seed (secret while the game runs).
    pub seed: u64,
    /// The salt of the seed commitment published at the start (secret too).
    #[serde(default)]
    pub salt: String,
    /// Every seat.
    pub seats: Vec<SeatRecord>,
}

/// One accepted action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalEntry {
    /// The lobby.
    pub lobby_id: Uuid,
    /// 1-based position in the game: the version after this action.
    pub seq: u64,
    /// Who acted.
    pub seat: Seat,
    /// What they did.
    pub action: Action,
    /// What the action's random steps produced (dice, card drawn, resource
    /// stolen), so that the record can be verified against the seed.
    #[serde(default)]
    pub outcome: Outcome,
    /// Whether a stand-in acted for an absent or slow player.
    pub stand_in: bool,
    /// Whether a bot seat acted.
    pub bot: bool,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The lobby.
    pub lobby_id: Uuid,
    /// The winner.
    pub winner: Option<Seat>,
    /// The final version.
    pub version: u64,
}

/// Where accepted actions go before anyone hears of them.
pub trait Journal: Send + Sync + 'static {
    /// A game started.
    fn game_started<'a>(&'a self, start: &'a GameStart) -> JournalFuture<'a>;
    /// An action was accepted; resolves once it is durable.
    fn append<'a>(&'a self, entry: &'a JournalEntry) -> JournalFuture<'a>;
    /// Settles an append that failed in doubt: makes sure `entry` is
    /// recorded (recording it if the earlier attempt did not) and resolves
    /// `Ok` once it is durable. An `in_doubt` error means the journal cannot
    /// tell yet (try again later); another error that the entry will never
    /// be recorded (its seq holds a different entry, or the game is gone).
    fn settle<'a>(&'a self, entry: &'a JournalEntry) -> JournalFuture<'a>;
    /// A seat changed hands during a game (a player left and a bot took over).
    fn seat_changed<'a>(&'a self, lobby_id: Uuid, seat: &'a SeatRecord) -> JournalFuture<'a>;
    /// The game ended.
    fn game_finished<'a>(&'a self, result: &'a GameResult) -> JournalFuture<'a>;
    /// Whether a game can be rebuilt from this journal after its lobby is
    /// gone from memory: only then may an idle running game be unloaded.
    fn durable(&self) -> bool {
        false
    }
}

/// Everything recorded about one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The start.
    pub start: GameStart,
    /// Accepted actions in order.
    pub entries: Vec<JournalEntry>,
    /// The end, once there is one.
    pub result: Option<GameResult>,
}

/// An in-memory journal; `set_failing(true)` makes it refuse, and
/// `set_in_doubt(true)` makes appends answer in doubt although they were
/// recorded (a late commit), for tests of the `storage_unavailable` paths.
#[derive(Default)]
pub struct MemoryJournal {
    games: Mutex<HashMap<Uuid, GameRecord>>,
    failing: AtomicBool,
    in_doubt: AtomicBool,
}

impl MemoryJournal {
    /// An empty journal.
    pub fn new() -> Self {
        Self::default()
    }

    /// Makes every later call fail (or succeed again); settling answers
    /// "still unknown" meanwhile.
    pub fn set_failing(&self, failing: bool) {
        self.failing.store(failing, Ordering::SeqCst);
    }

    /// Makes later appends record the entry and yet answer in doubt, as an
    /// append whose commit came after its deadline, and settling answer
    /// "still unknown", until it is turned off.
    pub fn set_in_doubt(&self, in_doubt: bool) {
        self.in_doubt.store(in_doubt, Ordering::SeqCst);
    }

    /// The record of one game.
    pub fn record(&self, lobby_id: Uuid) -> Option<GameRecord> {
        self.lock().get(&lobby_id).cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, GameRecord>> {
        // A panic while holding this lock cannot leave a record half-written
        // in a way later readers care about, so a poisoned lock is usable.
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn check(&self) -> Result<(), JournalError> {
        if self.failing.load(Ordering::SeqCst) {
            Err(JournalError::new("the memory journal is set to fail"))
        } else {
            Ok(())
        }
    }

    fn with_game(
        &self,
        lobby_id: Uuid,
        f: impl FnOnce(&mut GameRecord),
    ) -> Result<(), JournalError> {
        self.check()?;
        let mut games = self.lock();
        let g = games
            .get_mut(&lobby_id)
            .ok_or_else(|| JournalError::new(format!("no game {lobby_id} was started")))?;
        f(g);
        Ok(())
    }
}

impl Journal for MemoryJournal {
    fn game_started<'a>(&'a self, start: &'a GameStart) -> JournalFuture<'a> {
        Box::pin(async move {
            self.check()?;
            self.lock().insert(
                start.lobby_id,
                GameRecord {
                    start: start.clone(),
                    entries: Vec::new(),
                    result: None,
                },
            );
            Ok(())
        })
    }

    fn append<'a>(&'a self, entry: &'a JournalEntry) -> JournalFuture<'a> {
        Box::pin(async move {
            self.with_game(entry.lobby_id, |g| g.entries.push(entry.clone()))?;
            if self.in_doubt.load(Ordering::SeqCst) {
                return Err(JournalError::in_doubt("the memory journal is set to doubt"));
            }
            Ok(())
        })
    }

    fn settle<'a>(&'a self, entry: &'a JournalEntry) -> JournalFuture<'a> {
        Box::pin(async move {
            if self.failing.load(Ordering::SeqCst) || self.in_doubt.load(Ordering::SeqCst) {
                return Err(JournalError::in_doubt("the memory journal cannot tell yet"));
            }
            // Record what is missing; an entry recorded already stays once.
            self.with_game(entry.lobby_id, |g| {
                if !g.entries.iter().any(|e| e.seq == entry.seq) {
                    g.entries.push(entry.clone());
                }
            })
        })
    }

    fn seat_changed<'a>(&'a self, lobby_id: Uuid, seat: &'a SeatRecord) -> JournalFuture<'a> {
        Box::pin(async move {
            self.with_game(lobby_id, |g| {
                if let Some(s) = g.start.seats.iter_mut().find(|s| s.seat == seat.seat) {
                    *s = seat.clone();
                }
            })
        })
    }

    fn game_finished<'a>(&'a self, result: &'a GameResult) -> JournalFuture<'a> {
        Box::pin(
            async move { self.with_game(result.lobby_id, |g| g.result = Some(result.clone())) },
        )
    }
}
