//! `catan-protocol`: the WebSocket protocol of docs/PROTOCOL.md as types,
//! shared by the server, the load tester and the tests.
//!
//! Messages are JSON objects tagged by `"type"`: [`ClientMsg`] from a
//! client, [`ServerMsg`] from the server. Refusals carry a [`Code`], closes
//! a [`CloseReason`]. A client that must not build full views (the load
//! tester shares its cores with the server) reads server messages as a
//! [`ServerHead`]. The JSON Schemas in `docs/schema/` are generated from
//! these types ([`schema`]).
//!
//! Only types and their serde forms live here: what the server does with a
//! message (strict parsing, rate limits, metrics) stays in the server.

mod client;
mod close;
mod code;
mod head;
mod lobby;
pub mod schema;
mod server;
mod token;

pub use client::{CLIENT_TYPES, ClientMsg};
pub use close::CloseReason;
pub use code::Code;
pub use head::ServerHead;
pub use lobby::{LobbyInfo, LobbyStatus, MAX_TURN_SECONDS, SeatInfo, SeatKind, TurnTimer};
pub use server::{HistoryStep, SeatPresence, ServerMsg, ServerMsgKind};
pub use token::Token;

/// The newest protocol version, defined once: a client says the version it
/// speaks in `hello` and the server answers with it in `welcome`.
pub const PROTOCOL_VERSION: u32 = 3;

/// The oldest protocol version a server still speaks, so a page loaded
/// before an upgrade (or from a newer node of a cluster mid-upgrade) keeps
/// working. What each version changes: docs/PROTOCOL.md, "Protocol versions".
pub const OLDEST_PROTOCOL_VERSION: u32 = 1;

/// How a live `update` gives its view to a client, by protocol version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UpdateView {
    /// Version 1: the whole view, board and all.
    Whole,
    /// Version 2: the whole view but its board, which never changes (an
    /// update about a third smaller).
    WithoutBoard,
    /// Version 3: only what changed since the update before
    /// ([`catan_core::ViewChanges`]), where the client has that one; the
    /// view without its board otherwise.
    Changes,
}

impl UpdateView {
    /// The form a client of this `protocol` version is sent.
    pub fn for_protocol(protocol: u32) -> Self {
        match protocol {
            0 | 1 => Self::Whole,
            2 => Self::WithoutBoard,
            _ => Self::Changes,
        }
    }
}

/// Largest WebSocket message or frame the server reads.
pub const MAX_WS_MESSAGE: usize = 16 * 1024;
/// Longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 300;
/// Longest client request id, in characters.
pub const MAX_REQUEST_ID_CHARS: usize = 64;
