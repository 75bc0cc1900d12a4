//! A lobby as every client may see it ([`LobbyInfo`], in the `lobby`
//! message and the HTTP API's answers): its settings, seats and status.

use catan_bots::BotKind;
use catan_core::{GameOptions, Seat};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Longest turn timer, in seconds.
pub const MAX_TURN_SECONDS: u32 = 3600;

/// The optional per-step turn timer.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TurnTimer {
    /// Whether absent or slow players get a stand-in.
    pub enabled: bool,
    /// Seconds a player has for each step.
    #[schemars(range(min = 1, max = MAX_TURN_SECONDS))]
    pub seconds: u32,
}

impl Default for TurnTimer {
    fn default() -> Self {
        TurnTimer {
            enabled: false,
            seconds: 90,
        }
    }
}

/// Where a lobby is in its life.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LobbyStatus {
    /// Seats are being filled.
    Waiting,
    /// The game is on.
    Playing,
    /// The game has ended.
    Finished,
}

/// Who sits in a seat.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// Nobody yet.
    Empty,
    /// A person.
    Human,
    /// A bot.
    Bot,
}

/// One seat as everyone may see it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SeatInfo {
    /// The seat.
    pub seat: Seat,
    /// Who sits there.
    pub kind: SeatKind,
    /// Display name (none for an empty seat).
    pub name: Option<String>,
    /// The bot's kind, for a bot.
    pub bot: Option<BotKind>,
    /// Whether a person's connection is open (bots count as connected).
    pub connected: bool,
}

/// A lobby as everyone may see it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LobbyInfo {
    /// The lobby id (a random UUID: knowing it is the invitation).
    pub id: Uuid,
    /// Name.
    pub name: String,
    /// Listed publicly.
    pub public: bool,
    /// Where it is in its life.
    pub status: LobbyStatus,
    /// Game options.
    pub options: GameOptions,
    /// Turn timer.
    pub turn_timer: TurnTimer,
    /// Bot delay.
    pub bot_delay_ms: u64,
    /// How long a bot's trade offer waits for the people it was made to
    /// (the server's setting; see `offer_wait`).
    #[serde(default)]
    pub bot_offer_wait_ms: u64,
    /// Seats in order.
    pub seats: Vec<SeatInfo>,
    /// Occupied seats.
    pub seats_taken: usize,
    /// Spectators connected.
    pub spectators: usize,
    /// Number of actions applied so far (0 before the start).
    pub version: u64,
    /// Once the game has started: the SHA-256 commitment to its seed and
    /// salt (docs/GAME_RECORD.md), revealed in `game_over`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_commitment: Option<String>,
    /// In a cluster: the base URL of the node that serves this lobby; open
    /// its WebSocket there (docs/CLUSTER.md). Absent on a single server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_url: Option<String>,
}
