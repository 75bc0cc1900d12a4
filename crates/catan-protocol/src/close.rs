//! Why the server closes a socket: [`CloseReason`], a WebSocket close code
//! and its reason text (docs/PROTOCOL.md, "Close codes"). 4000-4999 are this
//! application's; the others are the WebSocket standard's.

/// Why the server closes a socket: a WebSocket close code and reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CloseReason {
    /// The close code (4000-4999 are this application's).
    pub code: u16,
    /// Human-readable reason.
    pub reason: &'static str,
}

impl CloseReason {
    /// A newer connection took over the seat.
    pub const REPLACED: CloseReason = CloseReason {
        code: 4001,
        reason: "replaced by a newer connection for this seat",
    };
    /// The player left the seat.
    pub const LEFT: CloseReason = CloseReason {
        code: 4002,
        reason: "you left this seat",
    };
    /// The connection's queue overflowed.
    pub const TOO_SLOW: CloseReason = CloseReason {
        code: 4008,
        reason: "too slow to keep up; reconnect to resync",
    };
    /// The lobby was closed.
    pub const LOBBY_CLOSED: CloseReason = CloseReason {
        code: 4004,
        reason: "the lobby was closed",
    };
    /// The server is stopping.
    pub const GOING_AWAY: CloseReason = CloseReason {
        code: 1001,
        reason: "server shutting down",
    };
    /// The client kept sending while refused for rate.
    pub const FLOOD: CloseReason = CloseReason {
        code: 1008,
        reason: "rate limit exceeded",
    };
    /// A message over the size limit.
    pub const TOO_BIG: CloseReason = CloseReason {
        code: 1009,
        reason: "message too big (16 KiB at most)",
    };
    /// The lobby's task failed; its game comes back from the log when the
    /// client reconnects.
    pub const LOBBY_FAILED: CloseReason = CloseReason {
        code: 1011,
        reason: "the lobby failed and restarts; reconnect",
    };
    /// Another server serves the lobby now (this one stopped or lost its
    /// lease): ask `GET /api/lobbies/{id}` where, and reconnect there.
    pub const MOVED: CloseReason = CloseReason {
        code: 4010,
        reason: "the lobby moved to another server; ask where and reconnect",
    };
    /// The socket was silent for too long.
    pub const DEAD: CloseReason = CloseReason {
        code: 4009,
        reason: "no heartbeat",
    };

    /// The socket said no hello within the handshake's time.
    pub const NO_HELLO: CloseReason = CloseReason {
        code: 4003,
        reason: "no hello in time",
    };
    /// The hello named a protocol version this server does not speak.
    pub const UNSUPPORTED_PROTOCOL: CloseReason = CloseReason {
        code: 4003,
        reason: "unsupported protocol",
    };
    /// The lobby refused the hello (its `rejected` says why).
    pub const REFUSED: CloseReason = CloseReason {
        code: 4003,
        reason: "connection refused",
    };
}
