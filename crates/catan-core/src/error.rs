//! Why an action was refused: a stable code and a message a player understands.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Stable machine-readable reasons for refusing an action.
#[derive(
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Debug,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumIter,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ErrorCode {
    /// The game has ended.
    GameOver,
    /// The seat does not exist in this game.
    InvalidSeat,
    /// It is another seat's turn.
    NotYourTurn,
    /// The action does not fit the current step of the turn.
    WrongPhase,
    /// A vertex id is out of range.
    InvalidVertex,
    /// An edge id is out of range.
    InvalidEdge,
    /// A hex id is out of range.
    InvalidHex,
    /// Someone already built there.
    Occupied,
    /// Too close to another settlement or city (R22).
    DistanceRule,
    /// Not connected to the builder's network (R23-R24, R13).
    NotConnected,
    /// The player lacks the cards.
    InsufficientResources,
    /// No piece of that kind left in supply (R4, R25).
    NoPiecesLeft,
    /// A city must replace one's own settlement (R25).
    NotYourSettlement,
    /// The development deck is empty (R31).
    DeckEmpty,
    /// A development card was already played this turn (R34).
    DevCardAlreadyPlayed,
    /// The player holds no such playable card.
    NoSuchCard,
    /// The only such card was bought this turn (R32).
    CardBoughtThisTurn,
    /// The robber must move to a different hex (R19b).
    RobberMustMove,
    /// The friendly robber protects that hex (V2).
    FriendlyRobber,
    /// The victim named cannot be robbed there.
    InvalidVictim,
    /// A victim must be named when someone can be robbed.
    VictimRequired,
    /// The discard has the wrong number of cards (R19a).
    WrongDiscardCount,
    /// This seat owes no discard.
    NoDiscardOwed,
    /// The bank does not hold the cards asked for.
    BankShortage,
    /// The trade's terms break R27/R30 or the bank rate.
    InvalidTrade,
    /// No open offer has that id.
    OfferNotFound,
    /// The offer was not made to this seat.
    NotOfferedToYou,
    /// That seat has not accepted the offer.
    NotAccepted,
    /// Only the offer's maker may do that.
    NotOfferMaker,
    /// V4: trading is over once building started this turn.
    TradingAfterBuilding,
    /// A list field has too many entries.
    TooManyItems,
    /// Invention names cards wrongly (R37).
    InvalidInvention,
}

impl ErrorCode {
    /// The snake_case code (the same spelling as serde's, pinned by a test).
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// A refused action. Nothing in the game changed.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ActionError {
    /// The stable reason.
    pub code: ErrorCode,
    /// Explanation for the player.
    pub message: String,
}

impl ActionError {
    /// A refusal with a message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ActionError {
            code,
            message: message.into(),
        }
    }
    /// The stable snake_case code.
    pub fn code(&self) -> &'static str {
        self.code.as_str()
    }
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message)
    }
}

impl std::error::Error for ActionError {}

/// Builds an `Err(ActionError)` with a formatted message.
macro_rules! refuse {
    ($code:ident, $($arg:tt)*) => {
        return Err($crate::error::ActionError::new($crate::error::ErrorCode::$code, format!($($arg)*)))
    };
}
// Inside the crate only: the engine's shorthand, not part of its API.
pub(crate) use refuse;

#[cfg(test)]
mod tests {
    use super::*;
    use strum::IntoEnumIterator;

    #[test]
    fn codes_are_spelled_as_serde_spells_them() {
        for code in ErrorCode::iter() {
            let wire = serde_json::to_value(code).expect("serialize");
            assert_eq!(wire, serde_json::Value::from(code.as_str()), "{code:?}");
        }
    }
}
