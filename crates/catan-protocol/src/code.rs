//! Why the server refuses a request: [`Code`], one closed list for the
//! WebSocket's `rejected` and the HTTP API's error bodies alike.
//!
//! A closed enum makes a typo a compile error rather than a silent string;
//! the server maps each code to its HTTP status in one exhaustive match.

use serde::{Deserialize, Serialize};

/// Every reason the server refuses a request, as sent on the wire
/// (snake_case): the server's own reasons and the rules engine's.
// The engine's reasons are the variant `Code::Rules`, sent untagged.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumIter,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Code {
    /// The text was not JSON, or not the message or body documented.
    BadJson,
    /// A query string was malformed or out of range.
    BadQuery,
    /// A WebSocket message of a type the protocol does not have.
    UnknownType,
    /// The client speaks another protocol version.
    UnsupportedProtocol,
    /// A socket must say hello before anything else.
    HelloRequired,
    /// A socket said hello twice.
    AlreadyConnected,
    /// No lobby with that id exists (any more).
    LobbyNotFound,
    /// No saved game (or other resource) with that id.
    NotFound,
    /// The lobby has no such seat.
    NoSuchSeat,
    /// The token matches no seat of this lobby.
    InvalidToken,
    /// The request needs a token and has none.
    TokenRequired,
    /// Only the lobby's host may do that.
    NotHost,
    /// The page's origin may not open game sockets.
    OriginNotAllowed,
    /// The client created as many lobbies as one client may hold.
    TooManyLobbies,
    /// The client sends faster than its rate limit.
    RateLimited,
    /// The server or the lobby is too busy; try again.
    ServerBusy,
    /// The game log cannot be written or read right now; nothing changed.
    StorageUnavailable,
    /// The server is stopping.
    ShuttingDown,
    /// The lobby is served by another node of the cluster now (or is moving
    /// there): ask `GET /api/lobbies/{id}` where, and try again there.
    LobbyMoved,
    /// Every seat is taken.
    LobbyFull,
    /// The seat asked for is taken.
    SeatTaken,
    /// The game has started already.
    AlreadyStarted,
    /// Not every seat is filled.
    NotReady,
    /// The game has not started yet.
    GameNotStarted,
    /// A saved game can be stepped through only once it is over.
    GameNotFinished,
    /// The seat named holds no bot.
    NotABot,
    /// The lobby has as many spectators as it allows.
    SpectatorsFull,
    /// A display or lobby name breaks the naming rules.
    InvalidName,
    /// Lobby options out of range or contradictory.
    InvalidOptions,
    /// The connection acts for a seat it does not hold.
    NotYourSeat,
    /// The action was sent against another game version.
    StaleVersion,
    /// An empty chat line.
    EmptyChat,
    /// A chat line over the length limit.
    ChatTooLong,
    /// An HTTP request (its body included) did not arrive in time.
    RequestTimeout,
    /// A bug on the server's side; nothing changed.
    Internal,
    /// The rules engine refused the action (its own code).
    #[serde(untagged)]
    #[strum(disabled)]
    Rules(catan_core::ErrorCode),
}

impl Code {
    /// The snake_case code as sent on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Rules(c) => c.as_str(),
            other => other.into(),
        }
    }
}

impl From<catan_core::ErrorCode> for Code {
    fn from(c: catan_core::ErrorCode) -> Code {
        Code::Rules(c)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::IntoEnumIterator;

    /// The hand-free name table (strum) and serde spell every code alike,
    /// and both parse back to the same code.
    #[test]
    fn names_agree_with_serde() {
        for code in Code::iter() {
            let wire = serde_json::to_value(code).expect("serialize");
            assert_eq!(wire, serde_json::Value::from(code.as_str()), "{code:?}");
            let back: Code = serde_json::from_value(wire).expect("parse back");
            assert_eq!(back, code);
        }
        let rules = Code::Rules(catan_core::ErrorCode::NotYourTurn);
        assert_eq!(serde_json::to_string(&rules).unwrap(), "\"not_your_turn\"");
        assert_eq!(
            serde_json::from_str::<Code>("\"not_your_turn\"").unwrap(),
            rules
        );
        assert!(serde_json::from_str::<Code>("\"no_such_code\"").is_err());
    }

    /// Codes that name the rules engine's reasons never collide with the
    /// server's own (one string, one meaning).
    #[test]
    fn server_and_engine_codes_are_disjoint() {
        let server: Vec<&str> = Code::iter().map(Code::as_str).collect();
        for c in catan_core::ErrorCode::iter() {
            assert!(!server.contains(&c.as_str()), "{c:?} is also a server code");
        }
    }
}
