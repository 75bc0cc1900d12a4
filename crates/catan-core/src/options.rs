//! Game options: player count, board mode, victory target and variants.

use serde::{Deserialize, Serialize};

/// How the board is laid out (RULES.md R6-R8).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum BoardMode {
    /// The rulebook's fixed starting map (R6).
    Beginner,
    /// Shuffled terrains, tokens in the publisher's spiral (R7).
    Official,
    /// Shuffled terrains and tokens, no adjacent 6/8 (R8).
    #[default]
    Random,
}

/// Options fixed when a game is created.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct GameOptions {
    /// 3 or 4.
    pub players: u8,
    /// Board layout mode.
    pub board: BoardMode,
    /// Victory points needed to win (V1; 10 by default).
    pub vp_target: u8,
    /// V2: the robber may not hit players with 2 or fewer visible points.
    pub friendly_robber: bool,
    /// V3: resource cards are public.
    pub open_hands: bool,
    /// V4: all trading before any building in a turn.
    pub classic_phases: bool,
    /// A safeguard beyond the rules: the game ends without a winner (drawn)
    /// when turn `turn_limit` would begin and nobody has won. `None`: no
    /// limit, as in the rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u32>,
}

impl Default for GameOptions {
    fn default() -> Self {
        GameOptions {
            players: 4,
            board: BoardMode::Random,
            vp_target: 10,
            friendly_robber: false,
            open_hands: false,
            classic_phases: false,
            turn_limit: None,
        }
    }
}

impl GameOptions {
    /// Checks the options are playable; returns a message for the user if not.
    pub fn validate(&self) -> Result<(), String> {
        if !(3..=4).contains(&self.players) {
            return Err(format!("players must be 3 or 4, not {}", self.players));
        }
        if !(3..=20).contains(&self.vp_target) {
            return Err(format!(
                "vp_target must be between 3 and 20, not {}",
                self.vp_target
            ));
        }
        if let Some(limit) = self.turn_limit
            && !(TURN_LIMIT_RANGE).contains(&limit)
        {
            return Err(format!(
                "turn_limit must be between {} and {}, not {limit}",
                TURN_LIMIT_RANGE.start(),
                TURN_LIMIT_RANGE.end()
            ));
        }
        Ok(())
    }
}

/// The turn limits a game may set.
pub const TURN_LIMIT_RANGE: std::ops::RangeInclusive<u32> = 10..=10_000;
