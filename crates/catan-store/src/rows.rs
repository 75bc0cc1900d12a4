//! Backend-neutral rows and their conversion to records: each backend reads
//! its columns into these, so the JSON decoding and redaction live once.

use crate::error::StoreError;
use crate::model::{GameSummary, StoredGame, StoredSeat, format_time};
use catan_core::record::{
    FORMAT_VERSION, GameRecord, GameStatus, Outcome, RecordedAction, SeedReveal,
};
use catan_core::{Action, Seat};
use chrono::{DateTime, Utc};
use serde::de::DeserializeOwned;
use uuid::Uuid;

/// A `games` row, JSON columns as text.
pub(crate) struct GameRow {
    pub id: Uuid,
    pub created: DateTime<Utc>,
    pub options: String,
    pub rules_version: String,
    pub seed_commitment: String,
    pub seed: String,
    pub salt: String,
    pub seats: String,
    pub status: String,
    pub result: Option<String>,
    pub opener: Option<String>,
    pub finished: Option<DateTime<Utc>>,
    pub lobby: String,
}

/// A `game_actions` row, JSON columns as text.
pub(crate) struct ActionRow {
    pub seq: i64,
    pub seat: i64,
    pub action: String,
    pub outcome: String,
    pub time: DateTime<Utc>,
    pub stand_in: bool,
}

fn json<T: DeserializeOwned>(what: &str, text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

fn status(s: &str) -> Result<GameStatus, StoreError> {
    GameStatus::parse(s).ok_or_else(|| StoreError::Corrupt(format!("unknown status {s:?}")))
}

impl ActionRow {
    fn into_recorded(self) -> Result<RecordedAction, StoreError> {
        let action: Action = json("action", &self.action)?;
        let outcome: Outcome = json("outcome", &self.outcome)?;
        Ok(RecordedAction {
            seq: u64::try_from(self.seq)
                .map_err(|_| StoreError::Corrupt(format!("negative seq {}", self.seq)))?,
            seat: Seat(
                u8::try_from(self.seat)
                    .map_err(|_| StoreError::Corrupt(format!("seat {} out of range", self.seat)))?,
            ),
            action,
            outcome,
            time: format_time(self.time),
            stand_in: self.stand_in,
        })
    }
}

impl GameRow {
    /// The game with its full record (seed included) for the server.
    pub(crate) fn into_stored(self, actions: Vec<ActionRow>) -> Result<StoredGame, StoreError> {
        let seats: Vec<StoredSeat> = json("seats", &self.seats)?;
        let lobby = json("lobby", &self.lobby)?;
        let seed = self
            .seed
            .parse::<u64>()
            .map_err(|e| StoreError::Corrupt(format!("seed {:?}: {e}", self.seed)))?;
        let record = GameRecord {
            format: FORMAT_VERSION,
            game_id: self.id.to_string(),
            created: format_time(self.created),
            rules_version: self.rules_version,
            options: json("options", &self.options)?,
            seats: seats.iter().map(StoredSeat::public).collect(),
            seed_commitment: self.seed_commitment,
            seed: Some(SeedReveal {
                seed,
                salt: self.salt,
            }),
            status: status(&self.status)?,
            result: self
                .result
                .as_deref()
                .map(|r| json("result", r))
                .transpose()?,
            opener: self
                .opener
                .as_deref()
                .map(|r| json("opener", r))
                .transpose()?,
            actions: actions
                .into_iter()
                .map(ActionRow::into_recorded)
                .collect::<Result<_, _>>()?,
        };
        Ok(StoredGame {
            record,
            seats,
            lobby,
        })
    }

    /// A list entry (no token hashes).
    pub(crate) fn into_summary(self, actions: i64) -> Result<GameSummary, StoreError> {
        let seats: Vec<StoredSeat> = json("seats", &self.seats)?;
        Ok(GameSummary {
            id: self.id,
            created: format_time(self.created),
            finished: self.finished.map(format_time),
            status: status(&self.status)?,
            options: json("options", &self.options)?,
            seats: seats.iter().map(StoredSeat::public).collect(),
            result: self
                .result
                .as_deref()
                .map(|r| json("result", r))
                .transpose()?,
            actions: u64::try_from(actions).unwrap_or(0),
        })
    }
}

/// The public record: the seed and salt only once the game is over.
pub(crate) fn public_record(stored: StoredGame) -> GameRecord {
    let mut record = stored.record;
    if !record.status.is_over() {
        record.seed = None;
    }
    record
}

/// A user's name filter as the needle to search `player_names` for, or
/// `None` for "no filter".
pub(crate) fn name_needle(filter: Option<&str>) -> Option<String> {
    let f = filter?.trim();
    if f.is_empty() {
        return None;
    }
    // Names are stored one per line: a needle may not span two of them.
    Some(f.to_lowercase().replace('\n', " "))
}

/// The columns of a stored action that say what was done (not when).
pub(crate) struct StoredAction {
    pub seat: i64,
    pub action: String,
    pub outcome: String,
    pub stand_in: bool,
}

impl StoredAction {
    /// `Ok` if this row records `a`; [`StoreError::Conflict`] if it records
    /// something else. JSON is compared as values, since PostgreSQL's JSONB
    /// does not keep the text (key order, spaces) it was given.
    pub(crate) fn check_is(&self, game_id: Uuid, a: &RecordedAction) -> Result<(), StoreError> {
        let parse = |text: &str| {
            serde_json::from_str::<serde_json::Value>(text)
                .map_err(|e| StoreError::Corrupt(format!("stored action JSON: {e}")))
        };
        let want = |v: serde_json::Result<serde_json::Value>| {
            v.map_err(|e| StoreError::Invalid(format!("action JSON: {e}")))
        };
        let same = self.seat == i64::from(a.seat.0)
            && self.stand_in == a.stand_in
            && parse(&self.action)? == want(serde_json::to_value(a.action))?
            && parse(&self.outcome)? == want(serde_json::to_value(a.outcome))?;
        if same {
            Ok(())
        } else {
            Err(StoreError::Conflict {
                game_id,
                seq: a.seq,
            })
        }
    }
}
