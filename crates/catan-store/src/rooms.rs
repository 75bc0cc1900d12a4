//! Waiting rooms of a cluster (migrations/postgres/0006_waiting_rooms.sql):
//! a lobby not yet started has no game row and no log, so its owner keeps
//! the room here, written under its lease's epoch like an append, and a
//! node that takes the lobby over (`Store::claim_game` counts a stored room
//! without a game) rebuilds the room from it. The room itself is the
//! server's JSON: the store knows nothing of lobbies.
//!
//! SQLite has no cluster: every call here answers
//! [`StoreError::NeedsPostgres`] there.

use crate::Store;
use crate::cluster::{epoch_sql, pool};
use crate::error::StoreError;
use sqlx::Row;
use sqlx::postgres::PgRow;
use uuid::Uuid;

impl Store {
    /// Stores `room` as lobby `lobby_id`'s waiting room, replacing the one
    /// before, only while `epoch` is still the lobby's lease epoch: checked
    /// under the lease row's share lock in the same statement, as for an
    /// append, so an old owner paused past a takeover cannot overwrite the
    /// new owner's room. [`StoreError::Fenced`] when the epoch is not the
    /// current one.
    pub async fn save_waiting_room(
        &self,
        lobby_id: Uuid,
        epoch: u64,
        room: &serde_json::Value,
    ) -> Result<(), StoreError> {
        let row = sqlx::query(
            "WITH fence AS (SELECT 1 FROM lobby_leases WHERE lobby_id = $1 AND epoch = $3 \
                              FOR KEY SHARE), \
                  done AS (INSERT INTO waiting_rooms (lobby_id, updated, room) \
                           SELECT $1, now(), $2::jsonb WHERE EXISTS (SELECT 1 FROM fence) \
                           ON CONFLICT (lobby_id) DO UPDATE \
                             SET room = EXCLUDED.room, updated = EXCLUDED.updated \
                           RETURNING 1) \
             SELECT EXISTS (SELECT 1 FROM done) AS done",
        )
        .bind(lobby_id)
        .bind(room)
        .bind(epoch_sql(epoch)?)
        .fetch_one(pool(self)?)
        .await?;
        fence_held(&row, "done", lobby_id)
    }

    /// Deletes lobby `lobby_id`'s waiting room (its game started, or it
    /// closed), only while `epoch` is still its lease epoch, so that an old
    /// owner cannot delete the room a new owner serves. Deleting a room
    /// that is not stored is no error; [`StoreError::Fenced`] when the
    /// epoch is not the current one.
    pub async fn delete_waiting_room(&self, lobby_id: Uuid, epoch: u64) -> Result<(), StoreError> {
        let row = sqlx::query(
            "WITH fence AS (SELECT 1 FROM lobby_leases WHERE lobby_id = $1 AND epoch = $2 \
                              FOR KEY SHARE), \
                  gone AS (DELETE FROM waiting_rooms \
                           WHERE lobby_id = $1 AND EXISTS (SELECT 1 FROM fence) RETURNING 1) \
             SELECT EXISTS (SELECT 1 FROM fence) AS held, EXISTS (SELECT 1 FROM gone) AS gone",
        )
        .bind(lobby_id)
        .bind(epoch_sql(epoch)?)
        .fetch_one(pool(self)?)
        .await?;
        fence_held(&row, "held", lobby_id)
    }

    /// Lobby `lobby_id`'s stored waiting room, if it has one and no game
    /// (a room left beside a started game is never read).
    pub async fn waiting_room(
        &self,
        lobby_id: Uuid,
    ) -> Result<Option<serde_json::Value>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT room FROM waiting_rooms \
             WHERE lobby_id = $1 AND NOT EXISTS (SELECT 1 FROM games WHERE id = $1)",
        )
        .bind(lobby_id)
        .fetch_optional(pool(self)?)
        .await?)
    }
}

/// `Ok` if the statement's fence held (its boolean column `col` is true);
/// [`StoreError::Fenced`] if `lobby_id`'s lease has moved to another epoch.
fn fence_held(row: &PgRow, col: &str, lobby_id: Uuid) -> Result<(), StoreError> {
    match row.try_get::<bool, _>(col)? {
        true => Ok(()),
        false => Err(StoreError::Fenced { game_id: lobby_id }),
    }
}
