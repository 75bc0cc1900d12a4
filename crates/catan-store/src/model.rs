//! The values the store takes and gives: a stored game (the core game
//! record plus the token hashes and lobby metadata only the server sees)
//! and pages of finished games.

use crate::error::StoreError;
use catan_core::GameOptions;
use catan_core::record::{GameRecord, GameResult, GameStatus, SeatRecord};
use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use uuid::Uuid;

/// Lower-case hex SHA-256 of a seat token: what the store keeps.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A game as the server stores and loads it: the game record (the seed
/// always present, since the server needs it to play the game on) plus what
/// only the server may see: each seat's token hash and the lobby metadata.
///
/// [`crate::Store::create_game`] takes one with no action yet (as
/// [`GameRecord::start`] makes it); [`crate::Store::load_game`] gives one
/// back with every stored action.
#[derive(Clone, PartialEq, Debug)]
pub struct StoredGame {
    /// The game id the store keys the game by (the lobby's id); the
    /// record's `game_id` is its text, and the store refuses a game whose
    /// two ids differ.
    pub id: Uuid,
    /// The full record (seed included even while in progress: do not publish).
    pub record: GameRecord,
    /// Hex SHA-256 of each seat's token (see [`hash_token`]), by seat index
    /// beside `record.seats`; `None` for a bot. Never the token itself.
    pub token_hashes: Vec<Option<String>>,
    /// Free-form lobby metadata the server wants back on recovery.
    pub lobby: serde_json::Value,
}

impl StoredGame {
    /// A game that starts now, as [`crate::Store::create_game`] takes it:
    /// `record` as [`GameRecord::start`] makes it, the id parsed from its
    /// `game_id`.
    pub fn start(
        record: GameRecord,
        token_hashes: Vec<Option<String>>,
        lobby: serde_json::Value,
    ) -> Result<StoredGame, StoreError> {
        let id = Uuid::parse_str(&record.game_id)
            .map_err(|e| StoreError::Invalid(format!("game id {:?}: {e}", record.game_id)))?;
        Ok(StoredGame {
            id,
            record,
            token_hashes,
            lobby,
        })
    }
}

/// One line of the finished-games list.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GameSummary {
    /// The game id.
    pub id: Uuid,
    /// Creation time (RFC 3339).
    pub created: String,
    /// When it ended (RFC 3339).
    pub finished: Option<String>,
    /// Finished or abandoned.
    pub status: GameStatus,
    /// Options.
    pub options: GameOptions,
    /// Seats (no token hashes).
    pub seats: Vec<SeatRecord>,
    /// How it ended.
    pub result: Option<GameResult>,
    /// Number of actions in its log.
    pub actions: u64,
}

/// A page of finished games, newest first.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GamePage {
    /// Page number, from 1.
    pub page: u32,
    /// Page size used.
    pub per_page: u32,
    /// Games matching the filter across all pages.
    pub total: u64,
    /// This page's games.
    pub games: Vec<GameSummary>,
}

/// Largest page size [`crate::Store::list_finished`] returns.
pub const MAX_PER_PAGE: u32 = 100;

/// The canonical time text of records: RFC 3339, UTC, microseconds.
pub fn format_time(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Micros, true)
}

/// Parses an RFC 3339 time.
pub(crate) fn parse_time(s: &str) -> Result<DateTime<Utc>, String> {
    DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| format!("{s:?} is not an RFC 3339 time: {e}"))
}

/// Lower-cased names, one per line: what the name filter searches.
pub(crate) fn player_names(seats: &[SeatRecord]) -> String {
    seats
        .iter()
        .map(|s| s.name.to_lowercase().replace('\n', " "))
        .collect::<Vec<_>>()
        .join("\n")
}
