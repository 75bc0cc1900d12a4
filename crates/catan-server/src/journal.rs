//! The write-ahead journal the lobby actor awaits before telling anyone
//! about an action.
//!
//! The actor calls [`Journal::append`] for every accepted action and only
//! broadcasts once it returned `Ok`; if it fails the action is refused with
//! `storage_unavailable` and the game stays as it was. A failure marked
//! [`JournalError::in_doubt`] (the append timed out, it may still commit) is
//! settled with [`Journal::settle`] before the game takes another action
//! (see `lobby::settle`).
//!
//! The journal speaks the game record's vocabulary: a game starts as a
//! [`StoredGame`] (the core record with no action yet, plus the seats'
//! token hashes and the lobby's settings as metadata), each action is a
//! [`RecordedAction`], the end a [`GameResult`]. A lobby is rebuilt from
//! the same [`StoredGame`] (`LobbyActor::resume`). [`MemoryJournal`] keeps
//! them in memory (the default and the tests' journal); the persistent
//! store plugs in behind the same trait.

use catan_core::Seat;
use catan_core::record::{GameResult, GameStatus, RecordedAction, SeatRecord};
use catan_store::StoredGame;
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

/// A seat that changed hands during a game: `occupant` sits in `seat` now,
/// with `token_hash` if a person.
#[derive(Clone, Copy, Debug)]
pub struct SeatChange<'a> {
    /// The seat.
    pub seat: Seat,
    /// Who sits there now.
    pub occupant: &'a SeatRecord,
    /// The hash of the occupant's seat token; none for a bot.
    pub token_hash: Option<&'a str>,
}

impl SeatChange<'_> {
    /// Writes the change into `game`'s seats and token hashes, the one
    /// place both journals keep them in; refuses a seat `game` lacks.
    pub fn apply(&self, game: &mut StoredGame) -> Result<(), JournalError> {
        let i = self.seat.index();
        match (game.record.seats.get_mut(i), game.token_hashes.get_mut(i)) {
            (Some(occupant), Some(token_hash)) => {
                *occupant = self.occupant.clone();
                *token_hash = self.token_hash.map(str::to_string);
                Ok(())
            }
            _ => Err(JournalError::new(format!(
                "{} is not in game {}",
                self.seat, game.id
            ))),
        }
    }
}

/// A boxed future, so that [`Journal`] stays object safe.
pub type JournalFuture<'a> = Pin<Box<dyn Future<Output = Result<(), JournalError>> + Send + 'a>>;

/// Where accepted actions go before anyone hears of them.
pub trait Journal: Send + Sync + 'static {
    /// A game started: `game` has no action yet, its id is the lobby's.
    fn game_started<'a>(&'a self, game: &'a StoredGame) -> JournalFuture<'a>;
    /// An action of lobby `lobby_id` was accepted; resolves once it is durable.
    fn append<'a>(&'a self, lobby_id: Uuid, action: &'a RecordedAction) -> JournalFuture<'a>;
    /// Settles an append that failed in doubt: makes sure `action` is
    /// recorded (recording it if the earlier attempt did not) and resolves
    /// `Ok` once it is durable. An `in_doubt` error means the journal cannot
    /// tell yet (try again later); another error that the action will never
    /// be recorded (its seq holds a different action, or the game is gone).
    fn settle<'a>(&'a self, lobby_id: Uuid, action: &'a RecordedAction) -> JournalFuture<'a>;
    /// A seat changed hands during a game (a player left and a bot took
    /// over).
    fn seat_changed<'a>(&'a self, lobby_id: Uuid, change: SeatChange<'a>) -> JournalFuture<'a>;
    /// The game of lobby `lobby_id` ended as `result`.
    fn game_finished<'a>(&'a self, lobby_id: Uuid, result: &'a GameResult) -> JournalFuture<'a>;
    /// Lobby `lobby_id`'s waiting room (its game not started) is now
    /// `room` (`lobby::stored::StoredRoom` as JSON); resolves once it is
    /// durable. A cluster node keeps rooms so that they outlive the node;
    /// a single server's rooms live in its memory only, so by default
    /// nothing is written.
    fn room_changed<'a>(
        &'a self,
        _lobby_id: Uuid,
        _room: &'a serde_json::Value,
    ) -> JournalFuture<'a> {
        Box::pin(std::future::ready(Ok(())))
    }
    /// Lobby `lobby_id`'s waiting room closed (its game started, or it was
    /// left idle): nobody may take it over any more.
    fn room_closed(&self, _lobby_id: Uuid) -> JournalFuture<'_> {
        Box::pin(std::future::ready(Ok(())))
    }
    /// Whether a game can be rebuilt from this journal after its lobby is
    /// gone from memory: only then may an idle running game be unloaded.
    fn durable(&self) -> bool {
        false
    }
}

/// An in-memory journal; `set_failing(true)` makes it refuse, and
/// `set_in_doubt(true)` makes appends answer in doubt although they were
/// recorded (a late commit), for tests of the `storage_unavailable` paths.
/// It keeps waiting rooms too (as a cluster node's store does), with every
/// write in order, so tests can see what a taking-over node would read.
#[derive(Default)]
pub struct MemoryJournal {
    games: Mutex<HashMap<Uuid, StoredGame>>,
    rooms: Mutex<HashMap<Uuid, Vec<serde_json::Value>>>,
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

    /// Everything recorded about one game.
    pub fn record(&self, lobby_id: Uuid) -> Option<StoredGame> {
        self.lock().get(&lobby_id).cloned()
    }

    /// Every waiting-room write of lobby `lobby_id` so far, oldest first
    /// (empty once the room is closed): the last is what a node taking the
    /// lobby over would rebuild.
    pub fn room_writes(&self, lobby_id: Uuid) -> Vec<serde_json::Value> {
        self.lock_rooms()
            .get(&lobby_id)
            .cloned()
            .unwrap_or_default()
    }

    fn lock_rooms(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, Vec<serde_json::Value>>> {
        // As `lock`: a whole value is pushed or removed under the lock.
        self.rooms.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, StoredGame>> {
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
        f: impl FnOnce(&mut StoredGame),
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
    fn game_started<'a>(&'a self, game: &'a StoredGame) -> JournalFuture<'a> {
        Box::pin(async move {
            self.check()?;
            self.lock().insert(game.id, game.clone());
            Ok(())
        })
    }

    fn append<'a>(&'a self, lobby_id: Uuid, action: &'a RecordedAction) -> JournalFuture<'a> {
        Box::pin(async move {
            self.with_game(lobby_id, |g| g.record.actions.push(action.clone()))?;
            if self.in_doubt.load(Ordering::SeqCst) {
                return Err(JournalError::in_doubt("the memory journal is set to doubt"));
            }
            Ok(())
        })
    }

    fn settle<'a>(&'a self, lobby_id: Uuid, action: &'a RecordedAction) -> JournalFuture<'a> {
        Box::pin(async move {
            if self.failing.load(Ordering::SeqCst) || self.in_doubt.load(Ordering::SeqCst) {
                return Err(JournalError::in_doubt("the memory journal cannot tell yet"));
            }
            // Record what is missing; an action recorded already stays once.
            self.with_game(lobby_id, |g| {
                if !g.record.actions.iter().any(|a| a.seq == action.seq) {
                    g.record.actions.push(action.clone());
                }
            })
        })
    }

    fn seat_changed<'a>(&'a self, lobby_id: Uuid, change: SeatChange<'a>) -> JournalFuture<'a> {
        Box::pin(async move {
            let mut applied = Ok(());
            self.with_game(lobby_id, |g| applied = change.apply(g))?;
            applied
        })
    }

    fn game_finished<'a>(&'a self, lobby_id: Uuid, result: &'a GameResult) -> JournalFuture<'a> {
        Box::pin(async move {
            self.with_game(lobby_id, |g| {
                g.record.status = GameStatus::Finished;
                g.record.result = Some(result.clone());
            })
        })
    }

    fn room_changed<'a>(
        &'a self,
        lobby_id: Uuid,
        room: &'a serde_json::Value,
    ) -> JournalFuture<'a> {
        Box::pin(async move {
            self.check()?;
            self.lock_rooms()
                .entry(lobby_id)
                .or_default()
                .push(room.clone());
            if self.in_doubt.load(Ordering::SeqCst) {
                return Err(JournalError::in_doubt("the memory journal is set to doubt"));
            }
            Ok(())
        })
    }

    fn room_closed(&self, lobby_id: Uuid) -> JournalFuture<'_> {
        Box::pin(async move {
            self.check()?;
            self.lock_rooms().remove(&lobby_id);
            Ok(())
        })
    }
}
