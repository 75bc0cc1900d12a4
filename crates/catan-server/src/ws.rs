//! One task per WebSocket: the hello handshake, then a reader and a writer
//! running side by side over the two halves of the socket.
//!
//! The reader parses and rate-limits what the client sends. Well-formed
//! requests go to the lobby actor; the answers the reader makes itself
//! (malformed input, rate limit) go through the actor too, so that every
//! message is answered exactly once and in the order it was sent. The
//! writer alone writes: the actor's queue, close orders, heartbeats and
//! shutdown. Every write has a deadline, so a peer that stops reading cannot
//! park the task, and a close is a lingering one: what is queued is sent,
//! then the close frame, then the reader waits a moment for the client's
//! own close before the connection is dropped (an abrupt drop makes the
//! client see 1006 instead of the code it was sent).

use crate::api::{ClientIp, lobby};
use crate::error::Refusal;
use crate::frames::{parse_client, rejected};
use crate::lobby::{CloseOrder, ConnId, ConnectRequest, LobbyHandle};
use crate::ratelimit::{RateLimiter, Verdict};
use crate::state::AppState;
use crate::token::TokenSecret;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use catan_protocol::CloseReason;
use catan_protocol::Code;
use catan_protocol::{
    ClientMsg, MAX_REQUEST_ID_CHARS, MAX_WS_MESSAGE, OLDEST_PROTOCOL_VERSION, PROTOCOL_VERSION,
    ServerMsg,
};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, mpsc, oneshot, watch};
use tokio::time::Instant;
use tracing::Instrument;

/// How long a new socket has to say hello.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);
/// How long, after our close frame, we wait for the client's.
const LINGER: Duration = Duration::from_secs(3);

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
    if let Some(url) = elsewhere(&st, &id).await {
        // Another node serves this lobby: say where, in the close frame.
        let reason = crate::cluster::route::moved_reason(&url);
        return Ok(ws
            .on_upgrade(move |mut socket| async move {
                let _ = socket
                    .send(close_msg(CloseReason::MOVED.code, &reason))
                    .await;
            })
            .into_response());
    }
    let handle = lobby(&st, &id).await?;
    // Sockets that have not said hello are bounded: they cost a file and a
    // task each before anyone is known.
    let permit = st.unauthenticated_permit().ok_or_else(|| {
        Refusal::new(
            Code::ServerBusy,
            "too many connections are opening at once; try again",
        )
    })?;
    // Small read buffer and unbuffered writes: messages are capped at 16 KiB,
    // and the library's default 128 KiB read buffer is cleared on every read
    // (the largest cost per socket in docs/PERFORMANCE.md's profile).
    Ok(ws
        .max_message_size(MAX_WS_MESSAGE)
        .max_frame_size(MAX_WS_MESSAGE)
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .on_upgrade(move |socket| run(socket, handle, st, permit))
        .into_response())
}

/// In a cluster, the URL of the node that serves lobby `id` when it is not
/// this one (taking it over first when nobody serves it).
async fn elsewhere(st: &AppState, id: &str) -> Option<String> {
    let cluster = st.cluster.as_ref()?;
    let id = uuid::Uuid::parse_str(id).ok()?;
    match cluster.locate(id).await {
        Ok(crate::cluster::Located::There(url)) => Some(url),
        _ => None,
    }
}

/// Close codes of the handshake, besides [`CloseReason`]'s.
const BAD_HELLO: u16 = 4003;

fn close_msg(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from(reason.to_string()),
    }))
}

fn text(msg: &ServerMsg) -> Message {
    Message::Text(Utf8Bytes::from(msg.to_text()))
}

/// The request id of a message refused before it was parsed (rate limit),
/// when one can be read.
fn request_id(text: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct IdOnly {
        id: Option<String>,
    }
    serde_json::from_str::<IdOnly>(text)
        .ok()
        .and_then(|m| m.id)
        .filter(|id| id.chars().count() <= MAX_REQUEST_ID_CHARS)
}

/// What one frame from the client asks of us.
enum Incoming {
    /// A well-formed request.
    Msg(ClientMsg),
    /// Answer this ourselves.
    Answer(Box<ServerMsg>),
    /// Nothing to do (pings, pongs).
    Nothing,
    /// Close with this reason once earlier requests are answered.
    Close(CloseReason),
    /// The socket is gone, or the client closed it.
    Gone,
}

/// Parses and rate-limits frames.
struct Reader {
    limiter: RateLimiter,
}

impl Reader {
    fn read(&mut self, frame: Option<Result<Message, axum::Error>>) -> Incoming {
        let msg = match frame {
            None => return Incoming::Gone,
            Some(Err(e)) => {
                let text = e.to_string();
                tracing::debug!(error = %text, "socket read failed");
                if text.contains("too long")
                    || text.contains("too big")
                    || text.contains("Space limit")
                {
                    return Incoming::Close(CloseReason::TOO_BIG);
                }
                return Incoming::Gone;
            }
            Some(Ok(m)) => m,
        };
        let text = match msg {
            Message::Text(t) => t,
            Message::Binary(_) => {
                return match self.charge(None) {
                    Some(refusal) => refusal,
                    None => Incoming::Answer(Box::new(rejected(
                        None,
                        Code::BadJson,
                        "binary frames are not supported; send JSON text",
                    ))),
                };
            }
            Message::Ping(_) | Message::Pong(_) => return Incoming::Nothing,
            Message::Close(_) => return Incoming::Gone,
        };
        if let Some(refusal) = self.charge(Some(text.as_str())) {
            return refusal;
        }
        match parse_client(text.as_str()) {
            Ok(m) => Incoming::Msg(m),
            Err(e) => Incoming::Answer(Box::new(rejected(e.id, e.code, e.message))),
        }
    }

    /// Charges one message to the bucket: `None` to go on, or what to do
    /// instead (a refusal carrying the message's request id, or a close).
    fn charge(&mut self, text: Option<&str>) -> Option<Incoming> {
        match self.limiter.check(Instant::now().into_std()) {
            Verdict::Allow => None,
            Verdict::Limited => Some(Incoming::Answer(Box::new(rejected(
                text.and_then(request_id),
                Code::RateLimited,
                "too many messages; slow down",
            )))),
            Verdict::Flood => Some(Incoming::Close(CloseReason::FLOOD)),
        }
    }
}

/// Runs one WebSocket until it closes.
pub async fn run(
    socket: WebSocket,
    handle: LobbyHandle,
    st: AppState,
    permit: OwnedSemaphorePermit,
) {
    let conn = st.next_conn_id();
    let _open = st.socket_opened();
    let span = tracing::info_span!("ws", lobby_id = %handle.id(), conn);
    serve(socket, handle, st, conn, permit)
        .instrument(span)
        .await
}

/// Sends one message on the whole socket within the write deadline.
async fn send_timed(socket: &mut WebSocket, msg: Message, limit: Duration) -> bool {
    matches!(
        tokio::time::timeout(limit, socket.send(msg)).await,
        Ok(Ok(()))
    )
}

async fn serve(
    mut socket: WebSocket,
    handle: LobbyHandle,
    st: AppState,
    conn: ConnId,
    permit: OwnedSemaphorePermit,
) {
    let cfg = st.config.clone();
    let write_limit = cfg.write_timeout();
    let mut reader = Reader {
        limiter: RateLimiter::new(cfg.rate_burst, cfg.rate_per_sec, cfg.flood_strikes),
    };
    let mut shutdown = st.shutdown_signal();

    // 1. Hello: nothing is forwarded yet, so answers go straight out.
    let hello_deadline = Instant::now() + HELLO_TIMEOUT;
    let (token, since, protocol) = loop {
        let frame = tokio::select! {
            f = socket.recv() => f,
            _ = tokio::time::sleep_until(hello_deadline) => {
                send_timed(&mut socket, close_msg(BAD_HELLO, "no hello in time"), write_limit).await;
                return;
            }
            _ = shutdown.changed() => {
                let r = CloseReason::GOING_AWAY;
                send_timed(&mut socket, close_msg(r.code, r.reason), write_limit).await;
                return;
            }
        };
        let answer = match reader.read(frame) {
            Incoming::Msg(ClientMsg::Hello {
                protocol,
                token,
                since,
            }) => {
                if !(OLDEST_PROTOCOL_VERSION..=PROTOCOL_VERSION).contains(&protocol) {
                    let msg = rejected(
                        None,
                        Code::UnsupportedProtocol,
                        format!(
                            "this server speaks protocol {OLDEST_PROTOCOL_VERSION} to {PROTOCOL_VERSION}"
                        ),
                    );
                    send_timed(&mut socket, text(&msg), write_limit).await;
                    send_timed(
                        &mut socket,
                        close_msg(BAD_HELLO, "unsupported protocol"),
                        write_limit,
                    )
                    .await;
                    return;
                }
                break (token, since, protocol);
            }
            Incoming::Msg(other) => rejected(
                other.id().map(str::to_string),
                Code::HelloRequired,
                "send hello first",
            ),
            Incoming::Answer(msg) => *msg,
            Incoming::Nothing => continue,
            Incoming::Close(r) => {
                if send_timed(&mut socket, close_msg(r.code, r.reason), write_limit).await
                    && r.code == CloseReason::TOO_BIG.code
                {
                    // The rest of the frame is unread: see `hold_unread`.
                    hold_unread().await;
                }
                return;
            }
            Incoming::Gone => return,
        };
        if !send_timed(&mut socket, text(&answer), write_limit).await {
            return;
        }
    };

    // 2. Join the lobby's connections.
    let (tx, rx) = mpsc::channel::<Utf8Bytes>(cfg.conn_queue.max(8));
    let (close_tx, close_rx) = oneshot::channel::<CloseOrder>();
    let req = ConnectRequest {
        conn,
        token: token.as_ref().map(|t| t.hash()),
        since,
        protocol,
        tx,
        close: close_tx,
    };
    drop(token);
    if let Err(e) = handle.connect(req).await {
        send_timed(
            &mut socket,
            text(&rejected(None, e.code, e.message)),
            write_limit,
        )
        .await;
        send_timed(
            &mut socket,
            close_msg(BAD_HELLO, "connection refused"),
            write_limit,
        )
        .await;
        return;
    }
    drop(permit);

    // 3. Reader and writer side by side until both are done.
    let (sink, stream) = socket.split();
    let epoch = Instant::now();
    let last_seen = AtomicU64::new(0);
    let (state_tx, state_rx) = watch::channel(WriterState::Open);
    let (gone_tx, gone_rx) = watch::channel(false);
    let writer = Writer {
        sink,
        rx,
        close_rx,
        shutdown,
        write_limit,
        heartbeat: cfg.heartbeat(),
        dead_after: cfg.dead_socket(),
        epoch,
        last_seen: &last_seen,
        peer_gone: gone_rx,
        state: state_tx,
    };
    let reading = read_loop(
        stream, reader, &handle, conn, epoch, &last_seen, state_rx, gone_tx,
    );
    let writing = async {
        writer.run().await;
        // The connection is over for the lobby once the writer is done,
        // even while the reader still lingers for the client's close.
        handle.disconnect(conn).await;
    };
    tokio::join!(writing, reading);
}

/// What the writer has done, as the reader needs to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WriterState {
    /// Still writing.
    Open,
    /// Sent its close frame: the reader lingers for the client's close.
    Closed,
    /// Gave up on a peer that does not read: drop the connection now.
    Abandoned,
}

fn millis_since(epoch: Instant) -> u64 {
    u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
}

#[allow(clippy::too_many_arguments)]
async fn read_loop(
    mut stream: SplitStream<WebSocket>,
    mut reader: Reader,
    handle: &LobbyHandle,
    conn: ConnId,
    epoch: Instant,
    last_seen: &AtomicU64,
    mut writer: watch::Receiver<WriterState>,
    gone: watch::Sender<bool>,
) {
    // Once we asked for a close, later frames are read but not handled.
    let mut closing = false;
    // A read failed (a frame over the size limit): nothing more can be read.
    let mut unreadable = false;
    let mut linger_until: Option<Instant> = None;
    loop {
        let linger = async {
            match linger_until {
                Some(t) => tokio::time::sleep_until(t).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            frame = stream.next() => {
                if frame.is_some() {
                    last_seen.store(millis_since(epoch), Ordering::Relaxed);
                }
                unreadable |= matches!(frame, Some(Err(_)));
                if closing || linger_until.is_some() {
                    match frame {
                        None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                        Some(Ok(_)) => continue,
                    }
                }
                let forwarded = match reader.read(frame) {
                    Incoming::Msg(msg) => handle.client(conn, msg).await,
                    Incoming::Answer(msg) => handle.reply(conn, *msg).await,
                    Incoming::Nothing => Ok(()),
                    Incoming::Close(reason) => {
                        closing = true;
                        handle.close(conn, reason).await
                    }
                    Incoming::Gone => break,
                };
                // The lobby is gone: the writer sees its queue end and closes.
                if forwarded.is_err() {
                    closing = true;
                }
            }
            changed = writer.changed(), if linger_until.is_none() => {
                let state = *writer.borrow();
                match (changed, state) {
                    (Err(_), _) | (_, WriterState::Abandoned) => break,
                    (_, WriterState::Closed) => {
                        linger_until.get_or_insert(Instant::now() + LINGER);
                    }
                    (_, WriterState::Open) => {}
                }
            }
            _ = linger => break,
        }
    }
    // The socket ended after we asked the lobby to close it (a message too
    // big, a flood): the writer still sends the answers and the close frame
    // it can, so wait for it rather than telling it the peer is gone.
    if closing && (linger_until.is_none() || unreadable) {
        let sent = writer
            .wait_for(|s| *s != WriterState::Open)
            .await
            .is_ok_and(|s| *s == WriterState::Closed);
        if sent && unreadable {
            hold_unread().await;
        }
    }
    gone.send_replace(true);
}

/// Keeps a connection whose client data can no longer be read open for the
/// linger time after our close frame. A frame over the size limit ends the
/// reader with the rest of that frame unread, and a socket closed with
/// unread data makes the kernel reset the connection: the reset can reach
/// the browser before it has read our close frame (or while it answers it),
/// and the page then sees 1006 instead of 1009. Held open, the browser
/// reads the close frame, answers it and closes its end; dropping the
/// connection later costs nothing.
async fn hold_unread() {
    tokio::time::sleep(LINGER).await;
}

/// The half that writes.
/// Most messages one flush writes (a bound on what a write deadline covers).
const WRITE_BATCH: usize = 64;

struct Writer<'a> {
    sink: SplitSink<WebSocket, Message>,
    rx: mpsc::Receiver<Utf8Bytes>,
    close_rx: oneshot::Receiver<CloseOrder>,
    shutdown: watch::Receiver<bool>,
    write_limit: Duration,
    heartbeat: Duration,
    dead_after: Duration,
    epoch: Instant,
    last_seen: &'a AtomicU64,
    peer_gone: watch::Receiver<bool>,
    state: watch::Sender<WriterState>,
}

/// How the writer's loop ended.
enum End {
    /// Close with this order (flush what is queued first).
    Close(CloseOrder),
    /// The reader saw the client go; nothing more to write.
    PeerGone,
    /// A write did not finish in time or failed.
    Abandon,
}

impl Writer<'_> {
    async fn send(&mut self, msg: Message) -> bool {
        matches!(
            tokio::time::timeout(self.write_limit, self.sink.send(msg)).await,
            Ok(Ok(()))
        )
    }

    /// Writes `first` and what is queued behind it with one flush, so an
    /// action's reply and its update, or a bot's quick moves, leave in one
    /// write: one system call, and one wakeup at the other end, instead of
    /// one per message (on a busy node sending is most of its work; see
    /// docs/PERFORMANCE.md). All within one write deadline.
    async fn send_queued(&mut self, first: Utf8Bytes) -> bool {
        let limit = self.write_limit;
        let (sink, rx) = (&mut self.sink, &mut self.rx);
        let write = async {
            sink.feed(Message::Text(first)).await?;
            for _ in 1..WRITE_BATCH {
                let Ok(t) = rx.try_recv() else { break };
                sink.feed(Message::Text(t)).await?;
            }
            sink.flush().await
        };
        matches!(tokio::time::timeout(limit, write).await, Ok(Ok(())))
    }

    async fn run(mut self) {
        let mut beat = tokio::time::interval(self.heartbeat);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        beat.tick().await;
        let end = loop {
            tokio::select! {
                biased;
                _ = self.peer_gone.changed() => break End::PeerGone,
                _ = self.shutdown.changed() => break End::Close(CloseOrder {
                    reason: CloseReason::GOING_AWAY,
                    last: None,
                }),
                order = &mut self.close_rx => break End::Close(order.unwrap_or(CloseOrder {
                    // The lobby dropped the connection without an order: its
                    // task failed.
                    reason: CloseReason::LOBBY_FAILED,
                    last: None,
                })),
                out = self.rx.recv() => match out {
                    Some(t) => {
                        if !self.send_queued(t).await {
                            break End::Abandon;
                        }
                    }
                    None => break End::Close(CloseOrder {
                        reason: CloseReason::LOBBY_FAILED,
                        last: None,
                    }),
                },
                _ = beat.tick() => {
                    let seen = Duration::from_millis(self.last_seen.load(Ordering::Relaxed));
                    if self.epoch.elapsed().saturating_sub(seen) > self.dead_after {
                        tracing::info!("no heartbeat; closing");
                        break End::Close(CloseOrder { reason: CloseReason::DEAD, last: None });
                    }
                    if !self.send(Message::Ping(Default::default())).await {
                        break End::Abandon;
                    }
                }
            }
        };
        match end {
            End::PeerGone => {}
            End::Abandon => {
                tracing::info!("peer does not read; dropping the connection");
                crate::metrics::metrics().write_timeouts.inc();
                self.state.send_replace(WriterState::Abandoned);
            }
            End::Close(order) => {
                let done = self.close(order).await;
                self.state.send_replace(if done {
                    WriterState::Closed
                } else {
                    WriterState::Abandoned
                });
            }
        }
    }

    /// Sends what is queued, the order's last reply and the close frame,
    /// all within one write deadline.
    async fn close(&mut self, order: CloseOrder) -> bool {
        let deadline = Instant::now() + self.write_limit;
        let mut pending: Vec<Message> = Vec::new();
        while let Ok(t) = self.rx.try_recv() {
            pending.push(Message::Text(t));
        }
        pending.extend(order.last.map(Message::Text));
        pending.push(close_msg(order.reason.code, order.reason.reason));
        for msg in pending {
            match tokio::time::timeout_at(deadline, self.sink.send(msg)).await {
                Ok(Ok(())) => {}
                _ => return false,
            }
        }
        true
    }
}
