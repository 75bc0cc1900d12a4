//! Backend-neutral rows and their conversion to and from records: each
//! backend binds and reads its columns as these, so the JSON encoding,
//! the checks on a new game and the redaction live once.

use crate::error::StoreError;
use crate::model::{GameSummary, StoredGame, format_time, parse_time, player_names};
use catan_core::record::{
    FORMAT_VERSION, GameRecord, GameStatus, Outcome, RecordedAction, SeatRecord, SeedReveal,
    commitment,
};
use catan_core::{Action, Seat};
use chrono::{DateTime, Utc};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// One element of the `seats` column: a seat's public record and its
/// token hash side by side, `{name, bot, token_hash}`.
#[derive(Serialize, Deserialize)]
struct SeatRow {
    name: String,
    #[serde(default)]
    bot: Option<String>,
    #[serde(default)]
    token_hash: Option<String>,
}

/// The `seats` and `player_names` columns of a game.
pub(crate) struct SeatColumns {
    pub seats: String,
    pub player_names: String,
}

impl SeatColumns {
    /// The columns for `game`'s seats; its token hashes must match them.
    pub(crate) fn of(game: &StoredGame) -> Result<SeatColumns, StoreError> {
        let seats = &game.record.seats;
        if game.token_hashes.len() != seats.len() {
            return Err(StoreError::Invalid(format!(
                "{} token hashes for {} seats",
                game.token_hashes.len(),
                seats.len()
            )));
        }
        let rows: Vec<SeatRow> = seats
            .iter()
            .zip(&game.token_hashes)
            .map(|(s, token_hash)| SeatRow {
                name: s.name.clone(),
                bot: s.bot.clone(),
                token_hash: token_hash.clone(),
            })
            .collect();
        Ok(SeatColumns {
            seats: json_text(&rows)?,
            player_names: player_names(seats),
        })
    }
}

/// Splits the `seats` column into the public records and the token hashes.
fn seats(text: &str) -> Result<(Vec<SeatRecord>, Vec<Option<String>>), StoreError> {
    let rows: Vec<SeatRow> = json("seats", text)?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let seat = SeatRecord {
                name: r.name,
                bot: r.bot,
            };
            (seat, r.token_hash)
        })
        .unzip())
}

/// The `games` columns a game gets when it starts and keeps from then on:
/// all but its seats (which change hands) and its status, result and end
/// (which [`crate::Store::finish_game`] writes). Shared by the row written
/// ([`NewGameRow`]) and the row read ([`GameRow`]).
pub(crate) struct StartColumns {
    pub id: Uuid,
    pub created: DateTime<Utc>,
    pub options: String,
    pub rules_version: String,
    pub seed_commitment: String,
    pub seed: String,
    pub salt: String,
    pub opener: Option<String>,
    pub lobby: String,
}

/// The columns of a new `games` row (status `in_progress`, no result).
pub(crate) struct NewGameRow {
    pub start: StartColumns,
    pub seats: SeatColumns,
}

impl NewGameRow {
    /// The row for `game`, which must be a game that starts: in progress,
    /// no action and no result yet, its seed present and its commitment
    /// that seed's.
    pub(crate) fn of(game: &StoredGame) -> Result<NewGameRow, StoreError> {
        let r = &game.record;
        let invalid = |why: String| Err(StoreError::Invalid(format!("game {}: {why}", r.game_id)));
        if r.game_id != game.id.to_string() {
            return invalid(format!("the record's id is not the game's ({})", game.id));
        }
        if r.format != FORMAT_VERSION {
            return invalid(format!(
                "record format {} is not {FORMAT_VERSION}",
                r.format
            ));
        }
        if r.status != GameStatus::InProgress || !r.actions.is_empty() || r.result.is_some() {
            return invalid("a new game has no action and no result yet".into());
        }
        let Some(seed) = &r.seed else {
            return invalid("a new game needs its seed".into());
        };
        if commitment(seed.seed, &seed.salt) != r.seed_commitment {
            return invalid("the seed commitment is not the seed's".into());
        }
        Ok(NewGameRow {
            start: StartColumns {
                id: game.id,
                created: parse_time(&r.created).map_err(StoreError::Invalid)?,
                options: json_text(&r.options)?,
                rules_version: r.rules_version.clone(),
                seed_commitment: r.seed_commitment.clone(),
                seed: seed.seed.to_string(),
                salt: seed.salt.clone(),
                opener: r.opener.as_ref().map(json_text).transpose()?,
                lobby: json_text(&game.lobby)?,
            },
            seats: SeatColumns::of(game)?,
        })
    }
}

/// A `games` row, JSON columns as text.
pub(crate) struct GameRow {
    pub start: StartColumns,
    pub seats: String,
    pub status: String,
    pub result: Option<String>,
    pub finished: Option<DateTime<Utc>>,
}

/// A `game_actions` row, JSON columns as text.
pub(crate) struct ActionRow {
    pub seq: i64,
    pub time: DateTime<Utc>,
    /// What the action did.
    pub what: StoredAction,
}

/// The columns of a new `game_actions` row but its game id, checked and
/// encoded once for both backends (each binds them in its own types).
pub(crate) struct NewActionRow {
    pub seq: i64,
    pub seat: u8,
    pub action: String,
    pub outcome: String,
    pub time: DateTime<Utc>,
    pub stand_in: bool,
}

impl NewActionRow {
    /// The row for `a`: its seq must fit the column, its time be RFC 3339.
    pub(crate) fn of(a: &RecordedAction) -> Result<NewActionRow, StoreError> {
        Ok(NewActionRow {
            seq: seq_sql(a.seq)?,
            seat: a.seat.0,
            time: parse_time(&a.time).map_err(StoreError::Invalid)?,
            action: json_text(&a.action)?,
            outcome: json_text(&a.outcome)?,
            stand_in: a.stand_in,
        })
    }
}

/// A seq as the BIGINT column holds it.
pub(crate) fn seq_sql(seq: u64) -> Result<i64, StoreError> {
    i64::try_from(seq).map_err(|_| StoreError::Invalid(format!("seq {seq} is too large")))
}

/// `v` as JSON text, for a column.
pub(crate) fn json_text<T: Serialize>(v: &T) -> Result<String, StoreError> {
    serde_json::to_string(v).map_err(|e| StoreError::Invalid(e.to_string()))
}

/// JSON column `what`'s text as a `T`; text that does not parse is
/// corrupt data.
fn json<T: DeserializeOwned>(what: &str, text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

/// A nullable JSON column, `None` when NULL.
fn opt_json<T: DeserializeOwned>(what: &str, text: Option<&str>) -> Result<Option<T>, StoreError> {
    text.map(|t| json(what, t)).transpose()
}

/// The `status` column's text as a status.
fn status(s: &str) -> Result<GameStatus, StoreError> {
    GameStatus::parse(s).ok_or_else(|| StoreError::Corrupt(format!("unknown status {s:?}")))
}

impl ActionRow {
    /// The action as its record holds it.
    fn into_recorded(self) -> Result<RecordedAction, StoreError> {
        let w = self.what;
        let action: Action = json("action", &w.action)?;
        let outcome: Outcome = json("outcome", &w.outcome)?;
        Ok(RecordedAction {
            seq: u64::try_from(self.seq)
                .map_err(|_| StoreError::Corrupt(format!("negative seq {}", self.seq)))?,
            seat: Seat(
                u8::try_from(w.seat)
                    .map_err(|_| StoreError::Corrupt(format!("seat {} out of range", w.seat)))?,
            ),
            action,
            outcome,
            time: format_time(self.time),
            stand_in: w.stand_in,
        })
    }
}

impl GameRow {
    /// The game with its full record (seed included) for the server.
    pub(crate) fn into_stored(self, actions: Vec<ActionRow>) -> Result<StoredGame, StoreError> {
        let (seats, token_hashes) = seats(&self.seats)?;
        let start = self.start;
        let lobby = json("lobby", &start.lobby)?;
        let seed = start
            .seed
            .parse::<u64>()
            .map_err(|e| StoreError::Corrupt(format!("seed {:?}: {e}", start.seed)))?;
        let record = GameRecord {
            format: FORMAT_VERSION,
            game_id: start.id.to_string(),
            created: format_time(start.created),
            rules_version: start.rules_version,
            options: json("options", &start.options)?,
            seats,
            seed_commitment: start.seed_commitment,
            seed: Some(SeedReveal {
                seed,
                salt: start.salt,
            }),
            status: status(&self.status)?,
            result: opt_json("result", self.result.as_deref())?,
            opener: opt_json("opener", start.opener.as_deref())?,
            actions: actions
                .into_iter()
                .map(ActionRow::into_recorded)
                .collect::<Result<_, _>>()?,
        };
        Ok(StoredGame {
            id: start.id,
            record,
            token_hashes,
            lobby,
        })
    }

    /// A list entry (no token hashes).
    pub(crate) fn into_summary(self, actions: i64) -> Result<GameSummary, StoreError> {
        let (seats, _) = seats(&self.seats)?;
        Ok(GameSummary {
            id: self.start.id,
            created: format_time(self.start.created),
            finished: self.finished.map(format_time),
            status: status(&self.status)?,
            options: json("options", &self.start.options)?,
            seats,
            result: opt_json("result", self.result.as_deref())?,
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
