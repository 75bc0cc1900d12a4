//! What the server sends: [`ServerMsg`] and the parts only it carries.

use crate::{Code, LobbyInfo};
use catan_core::record::SeedReveal;
use catan_core::{Action, Event, Seat, View, ViewChanges, Viewer};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// One step of the game as a viewer may know it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HistoryStep {
    /// The version after this step (0: the start of the game).
    pub version: u64,
    /// Who acted (none for the start of the game).
    pub seat: Option<Seat>,
    /// Whether a stand-in acted for an absent or slow player.
    pub stand_in: bool,
    /// What happened, redacted for the viewer.
    pub events: Vec<Event>,
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
// `ServerMsgKind` names its types without their content (strum derives it,
// so it cannot miss a variant).
#[derive(
    Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema, strum::EnumDiscriminants,
)]
#[serde(tag = "type", rename_all = "snake_case")]
#[strum_discriminants(
    name(ServerMsgKind),
    doc = "The type of a server message, as its `\"type\"` tag spells it.",
    derive(Hash, Serialize, Deserialize, strum::EnumIter, strum::IntoStaticStr),
    serde(rename_all = "snake_case"),
    strum(serialize_all = "snake_case")
)]
pub enum ServerMsg {
    /// The answer to `hello`: who this connection is.
    Welcome {
        /// The protocol version this connection speaks (the client's).
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
        /// Present when the client's `hello` asked for the steps after a
        /// version it had (and the server has that version): `steps` are
        /// those after it, to be added to the client's log. Absent: `steps`
        /// are every step from the start, and replace the client's log.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        since: Option<u64>,
        /// The steps, oldest first, redacted like the live updates.
        steps: Vec<HistoryStep>,
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
        /// The new view for this viewer; from protocol 2 without its board
        /// (the snapshot's stays true all game). In protocol 3 only where
        /// `changes` is absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        view: Option<View>,
        /// Protocol 3: what changed in this viewer's view since the update
        /// (or snapshot) of the version before, in place of `view`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        changes: Option<ViewChanges>,
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
    /// The JSON text sent on the wire.
    pub fn to_text(&self) -> String {
        json_text(self)
    }

    /// This message's type.
    pub fn kind(&self) -> ServerMsgKind {
        self.into()
    }
}

impl ServerMsgKind {
    /// The `"type"` tag as sent on the wire.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// A message's JSON text. Serializing the protocol's types cannot fail
/// (every map key is a string); should it ever, the peer gets a refusal
/// that says so rather than a dropped message.
pub(crate) fn json_text(msg: &impl Serialize) -> String {
    serde_json::to_string(msg).unwrap_or_else(|e| {
        format!(r#"{{"type":"rejected","id":null,"code":"internal","message":"{e}"}}"#)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::IntoEnumIterator;

    /// The kinds' names are serde's tags, in both directions.
    #[test]
    fn kinds_are_the_serde_tags() {
        let msg = ServerMsg::Accepted {
            id: "a".into(),
            version: 3,
        };
        let v = serde_json::to_value(&msg).unwrap();
        assert_eq!(v["type"], msg.kind().as_str());
        for kind in ServerMsgKind::iter() {
            let wire = serde_json::to_value(kind).unwrap();
            assert_eq!(wire, kind.as_str());
            assert_eq!(serde_json::from_value::<ServerMsgKind>(wire).unwrap(), kind);
        }
    }
}
