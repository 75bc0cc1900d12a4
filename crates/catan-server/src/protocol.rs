//! The WebSocket protocol, version 1: JSON objects tagged by `"type"`.
//!
//! docs/PROTOCOL.md shows one example of every message; the golden tests keep
//! those examples and these types in step. Parsing is two-staged so that a
//! client learns whether its text was not JSON (`bad_json`), named a message
//! type we do not know (`unknown_type`), or had the wrong fields (`bad_json`).

use crate::config::MAX_REQUEST_ID_CHARS;
use crate::error::Code;
use crate::lobby::info::LobbyInfo;
use crate::token::Token;
use catan_core::record::SeedReveal;
use catan_core::{Action, Event, Seat, View, Viewer};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The protocol version this server speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// A message from a client.
#[derive(
    Clone, Debug, PartialEq, Serialize, Deserialize, strum::VariantNames, schemars::JsonSchema,
)]
#[serde(tag = "type", rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ClientMsg {
    /// First message on a socket: who is connecting.
    Hello {
        /// Must be [`PROTOCOL_VERSION`].
        protocol: u32,
        /// The seat token from joining; absent to watch as a spectator.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<Token>,
    },
    /// Play an action for one's seat.
    Action {
        /// Client-chosen request id, echoed in the reply.
        id: String,
        /// The game version the client saw; a different one is `stale_version`.
        version: u64,
        /// The seat the client acts for (optional; must be its own).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// The action, as catan-core spells it.
        action: Action,
    },
    /// Say something to the lobby.
    Chat {
        /// Request id.
        id: String,
        /// The text (at most 300 characters).
        text: String,
    },
    /// Ask for a fresh snapshot.
    Resync {
        /// Request id.
        id: String,
    },
    /// Test hook, refused unless the server runs with `--test-hooks`: the
    /// bot at `bot` offers one card for one to `to` once in each of its
    /// turns.
    TestBotOffer {
        /// Request id.
        id: String,
        /// The bot's seat.
        bot: Seat,
        /// The seat the offer goes to.
        to: Seat,
    },
}

/// The message types a client may send (derived from [`ClientMsg`]; a
/// test pins them to serde's tags).
pub const CLIENT_TYPES: &[&str] = <ClientMsg as strum::VariantNames>::VARIANTS;

impl ClientMsg {
    /// The request id, if the message carries one.
    pub fn id(&self) -> Option<&str> {
        match self {
            ClientMsg::Hello { .. } => None,
            ClientMsg::Action { id, .. }
            | ClientMsg::Chat { id, .. }
            | ClientMsg::Resync { id }
            | ClientMsg::TestBotOffer { id, .. } => Some(id),
        }
    }
}

/// A client's text that could not be turned into a [`ClientMsg`]; the reply
/// to send.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    /// The request id, when one could be read.
    pub id: Option<String>,
    /// `bad_json` or `unknown_type`.
    pub code: Code,
    /// What was wrong.
    pub message: String,
}

/// Parses one text frame from a client.
pub fn parse_client(text: &str) -> Result<ClientMsg, ParseError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ParseError {
        id: None,
        code: Code::BadJson,
        message: format!("not valid JSON: {e}"),
    })?;
    let id = value
        .get("id")
        .and_then(|v| v.as_str())
        .filter(|s| s.chars().count() <= MAX_REQUEST_ID_CHARS)
        .map(str::to_string);
    let bad = |message: String| ParseError {
        id: id.clone(),
        code: Code::BadJson,
        message,
    };
    let Some(obj) = value.as_object() else {
        return Err(bad("a message must be a JSON object".into()));
    };
    let Some(ty) = obj.get("type").and_then(|t| t.as_str()) else {
        return Err(bad("a message needs a string field \"type\"".into()));
    };
    if !CLIENT_TYPES.contains(&ty) {
        return Err(ParseError {
            id: id.clone(),
            code: Code::UnknownType,
            message: format!(
                "unknown message type {:?}; expected one of {}",
                truncate(ty, 40),
                CLIENT_TYPES.join(", ")
            ),
        });
    }
    let msg: ClientMsg = crate::strict::from_value(value.clone())
        .map_err(|e| bad(format!("bad {ty} message: {e}")))?;
    if let Some(rid) = msg.id()
        && rid.chars().count() > MAX_REQUEST_ID_CHARS
    {
        return Err(bad(format!(
            "the request id is longer than {MAX_REQUEST_ID_CHARS} characters"
        )));
    }
    Ok(msg)
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// One seat's connection state, in a presence message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SeatPresence {
    /// The seat.
    pub seat: Seat,
    /// Whether someone (or a bot) is there now.
    pub connected: bool,
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The answer to `hello`: who this connection is.
    Welcome {
        /// The protocol version.
        protocol: u32,
        /// The lobby.
        lobby_id: Uuid,
        /// Whose eyes this connection sees through.
        you: Viewer,
    },
    /// The lobby changed (seats, status, settings).
    Lobby {
        /// The lobby as it is now.
        lobby: LobbyInfo,
    },
    /// The whole game as this viewer may see it.
    Snapshot {
        /// Number of actions applied so far.
        version: u64,
        /// The view for this connection's viewer.
        view: View,
        /// What this connection's seat may do now (empty for spectators).
        legal: Vec<Action>,
        /// With the turn timer on and the game going: milliseconds left
        /// for the current step when this message was made (a duration,
        /// not a clock time, so the client's clock does not matter).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step_time_left_ms: Option<u64>,
    },
    /// The game's steps so far as this viewer may know them (sent before
    /// each snapshot, so a reloaded page rebuilds its log).
    History {
        /// Number of actions applied so far.
        version: u64,
        /// Every step from the start, redacted like the live updates.
        steps: Vec<crate::lobby::history::HistoryStep>,
    },
    /// Something happened in the game.
    Update {
        /// The version after the change.
        version: u64,
        /// Who acted (none for the start of the game).
        seat: Option<Seat>,
        /// Whether a stand-in acted for an absent or slow player.
        stand_in: bool,
        /// What happened, as this viewer may know it.
        events: Vec<Event>,
        /// The new view for this viewer.
        view: View,
        /// What this connection's seat may do now.
        legal: Vec<Action>,
        /// With the turn timer on and the game going: milliseconds left
        /// for the step that starts with this update.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step_time_left_ms: Option<u64>,
    },

    /// A request succeeded.
    Accepted {
        /// The request id.
        id: String,
        /// The game version after it (unchanged for chat and resync).
        version: u64,
    },
    /// A request was refused; nothing changed.
    Rejected {
        /// The request id, if it could be read.
        id: Option<String>,
        /// Stable machine-readable reason.
        code: Code,
        /// Explanation for the player.
        message: String,
    },
    /// A chat line.
    Chat {
        /// The speaker's seat.
        seat: Seat,
        /// The speaker's display name.
        name: String,
        /// What was said.
        text: String,
    },
    /// Who is connected.
    Presence {
        /// Each seat.
        seats: Vec<SeatPresence>,
        /// Spectators connected.
        spectators: usize,
    },
    /// The game ended; the final state in full.
    GameOver {
        /// The final version.
        version: u64,
        /// The winner.
        winner: Option<Seat>,
        /// Everything, every hand included (R48: a finished game may be shown in full).
        view: View,
        /// The revealed seed and salt: they hash to the lobby's
        /// `seed_commitment` (docs/GAME_RECORD.md).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<SeedReveal>,
    },
}

impl ServerMsg {
    /// A refusal.
    pub fn rejected(id: Option<String>, code: Code, message: impl Into<String>) -> ServerMsg {
        crate::metrics::metrics().refused(code, crate::metrics::Via::ws);
        ServerMsg::Rejected {
            id,
            code,
            message: message.into(),
        }
    }

    /// The JSON text sent on the wire.
    pub fn to_text(&self) -> String {
        // Serializing these types cannot fail: every map key is a string.
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!(r#"{{"type":"rejected","id":null,"code":"internal","message":"{e}"}}"#)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_distinguishes_errors() {
        assert_eq!(parse_client("{nope").unwrap_err().code, Code::BadJson);
        assert_eq!(parse_client("[1]").unwrap_err().code, Code::BadJson);
        let e = parse_client(r#"{"type":"dance","id":"7"}"#).unwrap_err();
        assert_eq!((e.code, e.id.as_deref()), (Code::UnknownType, Some("7")));
        let e =
            parse_client(r#"{"type":"action","id":"8","action":{"type":"end_turn"}}"#).unwrap_err();
        assert_eq!((e.code, e.id.as_deref()), (Code::BadJson, Some("8")));
        let long = "x".repeat(65);
        let e = parse_client(&format!(r#"{{"type":"resync","id":"{long}"}}"#)).unwrap_err();
        assert_eq!((e.code, e.id), (Code::BadJson, None));
        assert!(matches!(
            parse_client(r#"{"type":"action","id":"9","version":3,"action":{"type":"end_turn"}}"#),
            Ok(ClientMsg::Action { version: 3, .. })
        ));
    }
}
