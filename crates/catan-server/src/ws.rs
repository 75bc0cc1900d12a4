//! One task per WebSocket: the hello handshake, then a loop over the socket,
//! the connection's outbound queue, close orders, heartbeats and shutdown.
//!
//! This task parses and rate-limits what the client sends and answers
//! malformed input itself; well-formed requests go to the lobby actor, whose
//! replies arrive through the outbound queue.

use crate::api::{ClientIp, lobby};
use crate::config::MAX_WS_MESSAGE;
use crate::error::{Code, Refusal};
use crate::lobby::{CloseReason, ConnId, ConnectRequest, LobbyHandle};
use crate::protocol::{ClientMsg, PROTOCOL_VERSION, ServerMsg, parse_client};
use crate::ratelimit::{RateLimiter, Verdict};
use crate::state::AppState;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;
use tracing::Instrument;

/// How long a new socket has to say hello.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// `GET /api/lobbies/{id}/ws`: upgrades to a WebSocket.
pub async fn upgrade(
    State(st): State<AppState>,
    Path(id): Path<String>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, Refusal> {
    if !st.config.allowed_origins.is_empty() {
        let origin = headers.get("origin").and_then(|o| o.to_str().ok());
        if !origin.is_some_and(|o| st.config.allowed_origins.iter().any(|a| a == o)) {
            tracing::info!(?ip, ?origin, "WebSocket refused: origin not allowed");
            return Err(Refusal::new(
                Code::OriginNotAllowed,
                "this page's origin may not open game sockets",
            ));
        }
    }
    let handle = lobby(&st, &id).await?;
    // Small read buffer and unbuffered writes: messages are capped at 16 KiB,
    // and the library's default 128 KiB read buffer is cleared on every read
    // (the largest cost per socket in docs/PERFORMANCE.md's profile).
    Ok(ws
        .max_message_size(MAX_WS_MESSAGE)
        .max_frame_size(MAX_WS_MESSAGE)
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .on_upgrade(move |socket| run(socket, handle, st))
        .into_response())
}

/// Close codes this module uses besides [`CloseReason`]'s.
mod codes {
    pub const GOING_AWAY: u16 = 1001;
    pub const POLICY: u16 = 1008;
    pub const TOO_BIG: u16 = 1009;
    pub const BAD_HELLO: u16 = 4003;
    pub const DEAD: u16 = 4009;
}

async fn close(socket: &mut WebSocket, code: u16, reason: &str) {
    let frame = CloseFrame {
        code,
        reason: Utf8Bytes::from(reason.to_string()),
    };
    // The peer may be gone already; closing is best effort.
    let _ = socket.send(Message::Close(Some(frame))).await;
}

async fn send(socket: &mut WebSocket, msg: &ServerMsg) -> bool {
    socket
        .send(Message::Text(Utf8Bytes::from(msg.to_text())))
        .await
        .is_ok()
}

/// What the read side produced.
enum Incoming {
    Msg(ClientMsg),
    /// Already answered; keep going.
    Handled,
    /// Close with this code and reason.
    Close(u16, &'static str),
    /// The socket is gone.
    Gone,
}

struct Reader {
    limiter: RateLimiter,
    last_seen: Instant,
}

impl Reader {
    async fn read(
        &mut self,
        socket: &mut WebSocket,
        frame: Option<Result<Message, axum::Error>>,
    ) -> Incoming {
        let msg = match frame {
            None => return Incoming::Gone,
            Some(Err(e)) => {
                let text = e.to_string();
                tracing::debug!(error = %text, "socket read failed");
                if text.contains("too long")
                    || text.contains("too big")
                    || text.contains("Space limit")
                {
                    return Incoming::Close(codes::TOO_BIG, "message too big (16 KiB at most)");
                }
                return Incoming::Gone;
            }
            Some(Ok(m)) => m,
        };
        self.last_seen = Instant::now();
        let text = match msg {
            Message::Text(t) => t,
            Message::Binary(_) => {
                match self.charge(socket).await {
                    Charge::Go => {}
                    Charge::Dropped => return Incoming::Handled,
                    Charge::Flood => return Incoming::Close(codes::POLICY, "rate limit exceeded"),
                }
                send(
                    socket,
                    &ServerMsg::rejected(
                        None,
                        Code::BadJson,
                        "binary frames are not supported; send JSON text",
                    ),
                )
                .await;
                return Incoming::Handled;
            }
            Message::Ping(_) | Message::Pong(_) => return Incoming::Handled,
            Message::Close(_) => return Incoming::Gone,
        };
        match self.charge(socket).await {
            Charge::Go => {}
            Charge::Dropped => return Incoming::Handled,
            Charge::Flood => return Incoming::Close(codes::POLICY, "rate limit exceeded"),
        }
        match parse_client(text.as_str()) {
            Ok(m) => Incoming::Msg(m),
            Err(e) => {
                send(socket, &ServerMsg::rejected(e.id, e.code, e.message)).await;
                Incoming::Handled
            }
        }
    }

    /// Charges one message to the bucket; a refused message is answered here.
    async fn charge(&mut self, socket: &mut WebSocket) -> Charge {
        match self.limiter.check(Instant::now().into_std()) {
            Verdict::Allow => Charge::Go,
            Verdict::Limited => {
                send(
                    socket,
                    &ServerMsg::rejected(None, Code::RateLimited, "too many messages; slow down"),
                )
                .await;
                Charge::Dropped
            }
            Verdict::Flood => Charge::Flood,
        }
    }
}

/// The rate limiter's decision on one message.
enum Charge {
    /// Handle it.
    Go,
    /// Refused and answered; drop it.
    Dropped,
    /// The client floods; close.
    Flood,
}

/// Runs one WebSocket until it closes.
pub async fn run(socket: WebSocket, handle: LobbyHandle, st: AppState) {
    let conn = st.next_conn_id();
    let span = tracing::info_span!("ws", lobby_id = %handle.id(), conn);
    serve(socket, handle, st, conn).instrument(span).await
}

async fn serve(mut socket: WebSocket, handle: LobbyHandle, st: AppState, conn: ConnId) {
    let cfg = st.config.clone();
    let mut reader = Reader {
        limiter: RateLimiter::new(cfg.rate_burst, cfg.rate_per_sec, cfg.flood_strikes),
        last_seen: Instant::now(),
    };
    let mut shutdown = st.shutdown_signal();

    // 1. Hello.
    let hello_deadline = Instant::now() + HELLO_TIMEOUT;
    let token = loop {
        let frame = tokio::select! {
            f = socket.recv() => f,
            _ = tokio::time::sleep_until(hello_deadline) => {
                close(&mut socket, codes::BAD_HELLO, "no hello in time").await;
                return;
            }
            _ = shutdown.changed() => {
                close(&mut socket, codes::GOING_AWAY, "server shutting down").await;
                return;
            }
        };
        match reader.read(&mut socket, frame).await {
            Incoming::Msg(ClientMsg::Hello { protocol, token }) => {
                if protocol != PROTOCOL_VERSION {
                    send(
                        &mut socket,
                        &ServerMsg::rejected(
                            None,
                            Code::UnsupportedProtocol,
                            format!("this server speaks protocol {PROTOCOL_VERSION}"),
                        ),
                    )
                    .await;
                    close(&mut socket, codes::BAD_HELLO, "unsupported protocol").await;
                    return;
                }
                break token;
            }
            Incoming::Msg(other) => {
                let id = other.id().map(str::to_string);
                send(
                    &mut socket,
                    &ServerMsg::rejected(id, Code::HelloRequired, "send hello first"),
                )
                .await;
            }
            Incoming::Handled => {}
            Incoming::Close(code, reason) => {
                close(&mut socket, code, reason).await;
                return;
            }
            Incoming::Gone => return,
        }
    };

    // 2. Join the lobby's connections.
    let (tx, mut rx) = mpsc::channel::<Utf8Bytes>(cfg.conn_queue.max(8));
    let (close_tx, mut close_rx) = oneshot::channel::<CloseReason>();
    let req = ConnectRequest {
        conn,
        token: token.as_ref().map(|t| t.hash()),
        tx,
        close: close_tx,
    };
    drop(token);
    if let Err(e) = handle.connect(req).await {
        send(&mut socket, &ServerMsg::rejected(None, e.code, e.message)).await;
        close(&mut socket, codes::BAD_HELLO, "connection refused").await;
        return;
    }

    // 3. The loop.
    let mut heartbeat = tokio::time::interval(cfg.heartbeat());
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            biased;
            _ = shutdown.changed() => {
                close(&mut socket, codes::GOING_AWAY, "server shutting down").await;
                break;
            }
            reason = &mut close_rx => {
                let r = reason.unwrap_or(CloseReason::LOBBY_CLOSED);
                // Flush what the actor queued before the order to close.
                while let Ok(text) = rx.try_recv() {
                    if socket.send(Message::Text(text)).await.is_err() {
                        break;
                    }
                }
                close(&mut socket, r.code, r.reason).await;
                break;
            }
            out = rx.recv() => match out {
                Some(text) => {
                    if socket.send(Message::Text(text)).await.is_err() {
                        break;
                    }
                }
                None => {
                    close(&mut socket, CloseReason::LOBBY_CLOSED.code, CloseReason::LOBBY_CLOSED.reason).await;
                    break;
                }
            },
            frame = socket.recv() => match reader.read(&mut socket, frame).await {
                Incoming::Msg(msg) => {
                    if handle.client(conn, msg).await.is_err() {
                        close(&mut socket, CloseReason::LOBBY_CLOSED.code, CloseReason::LOBBY_CLOSED.reason).await;
                        break;
                    }
                }
                Incoming::Handled => {}
                Incoming::Close(code, reason) => {
                    close(&mut socket, code, reason).await;
                    break;
                }
                Incoming::Gone => break,
            },
            _ = heartbeat.tick() => {
                if reader.last_seen.elapsed() > cfg.dead_socket() {
                    tracing::info!(conn, "no heartbeat; closing");
                    close(&mut socket, codes::DEAD, "no heartbeat").await;
                    break;
                }
                if socket.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
        }
    }
    handle.disconnect(conn).await;
}
