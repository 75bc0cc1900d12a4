//! The values the store takes and gives: new games, stored seats (with token
//! hashes, for the server only), loaded games and pages of finished games.

use catan_core::GameOptions;
use catan_core::record::{GameRecord, GameResult, GameStatus, OpenerRoll, SeatRecord, commitment};
use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use uuid::Uuid;

/// One seat as stored: the public part plus the hash of its seat token.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct StoredSeat {
    /// Display name.
    pub name: String,
    /// Bot kind for a bot seat; `None` for a human.
    #[serde(default)]
    pub bot: Option<String>,
    /// Hex SHA-256 of the seat token (see [`hash_token`]); never the token.
    #[serde(default)]
    pub token_hash: Option<String>,
}

impl StoredSeat {
    /// The public part, as it appears in a game record.
    pub fn public(&self) -> SeatRecord {
        SeatRecord {
            name: self.name.clone(),
            bot: self.bot.clone(),
        }
    }
}

/// Lower-case hex SHA-256 of a seat token: what the store keeps.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A game to create.
#[derive(Clone, PartialEq, Debug)]
pub struct NewGame {
    /// Its id (the lobby's id).
    pub id: Uuid,
    /// Creation time.
    pub created: DateTime<Utc>,
    /// Options.
    pub options: GameOptions,
    /// Rules version (normally [`catan_core::record::RULES_VERSION`]).
    pub rules_version: String,
    /// The game seed (kept secret by the store until the game is over).
    pub seed: u64,
    /// The salt of the commitment.
    pub salt: String,
    /// Seats by index.
    pub seats: Vec<StoredSeat>,
    /// The roll for the opener from `Game::new`, if the caller has it.
    pub opener: Option<OpenerRoll>,
    /// Free-form lobby metadata the server wants back on recovery.
    pub lobby: serde_json::Value,
}

impl NewGame {
    /// The commitment the store records for this game's seed and salt.
    pub fn commitment(&self) -> String {
        commitment(self.seed, &self.salt)
    }
}

/// A game as loaded for the server: the record with the seed always present
/// (the server needs it to rebuild the game), the seats with token hashes,
/// and the lobby metadata.
#[derive(Clone, PartialEq, Debug)]
pub struct StoredGame {
    /// The full record (seed included even while in progress: do not publish).
    pub record: GameRecord,
    /// Seats with token hashes.
    pub seats: Vec<StoredSeat>,
    /// Lobby metadata as given to `create_game`.
    pub lobby: serde_json::Value,
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
pub(crate) fn player_names(seats: &[StoredSeat]) -> String {
    seats
        .iter()
        .map(|s| s.name.to_lowercase().replace('\n', " "))
        .collect::<Vec<_>>()
        .join("\n")
}
