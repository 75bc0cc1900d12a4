//! What a client sends: [`ClientMsg`].

use crate::Token;
use catan_core::{Action, Seat};
use serde::{Deserialize, Serialize};

/// A message from a client.
#[derive(
    Clone, Debug, PartialEq, Serialize, Deserialize, strum::VariantNames, schemars::JsonSchema,
)]
#[serde(tag = "type", rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ClientMsg {
    /// First message on a socket: who is connecting.
    Hello {
        /// The protocol version the client speaks; the server refuses a
        /// version it does not speak (outside the range this schema allows).
        // The Rust constants are `crate::OLDEST_PROTOCOL_VERSION` and
        // `crate::PROTOCOL_VERSION`; the schema pins the range.
        #[schemars(extend(
            "minimum" = crate::OLDEST_PROTOCOL_VERSION,
            "maximum" = crate::PROTOCOL_VERSION
        ))]
        protocol: u32,
        /// The seat token from joining; absent to watch as a spectator.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<Token>,
        /// On a reconnect: the last game version this client already has
        /// every step up to, as the same viewer. The `history` then carries
        /// only the steps after it (a long game's whole log need not be
        /// sent again to every client after a server is lost). Absent: the
        /// whole history.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        since: Option<u64>,
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
        /// The text, at most as many characters as this schema allows.
        // `crate::MAX_CHAT_CHARS`, the server's limit, pinned in the schema.
        #[schemars(length(max = crate::MAX_CHAT_CHARS))]
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

    /// The JSON text sent on the wire.
    pub fn to_text(&self) -> String {
        // Serializing these types cannot fail (every map key is a string);
        // should it ever, the empty text is answered with `bad_json`.
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// strum's names are serde's tags, so `CLIENT_TYPES` lists what the
    /// wire really carries.
    #[test]
    fn client_types_are_the_serde_tags() {
        let msgs = [
            ClientMsg::Hello {
                protocol: 1,
                token: None,
                since: None,
            },
            ClientMsg::Action {
                id: "a".into(),
                version: 0,
                seat: None,
                action: Action::EndTurn,
            },
            ClientMsg::Chat {
                id: "c".into(),
                text: "hi".into(),
            },
            ClientMsg::Resync { id: "r".into() },
            ClientMsg::TestBotOffer {
                id: "t".into(),
                bot: Seat(1),
                to: Seat(0),
            },
        ];
        let tags: Vec<String> = msgs
            .iter()
            .map(|m| {
                serde_json::to_value(m).unwrap()["type"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(tags, CLIENT_TYPES);
    }
}
