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

/// The protocol version, defined once: a client says it in `hello` and the
/// server answers it in `welcome`.
pub const PROTOCOL_VERSION: u32 = 1;

/// Largest WebSocket message or frame the server reads.
pub const MAX_WS_MESSAGE: usize = 16 * 1024;
/// Longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 300;
/// Longest client request id, in characters.
pub const MAX_REQUEST_ID_CHARS: usize = 64;
