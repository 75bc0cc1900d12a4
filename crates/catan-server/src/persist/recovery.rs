//! Recovery: at start-up every game the store still lists as in progress is
//! rebuilt from its log and its lobby resumed, so that players reconnect
//! with their seat tokens (the store keeps only their hashes) and play on;
//! later, a game whose lobby was unloaded while idle (or served by a node
//! that died) is resumed the same way when someone asks for it.
//!
//! Rebuilding replays the record through `catan_core::record::Replay` and
//! checks every recorded outcome against the seed (`LobbyActor::resume`):
//! a game whose record does not replay as recorded is refused alone, with
//! an error naming it and the action, and the others resume.

use super::store_journal::finish_stored;
use crate::lobby::LobbyHandle;
use crate::registry::Registry;
use catan_protocol::LobbyStatus;
use catan_store::{Store, StoreError, StoredGame};
use uuid::Uuid;

/// What recovery did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecoveryReport {
    /// Lobbies resumed, by id.
    pub resumed: Vec<Uuid>,
    /// Games whose last action had ended them but whose end was not
    /// recorded; now marked finished.
    pub finished: Vec<Uuid>,
    /// Games that could not be rebuilt, with why; left untouched in the store.
    pub failed: Vec<(String, String)>,
}

/// Resumes every unfinished game in `store` into `registry`.
///
/// A game that cannot be rebuilt (a log this build does not replay, an
/// outcome that differs from the seed's, a corrupt seat) is logged and left
/// as it is rather than abandoned, so that a fixed build or record can still
/// resume it; it does not keep the other games from resuming.
pub async fn recover(registry: &Registry, store: &Store) -> Result<RecoveryReport, StoreError> {
    let mut report = RecoveryReport::default();
    for stored in store.unfinished_games().await? {
        let id = stored.id.to_string();
        match resume_stored(registry, store, &stored).await {
            Ok(Resumed::Playing(lobby_id)) => report.resumed.push(lobby_id),
            Ok(Resumed::Finished(lobby_id)) => report.finished.push(lobby_id),
            Err(why) => report.failed.push((id, why)),
        }
    }
    Ok(report)
}

/// The lobby of an unfinished game that is not in memory (its actor was
/// unloaded after sitting idle with nobody connected), rebuilt from its log
/// when someone asks for it. `None` when the store has no unfinished game
/// with that id, or it cannot be rebuilt (logged).
pub async fn resume_on_demand(registry: &Registry, store: &Store, id: Uuid) -> Option<LobbyHandle> {
    let stored = match store.load_game(id).await {
        Ok(Some(stored)) if !stored.record.status.is_over() => stored,
        Ok(_) => return None,
        Err(e) => {
            tracing::error!(game_id = %id, error = %e, "cannot load game to resume it");
            return None;
        }
    };
    resume_loaded(registry, store, &stored).await
}

/// Lobby `id`'s waiting room, rebuilt from the store (a cluster's
/// takeover of a lobby whose game had not started). `None` when the store
/// has no such room, or it cannot be rebuilt (logged).
pub async fn restore_room(registry: &Registry, store: &Store, id: Uuid) -> Option<LobbyHandle> {
    let room = match store.waiting_room(id).await {
        Ok(room) => room?,
        Err(e) => {
            tracing::error!(lobby_id = %id, error = %e, "cannot load the waiting room");
            return None;
        }
    };
    registry
        .restore_room(id, &room)
        .inspect_err(
            |e| tracing::error!(lobby_id = %id, error = %e, "cannot rebuild the waiting room"),
        )
        .ok()
}

/// The lobby of `stored` (a game loaded by the caller, as a takeover of
/// many games loads them in one query), rebuilt from its log; `None` when
/// it cannot be rebuilt (logged).
pub async fn resume_loaded(
    registry: &Registry,
    store: &Store,
    stored: &StoredGame,
) -> Option<LobbyHandle> {
    resume_loaded_onto(&tokio::runtime::Handle::current(), registry, store, stored).await
}

/// [`resume_loaded`] with the lobby's actor spawned on `lobbies`, for a
/// caller off the lobbies' runtime (a cluster's takeovers run on a thread
/// of their own).
pub async fn resume_loaded_onto(
    lobbies: &tokio::runtime::Handle,
    registry: &Registry,
    store: &Store,
    stored: &StoredGame,
) -> Option<LobbyHandle> {
    let over = {
        // Not held across an await: the guard belongs to this thread.
        let _lobbies = lobbies.enter();
        rebuild(registry, stored).ok()?
    };
    if over {
        record_end(store, stored).await.ok()?;
    }
    registry.get(stored.id)
}

/// How a stored game came back.
enum Resumed {
    /// Its lobby is live again.
    Playing(Uuid),
    /// Its last action had ended it; the end is now recorded too.
    Finished(Uuid),
}

/// Rebuilds one stored unfinished game into a live lobby; errors are logged
/// and returned as text.
async fn resume_stored(
    registry: &Registry,
    store: &Store,
    stored: &StoredGame,
) -> Result<Resumed, String> {
    if !rebuild(registry, stored)? {
        return Ok(Resumed::Playing(stored.id));
    }
    record_end(store, stored).await?;
    Ok(Resumed::Finished(stored.id))
}

/// Rebuilds `stored`'s lobby from its log, its actor spawned on the current
/// runtime; whether its last action had ended the game. Errors are logged
/// and returned as text.
fn rebuild(registry: &Registry, stored: &StoredGame) -> Result<bool, String> {
    let id = stored.id;
    registry.resume(stored).map_err(|e| {
        let why = e.to_string();
        tracing::error!(game_id = %id, %why, "cannot resume game");
        why
    })?;
    // The description the rebuilt actor published before it started, not a
    // round trip to it: a takeover resumes its games one after another, and
    // on a busy node each round trip waits for the actor's first turn.
    let over = registry
        .info(id)
        .is_some_and(|i| i.status == LobbyStatus::Finished);
    tracing::info!(
        game_id = %id,
        actions = stored.record.actions.len(),
        finished = over,
        "game recovered"
    );
    Ok(over)
}

/// The server stopped between storing the winning action and storing the
/// result: record the result now. The lobby stays so that its players can
/// see the end.
async fn record_end(store: &Store, stored: &StoredGame) -> Result<(), String> {
    finish_stored(store, stored).await.map_err(|e| {
        let why = format!("cannot record the end: {e}");
        tracing::error!(game_id = %stored.id, %why, "cannot resume game");
        why
    })
}
