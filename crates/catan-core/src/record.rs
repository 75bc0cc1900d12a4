//! The game record: everything needed to review, replay and verify a game
//! (docs/GAME_RECORD.md). Pure data and pure functions, no I/O.
//!
//! A record holds the options, the seats, the seed commitment (and, once the
//! game is over, the seed and salt), and every accepted action with the
//! outcome of its random steps. States are derived by replay: `Game::new`
//! with the options and seed, then the actions in order.

mod commitment;
mod replay;
mod verify;

pub use commitment::{SEED_COMMITMENT_PREFIX, commitment, random_salt};
pub use replay::{OutcomeMismatch, Replay, ReplayError, ReplayStep, replay};
pub use verify::{VerifyError, VerifyReport, verify};

use crate::action::Action;
use crate::event::Event;
use crate::ids::Seat;
use crate::options::GameOptions;
use crate::resource::{DevCard, Resource};
use crate::state::{Game, Phase};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The record format this library writes and reads (`format` field).
pub const FORMAT_VERSION: u32 = 1;

/// The rules version this engine implements (`rules_version` field). Bump it
/// whenever a change to the rules engine could make an old seed + action log
/// replay differently; records of another version are not replayed.
pub const RULES_VERSION: &str = "1";

/// A complete game record (docs/GAME_RECORD.md).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GameRecord {
    /// Record format version ([`FORMAT_VERSION`]).
    pub format: u32,
    /// The game's id (a UUID in the server's records).
    pub game_id: String,
    /// When the game was created (RFC 3339).
    pub created: String,
    /// Rules engine version the game was played under ([`RULES_VERSION`]).
    pub rules_version: String,
    /// Options fixed at creation.
    pub options: GameOptions,
    /// Who sat where, by seat index.
    pub seats: Vec<SeatRecord>,
    /// Hex SHA-256 commitment to seed and salt, published at game start.
    pub seed_commitment: String,
    /// Seed and salt: present once the game is over (or for the server's own use).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<SeedReveal>,
    /// Whether the game is still being played.
    pub status: GameStatus,
    /// How it ended, once finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// The roll for the opener made by `Game::new` (R11), if recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opener: Option<OpenerRoll>,
    /// Every accepted action, in order, `seq` counting from 1.
    pub actions: Vec<RecordedAction>,
}

/// One seat's occupant.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SeatRecord {
    /// Display name.
    pub name: String,
    /// The bot kind (e.g. `"random"`) for a bot seat; `null` for a human.
    #[serde(default)]
    pub bot: Option<String>,
}

/// The revealed seed and salt.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SeedReveal {
    /// The game seed, as a decimal string (JSON numbers lose precision above 2^53).
    #[serde(serialize_with = "u64_as_string", deserialize_with = "u64_from_string")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub seed: u64,
    /// The salt mixed into the commitment.
    pub salt: String,
}

/// Whether a game is running or over.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Still being played.
    InProgress,
    /// The game ended: someone won, or it reached its turn limit drawn.
    Finished,
    /// Stopped without a winner.
    Abandoned,
}

impl GameStatus {
    /// The snake_case name used in JSON and in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::InProgress => "in_progress",
            GameStatus::Finished => "finished",
            GameStatus::Abandoned => "abandoned",
        }
    }

    /// Parses [`GameStatus::as_str`]'s output.
    pub fn parse(s: &str) -> Option<GameStatus> {
        [
            GameStatus::InProgress,
            GameStatus::Finished,
            GameStatus::Abandoned,
        ]
        .into_iter()
        .find(|g| g.as_str() == s)
    }

    /// Whether the game is over (finished or abandoned): its seed may be revealed.
    pub fn is_over(self) -> bool {
        self != GameStatus::InProgress
    }
}

/// How a game ended.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GameResult {
    /// The winner, if any.
    pub winner: Option<Seat>,
    /// Victory points per seat (hidden cards included) at the end.
    pub victory_points: Vec<u8>,
    /// The turn counter at the end.
    pub turns: u32,
}

impl GameResult {
    /// The result as `game` stands.
    pub fn from_game(game: &Game) -> GameResult {
        GameResult {
            winner: game.winner,
            victory_points: (0..game.n_players())
                .map(|i| game.victory_points(Seat(i as u8)))
                .collect(),
            turns: game.turn,
        }
    }
}

/// The roll for the opener (R11), from `Event::OpenerRolled`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OpenerRoll {
    /// Each round's (seat, total) rolls.
    pub rounds: Vec<Vec<(Seat, u8)>>,
    /// Who opens.
    pub opener: Seat,
}

impl OpenerRoll {
    /// The roll carried by an `OpenerRolled` event, if `event` is one.
    pub fn from_event(event: &Event) -> Option<OpenerRoll> {
        match event {
            Event::OpenerRolled { rounds, opener } => Some(OpenerRoll {
                rounds: rounds.clone(),
                opener: *opener,
            }),
            _ => None,
        }
    }
}

/// One accepted action.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RecordedAction {
    /// Position in the log, from 1, without gaps: the game's version
    /// (number of actions applied) once this action is applied.
    pub seq: u64,
    /// Who acted.
    pub seat: Seat,
    /// What they did (the protocol's action JSON).
    pub action: Action,
    /// What the random steps of this action produced.
    #[serde(default)]
    pub outcome: Outcome,
    /// When the server accepted it (RFC 3339).
    pub time: String,
    /// Whether a stand-in bot acted for an absent player.
    #[serde(default)]
    pub stand_in: bool,
}

impl RecordedAction {
    /// A record entry for an action the engine accepted with `events`.
    pub fn new(
        seq: u64,
        seat: Seat,
        action: Action,
        events: &[Event],
        time: String,
        stand_in: bool,
    ) -> RecordedAction {
        RecordedAction {
            seq,
            seat,
            action,
            outcome: Outcome::from_events(events),
            time,
            stand_in,
        }
    }
}

/// The outcome of an action's random steps; empty for most actions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Outcome {
    /// The two dice, for `roll_dice`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<[u8; 2]>,
    /// The development card drawn, for `buy_development_card`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<DevCard>,
    /// The resource stolen, for `move_robber` / `play_knight` with a victim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stolen: Option<Resource>,
}

impl Outcome {
    /// Collects the random outcomes from the (unredacted) events of one action.
    pub fn from_events(events: &[Event]) -> Outcome {
        let mut o = Outcome::default();
        for e in events {
            match e {
                Event::DiceRolled { dice, .. } => o.dice = Some(*dice),
                Event::DevCardBought { card, .. } => o.card = *card,
                Event::Stole { resource, .. } => o.stolen = *resource,
                _ => {}
            }
        }
        o
    }

    /// Whether no random step happened.
    pub fn is_empty(&self) -> bool {
        *self == Outcome::default()
    }
}

impl GameRecord {
    /// The record of a game that starts now: no action yet, in progress,
    /// with the commitment to `seed`. The record keeps the seed itself for
    /// whoever plays the game on; strip it (`seed = None`) before showing
    /// the record of a running game to anyone. `opener` is the roll that
    /// `Game::new(options, seed)` made, when the caller has it.
    pub fn start(
        game_id: String,
        created: String,
        options: GameOptions,
        seats: Vec<SeatRecord>,
        seed: SeedReveal,
        opener: Option<OpenerRoll>,
    ) -> GameRecord {
        GameRecord {
            format: FORMAT_VERSION,
            game_id,
            created,
            rules_version: RULES_VERSION.to_string(),
            options,
            seats,
            seed_commitment: commitment(seed.seed, &seed.salt),
            seed: Some(seed),
            status: GameStatus::InProgress,
            result: None,
            opener,
            actions: Vec::new(),
        }
    }

    /// Whether the replayed `game` has ended (used to fill in `status`).
    pub fn status_of(game: &Game) -> GameStatus {
        if game.phase == Phase::Finished {
            GameStatus::Finished
        } else {
            GameStatus::InProgress
        }
    }

    /// Parses a record from JSON.
    pub fn from_json(text: &str) -> Result<GameRecord, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The record as pretty JSON.
    pub fn to_json_pretty(&self) -> String {
        // Serializing plain data with string keys cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

fn u64_as_string<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// Accepts the decimal string we write, and a plain JSON number as a courtesy.
fn u64_from_string<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    #[derive(Deserialize)]
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    #[serde(untagged)]
    enum Either {
        Text(String),
        Number(u64),
    }
    match Either::deserialize(d)? {
        Either::Number(n) => Ok(n),
        Either::Text(t) => t
            .trim()
            .parse::<u64>()
            .map_err(|e| serde::de::Error::custom(format!("seed {t:?} is not a u64: {e}"))),
    }
}

#[cfg(test)]
mod tests;
