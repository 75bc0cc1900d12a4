//! The load tester's side of the WebSocket protocol (whose types are the
//! `catan-protocol` crate's): what a bot sends, and the digest of a server
//! message it acts on.
//!
//! Server messages are read as a [`ServerHead`], which skips `view`,
//! `events` and `lobby` unparsed: a load generator sharing two cores with
//! the server must not spend them building full views.

use catan_core::{Action, Seat};
use catan_protocol::{ClientMsg, Code, PROTOCOL_VERSION, ServerHead, ServerMsgKind, Token};

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
        code: Code,
        /// The explanation.
        message: String,
    },
    /// The game ended.
    GameOver {
        /// The final version.
        version: u64,
    },
    /// Lobby, presence, chat, history: nothing the bot acts on.
    Other,
}

/// Parses one text frame from the server.
pub fn parse(text: &str) -> Result<Incoming, String> {
    let head = ServerHead::parse(text).map_err(|e| format!("bad server message: {e}"))?;
    let kind = head.kind;
    let need = |v: Option<u64>| v.ok_or_else(|| format!("{} without a version", kind.as_str()));
    Ok(match kind {
        ServerMsgKind::Welcome => Incoming::Welcome,
        ServerMsgKind::Snapshot => Incoming::Snapshot {
            version: need(head.version)?,
            legal: head.legal.unwrap_or_default(),
        },
        ServerMsgKind::Update => Incoming::Update {
            version: need(head.version)?,
            seat: head.seat,
            stand_in: head.stand_in,
            legal: head.legal.unwrap_or_default(),
        },
        ServerMsgKind::Accepted => Incoming::Accepted {
            id: head.id.unwrap_or_default(),
            version: need(head.version)?,
        },
        ServerMsgKind::Rejected => Incoming::Rejected {
            id: head.id,
            code: head.code.ok_or("rejected without a code")?,
            message: head.message.unwrap_or_default(),
        },
        ServerMsgKind::GameOver => Incoming::GameOver {
            version: need(head.version)?,
        },
        ServerMsgKind::Lobby
        | ServerMsgKind::History
        | ServerMsgKind::Chat
        | ServerMsgKind::Presence => Incoming::Other,
    })
}

/// The `hello` message, with a seat token or none (spectator).
pub fn hello(token: Option<&str>) -> String {
    ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        token: token.map(Token::from_client),
    }
    .to_text()
}

/// An `action` message played against `version`.
pub fn action(id: &str, version: u64, action: &Action) -> String {
    ClientMsg::Action {
        id: id.to_string(),
        version,
        seat: None,
        action: *action,
    }
    .to_text()
}

/// A `resync` request.
pub fn resync(id: &str) -> String {
    ClientMsg::Resync { id: id.to_string() }.to_text()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ServerHead`'s own tests show that views are skipped; these show
    /// what the bot makes of each type.
    #[test]
    fn digests_each_server_message() {
        let text = r#"{"type":"update","version":7,"seat":2,"stand_in":true,
            "events":[],"view":{},"legal":[{"type":"end_turn"}]}"#;
        assert_eq!(
            parse(text).unwrap(),
            Incoming::Update {
                version: 7,
                seat: Some(Seat(2)),
                stand_in: true,
                legal: vec![Action::EndTurn],
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
            Ok(Incoming::Rejected {
                id: None,
                code: Code::StaleVersion,
                ..
            })
        ));
        assert_eq!(
            parse(r#"{"type":"presence","seats":[],"spectators":1}"#).unwrap(),
            Incoming::Other
        );
        assert!(parse(r#"{"type":"update","seat":1}"#).is_err());
        assert!(parse("not json").is_err());
    }

    #[test]
    fn sends_the_protocol_crates_client_messages() {
        let text = action("g1-5", 12, &Action::EndTurn);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["type"], "action");
        assert_eq!(v["version"], 12);
        assert_eq!(v["action"]["type"], "end_turn");
        assert!(hello(None).contains(&format!("\"protocol\":{PROTOCOL_VERSION}")));
        assert!(hello(Some("tok")).contains("\"token\":\"tok\""));
        assert_eq!(resync("r1"), r#"{"type":"resync","id":"r1"}"#);
    }
}
