//! The client side of the WebSocket protocol (docs/PROTOCOL.md), reduced to
//! what a load-test bot needs.
//!
//! Server messages are parsed into one flat struct whose unknown fields
//! (`view`, `events`, `lobby`) are skipped unparsed: a load generator sharing
//! two cores with the server must not spend them building full views.

use catan_core::{Action, Seat};
use serde::Deserialize;

/// The protocol version this client speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// The fields of any server message this client looks at.
#[derive(Debug, Deserialize)]
struct Raw {
    #[serde(rename = "type")]
    ty: String,
    #[serde(default)]
    version: Option<u64>,
    #[serde(default)]
    seat: Option<Seat>,
    #[serde(default)]
    stand_in: bool,
    #[serde(default)]
    legal: Option<Vec<Action>>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

/// A server message, as far as the load test cares.
#[derive(Clone, Debug, PartialEq)]
pub enum Incoming {
    /// The hello was accepted.
    Welcome,
    /// The whole game for this viewer.
    Snapshot {
        /// Actions applied so far.
        version: u64,
        /// What this seat may do.
        legal: Vec<Action>,
    },
    /// Something happened.
    Update {
        /// The version after it.
        version: u64,
        /// Who acted (none for the start).
        seat: Option<Seat>,
        /// Whether a stand-in acted.
        stand_in: bool,
        /// What this seat may do now.
        legal: Vec<Action>,
    },
    /// A request succeeded.
    Accepted {
        /// The request id.
        id: String,
        /// The version after it.
        version: u64,
    },
    /// A request was refused.
    Rejected {
        /// The request id, if any.
        id: Option<String>,
        /// The refusal code.
        code: String,
        /// The explanation.
        message: String,
    },
    /// The game ended.
    GameOver {
        /// The final version.
        version: u64,
    },
    /// Lobby, presence, chat: nothing the bot acts on.
    Other,
}

/// Parses one text frame from the server.
pub fn parse(text: &str) -> Result<Incoming, String> {
    let raw: Raw = serde_json::from_str(text).map_err(|e| format!("bad server message: {e}"))?;
    let need = |v: Option<u64>| v.ok_or_else(|| format!("{} without a version", raw.ty));
    Ok(match raw.ty.as_str() {
        "welcome" => Incoming::Welcome,
        "snapshot" => Incoming::Snapshot {
            version: need(raw.version)?,
            legal: raw.legal.unwrap_or_default(),
        },
        "update" => Incoming::Update {
            version: need(raw.version)?,
            seat: raw.seat,
            stand_in: raw.stand_in,
            legal: raw.legal.unwrap_or_default(),
        },
        "accepted" => Incoming::Accepted {
            id: raw.id.unwrap_or_default(),
            version: need(raw.version)?,
        },
        "rejected" => Incoming::Rejected {
            id: raw.id,
            code: raw.code.unwrap_or_else(|| "unknown".into()),
            message: raw.message.unwrap_or_default(),
        },
        "game_over" => Incoming::GameOver {
            version: need(raw.version)?,
        },
        _ => Incoming::Other,
    })
}

/// The `hello` message, with a seat token or none (spectator).
pub fn hello(token: Option<&str>) -> String {
    match token {
        Some(t) => serde_json::json!({"type": "hello", "protocol": PROTOCOL_VERSION, "token": t}),
        None => serde_json::json!({"type": "hello", "protocol": PROTOCOL_VERSION}),
    }
    .to_string()
}

/// An `action` message played against `version`.
pub fn action(id: &str, version: u64, action: &Action) -> String {
    serde_json::json!({"type": "action", "id": id, "version": version, "action": action})
        .to_string()
}

/// A `resync` request.
pub fn resync(id: &str) -> String {
    serde_json::json!({"type": "resync", "id": id}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_updates_without_building_views() {
        let text = r#"{"type":"update","version":7,"seat":2,"stand_in":false,
            "events":[{"type":"dice_rolled","seat":2,"dice":[3,4]}],
            "view":{"anything":[1,2,{"deep":true}]},
            "legal":[{"type":"roll_dice"},{"type":"end_turn"}]}"#;
        assert_eq!(
            parse(text).unwrap(),
            Incoming::Update {
                version: 7,
                seat: Some(Seat(2)),
                stand_in: false,
                legal: vec![Action::RollDice, Action::EndTurn],
            }
        );
        assert_eq!(
            parse(r#"{"type":"accepted","id":"a1","version":8}"#).unwrap(),
            Incoming::Accepted {
                id: "a1".into(),
                version: 8
            }
        );
        assert!(matches!(
            parse(r#"{"type":"rejected","id":null,"code":"stale_version","message":"m"}"#),
            Ok(Incoming::Rejected { id: None, .. })
        ));
        assert_eq!(
            parse(r#"{"type":"presence","seats":[],"spectators":1}"#).unwrap(),
            Incoming::Other
        );
        assert!(parse(r#"{"type":"update","seat":1}"#).is_err());
        assert!(parse("not json").is_err());
    }

    #[test]
    fn action_message_round_trips_through_the_server_parser_shape() {
        let text = action("g1-5", 12, &Action::EndTurn);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["type"], "action");
        assert_eq!(v["version"], 12);
        assert_eq!(v["action"]["type"], "end_turn");
        assert!(hello(None).contains("\"protocol\":1"));
        assert!(hello(Some("tok")).contains("\"token\":\"tok\""));
    }
}
