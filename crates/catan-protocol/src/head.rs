//! The head of a server message ([`ServerHead`]): the fields a client
//! routes on, read without building views, events or lobbies.
//!
//! A load generator that shares its cores with the server must not spend
//! them on full views; serde skips the fields this type does not name
//! without building them.

use crate::{Code, ServerMsgKind};
use catan_core::{Action, Seat};
use serde::Deserialize;

/// The routing fields of any [`ServerMsg`](crate::ServerMsg), each present
/// only when the message's type has it: `version` (`snapshot`, `history`,
/// `update`, `accepted`, `game_over`), `seat` (`update`, `chat`),
/// `stand_in` (`update`), `legal` (`snapshot`, `update`), `id`, `code` and
/// `message` (`accepted`, `rejected`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ServerHead {
    /// The message's type.
    #[serde(rename = "type")]
    pub kind: ServerMsgKind,
    /// The game version it carries.
    #[serde(default)]
    pub version: Option<u64>,
    /// Who acted, or who spoke.
    #[serde(default)]
    pub seat: Option<Seat>,
    /// Whether a stand-in acted.
    #[serde(default)]
    pub stand_in: bool,
    /// What this connection's seat may do now.
    #[serde(default)]
    pub legal: Option<Vec<Action>>,
    /// The request id answered.
    #[serde(default)]
    pub id: Option<String>,
    /// Why a request was refused.
    #[serde(default)]
    pub code: Option<Code>,
    /// The refusal's explanation.
    #[serde(default)]
    pub message: Option<String>,
}

impl ServerHead {
    /// Reads the head of one text frame from the server.
    pub fn parse(text: &str) -> serde_json::Result<ServerHead> {
        serde_json::from_str(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ServerMsg;

    #[test]
    fn reads_updates_without_their_views() {
        let text = r#"{"type":"update","version":7,"seat":2,"stand_in":false,
            "events":[{"type":"dice_rolled","seat":2,"dice":[3,4]}],
            "view":{"anything":[1,2,{"deep":true}]},
            "legal":[{"type":"roll_dice"},{"type":"end_turn"}]}"#;
        let head = ServerHead::parse(text).unwrap();
        assert_eq!(head.kind, ServerMsgKind::Update);
        assert_eq!(head.version, Some(7));
        assert_eq!(head.seat, Some(Seat(2)));
        assert_eq!(head.legal, Some(vec![Action::RollDice, Action::EndTurn]));
        let refused = ServerMsg::Rejected {
            id: None,
            code: Code::StaleVersion,
            message: "m".into(),
        };
        let head = ServerHead::parse(&refused.to_text()).unwrap();
        assert_eq!(
            (head.kind, head.code),
            (ServerMsgKind::Rejected, Some(Code::StaleVersion))
        );
        let rules = r#"{"type":"rejected","id":"a","code":"not_your_turn","message":"m"}"#;
        assert_eq!(
            ServerHead::parse(rules).unwrap().code,
            Some(Code::Rules(catan_core::ErrorCode::NotYourTurn))
        );
        assert!(ServerHead::parse(r#"{"type":"dance"}"#).is_err());
        assert!(ServerHead::parse("not json").is_err());
    }
}
