//! The server's integration tests, in one test binary: one link instead of
//! one per file, and one pool of test threads for all of them, so a file
//! with a single long test no longer leaves a core idle while it runs.
//! Each file is a module named after it (`cargo test -p catan-server --test
//! server cluster::` runs one). `tests/metrics.rs` stays a binary of its own:
//! the metrics it checks are process-wide.

/// In-process server, HTTP and WebSocket clients.
mod common;
/// Throw-away databases, the real server binary, bot-driven players.
#[path = "common/persist.rs"]
mod harness;

mod absent;
mod bad_input;
mod bot_game;
mod bot_kinds;
mod bot_offer;
mod bot_only;
mod bot_think;
mod bots_trade;
mod cluster;
mod cluster_room;
mod doc_codes;
mod history;
mod http_api;
mod in_doubt;
mod journal_pool;
mod lobby_panic;
mod openapi;
mod ops;
mod persist_crash;
mod persist_failure;
mod persist_record;
mod persist_saved;
mod persist_seats;
mod persist_stall;
mod persist_tampered;
mod persist_unload;
mod play;
mod protocol_versions;
mod public_files;
mod reconnect;
mod redaction;
mod resume;
mod socket_close;
mod step_time;
mod test_bot_offer;
