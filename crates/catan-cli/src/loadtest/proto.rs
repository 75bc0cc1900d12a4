//! The load tester's side of the WebSocket protocol (whose types are the
//! `catan-protocol` crate's): what a bot sends, and the check of a server
//! message's head before the bot acts on it.
//!
//! Server messages are read as a [`ServerHead`], which skips `view`,
//! `events` and `lobby` unparsed: a load generator sharing two cores with
//! the server must not spend them building full views.

use catan_core::Action;
use catan_protocol::{ClientMsg, PROTOCOL_VERSION, ServerHead, ServerMsgKind, Token};

/// Reads one text frame from the server: its head, once it is known to
/// carry what its kind needs (a version on every game step, a code on a
/// refusal), so that the driver can act on it without checking again.
pub fn parse(text: &str) -> Result<ServerHead, String> {
    let head = ServerHead::parse(text).map_err(|e| format!("bad server message: {e}"))?;
    let versioned = matches!(
        head.kind,
        ServerMsgKind::Snapshot
            | ServerMsgKind::Update
            | ServerMsgKind::Accepted
            | ServerMsgKind::GameOver
    );
    if versioned && head.version.is_none() {
        return Err(format!("{} without a version", head.kind.as_str()));
    }
    if head.kind == ServerMsgKind::Rejected && head.code.is_none() {
        return Err("rejected without a code".into());
    }
    Ok(head)
}

/// The `hello` message, with a seat token or none (spectator), and on a
/// reconnect the last version the client has every step up to (`since`),
/// as the browser sends it: the history then holds only the steps after it.
pub fn hello(token: Option<&str>, since: Option<u64>) -> String {
    ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        token: token.map(Token::from_client),
        since,
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
    use catan_core::Seat;
    use catan_protocol::Code;

    /// `ServerHead`'s own tests show that views are skipped; this shows
    /// which heads the bot takes and which it refuses.
    #[test]
    fn checks_each_server_message() {
        let text = r#"{"type":"update","version":7,"seat":2,"stand_in":true,
            "events":[],"view":{},"legal":[{"type":"end_turn"}]}"#;
        let head = parse(text).unwrap();
        assert_eq!(head.kind, ServerMsgKind::Update);
        assert_eq!((head.version, head.seat), (Some(7), Some(Seat(2))));
        assert!(head.stand_in);
        assert_eq!(head.legal, Some(vec![Action::EndTurn]));
        let head = parse(r#"{"type":"accepted","id":"a1","version":8}"#).unwrap();
        assert_eq!((head.id.as_deref(), head.version), (Some("a1"), Some(8)));
        let head =
            parse(r#"{"type":"rejected","id":null,"code":"stale_version","message":"m"}"#).unwrap();
        assert_eq!((head.id, head.code), (None, Some(Code::StaleVersion)));
        let head = parse(r#"{"type":"presence","seats":[],"spectators":1}"#).unwrap();
        assert_eq!(head.kind, ServerMsgKind::Presence);
        assert!(parse(r#"{"type":"update","seat":1}"#).is_err());
        assert!(parse(r#"{"type":"rejected","id":"a2","message":"m"}"#).is_err());
        assert!(parse("not json").is_err());
    }

    #[test]
    fn sends_the_protocol_crates_client_messages() {
        let text = action("g1-5", 12, &Action::EndTurn);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["type"], "action");
        assert_eq!(v["version"], 12);
        assert_eq!(v["action"]["type"], "end_turn");
        assert!(hello(None, None).contains(&format!("\"protocol\":{PROTOCOL_VERSION}")));
        assert!(!hello(None, None).contains("since"));
        assert!(hello(Some("tok"), None).contains("\"token\":\"tok\""));
        assert!(hello(Some("tok"), Some(41)).contains("\"since\":41"));
        assert_eq!(resync("r1"), r#"{"type":"resync","id":"r1"}"#);
    }
}
