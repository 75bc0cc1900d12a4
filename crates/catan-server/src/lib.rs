//! The game server (work in progress).
