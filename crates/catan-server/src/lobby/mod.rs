//! Lobbies: one [`actor::LobbyActor`] task per lobby, reached through a
//! cloneable [`LobbyHandle`] over a bounded channel.
//!
//! The actor alone owns the seats, the game and the connections, and handles
//! one command at a time, so no lock guards game state.

pub mod actor;
mod bots;
mod conns;
pub mod env;
pub mod history;
mod manage;
mod offer_wait;
mod play;
pub mod resume;
mod room;
mod settle;
pub(crate) mod stored;
mod test_offer;
mod think;
mod update_views;

use crate::error::Refusal;
use crate::token::TokenHash;
use axum::extract::ws::Utf8Bytes;
use catan_bots::BotKind;
use catan_core::Seat;
use catan_protocol::{ClientMsg, CloseReason, Code, LobbyInfo, ServerMsg};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

/// Identifies one WebSocket connection within the server.
pub type ConnId = u64;

/// Commands a lobby actor can be sent.
pub(crate) type Reply<T> = oneshot::Sender<Result<T, Refusal>>;

/// How long a caller waits for room in a busy lobby's queue.
const SEND_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a caller waits for the lobby's answer (it may await the journal).
const REPLY_TIMEOUT: Duration = Duration::from_secs(15);
/// Commands queued per lobby.
pub(crate) const LOBBY_QUEUE: usize = 256;

/// The lobby's order to close a connection: the reason, and the reply that
/// did not fit in a full queue (sent after what is queued, before the close
/// frame, so that no admitted request goes unanswered).
#[derive(Clone, Debug)]
pub struct CloseOrder {
    /// Why.
    pub reason: CloseReason,
    /// A last reply to deliver before the close frame.
    pub last: Option<Utf8Bytes>,
}

/// A WebSocket asking to join a lobby's connections.
pub(crate) struct ConnectRequest {
    pub conn: ConnId,
    /// Hash of the seat token; `None` for a spectator.
    pub token: Option<TokenHash>,
    /// The last version the client has every step up to (its `hello`'s
    /// `since`): its history starts after it.
    pub since: Option<u64>,
    /// The protocol version the client said hello in (one the server speaks).
    pub protocol: u32,
    /// The connection's bounded outbound queue.
    pub tx: mpsc::Sender<Utf8Bytes>,
    /// Tells the connection to close, with a reason.
    pub close: oneshot::Sender<CloseOrder>,
}

/// What a lobby actor is asked to do.
pub(crate) enum Command {
    Info {
        reply: Reply<LobbyInfo>,
    },
    Join {
        name: String,
        seat: Option<Seat>,
        token: TokenHash,
        reply: Reply<(Seat, LobbyInfo)>,
    },
    Leave {
        token: TokenHash,
        reply: Reply<LobbyInfo>,
    },
    AddBot {
        host: TokenHash,
        kind: BotKind,
        seat: Option<Seat>,
        reply: Reply<(Seat, LobbyInfo)>,
    },
    RemoveBot {
        host: TokenHash,
        seat: Seat,
        reply: Reply<LobbyInfo>,
    },
    Start {
        host: TokenHash,
        reply: Reply<LobbyInfo>,
    },
    /// Records the waiting room as it is (a cluster's new lobby, once its
    /// lease is taken).
    SaveRoom {
        reply: Reply<()>,
    },
    Connect {
        req: ConnectRequest,
        reply: Reply<()>,
    },
    Disconnect {
        conn: ConnId,
    },
    Client {
        conn: ConnId,
        msg: ClientMsg,
    },
    /// An answer the socket task made itself (malformed input, rate limit),
    /// queued behind the answers to the connection's earlier requests.
    Reply {
        conn: ConnId,
        /// Boxed: a server message is large next to the other commands.
        msg: Box<ServerMsg>,
    },
    /// The socket task wants its connection closed once every earlier
    /// request is answered.
    Close {
        conn: ConnId,
        reason: CloseReason,
    },
    /// The lobby stops serving here: its sockets are closed with `reason`
    /// and its task ends (its game stays in the log).
    Stop {
        reason: CloseReason,
    },
}

/// A cloneable way to reach one lobby's actor.
#[derive(Clone, Debug)]
pub struct LobbyHandle {
    id: Uuid,
    tx: mpsc::Sender<Command>,
}

fn gone() -> Refusal {
    Refusal::new(Code::LobbyNotFound, "this lobby no longer exists")
}

impl LobbyHandle {
    pub(crate) fn new(id: Uuid, tx: mpsc::Sender<Command>) -> Self {
        LobbyHandle { id, tx }
    }

    /// The lobby id.
    pub fn id(&self) -> Uuid {
        self.id
    }

    /// Whether the lobby's task has ended (nothing sent to it is handled).
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    async fn send(&self, cmd: Command) -> Result<(), Refusal> {
        match tokio::time::timeout(SEND_TIMEOUT, self.tx.send(cmd)).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(gone()),
            Err(_) => Err(Refusal::new(
                Code::ServerBusy,
                "the lobby is too busy; try again",
            )),
        }
    }

    async fn request<T>(&self, make: impl FnOnce(Reply<T>) -> Command) -> Result<T, Refusal> {
        let (tx, rx) = oneshot::channel();
        self.send(make(tx)).await?;
        match tokio::time::timeout(REPLY_TIMEOUT, rx).await {
            Ok(Ok(r)) => r,
            Ok(Err(_)) => Err(gone()),
            Err(_) => Err(Refusal::new(
                Code::ServerBusy,
                "the lobby did not answer in time",
            )),
        }
    }

    /// The lobby as it is now.
    pub async fn info(&self) -> Result<LobbyInfo, Refusal> {
        self.request(|reply| Command::Info { reply }).await
    }

    /// Seats a person (the seat token is hashed by the caller).
    pub async fn join(
        &self,
        name: String,
        seat: Option<Seat>,
        token: TokenHash,
    ) -> Result<(Seat, LobbyInfo), Refusal> {
        self.request(|reply| Command::Join {
            name,
            seat,
            token,
            reply,
        })
        .await
    }

    /// Frees the seat of the token's holder (a bot takes over a running game).
    pub async fn leave(&self, token: TokenHash) -> Result<LobbyInfo, Refusal> {
        self.request(|reply| Command::Leave { token, reply }).await
    }

    /// Seats a bot (host only).
    pub async fn add_bot(
        &self,
        host: TokenHash,
        kind: BotKind,
        seat: Option<Seat>,
    ) -> Result<(Seat, LobbyInfo), Refusal> {
        self.request(|reply| Command::AddBot {
            host,
            kind,
            seat,
            reply,
        })
        .await
    }

    /// Removes a bot (host only, before the start).
    pub async fn remove_bot(&self, host: TokenHash, seat: Seat) -> Result<LobbyInfo, Refusal> {
        self.request(|reply| Command::RemoveBot { host, seat, reply })
            .await
    }

    /// Starts the game (host only, every seat filled).
    pub async fn start(&self, host: TokenHash) -> Result<LobbyInfo, Refusal> {
        self.request(|reply| Command::Start { host, reply }).await
    }

    /// Records the waiting room as it is now, so that it outlives this
    /// node (a cluster's new lobby: called once its lease is taken).
    pub async fn save_room(&self) -> Result<(), Refusal> {
        self.request(|reply| Command::SaveRoom { reply }).await
    }

    pub(crate) async fn connect(&self, req: ConnectRequest) -> Result<(), Refusal> {
        self.request(|reply| Command::Connect { req, reply }).await
    }

    /// Forwards a client message; waits for room in the queue (back-pressure
    /// on that one socket, never on the actor).
    pub(crate) async fn client(&self, conn: ConnId, msg: ClientMsg) -> Result<(), Refusal> {
        self.tx
            .send(Command::Client { conn, msg })
            .await
            .map_err(|_| gone())
    }

    /// Queues an answer the socket task made itself, in order with the
    /// lobby's answers to this connection.
    pub(crate) async fn reply(&self, conn: ConnId, msg: ServerMsg) -> Result<(), Refusal> {
        self.tx
            .send(Command::Reply {
                conn,
                msg: Box::new(msg),
            })
            .await
            .map_err(|_| gone())
    }

    /// Asks the lobby to close a connection after answering what it sent.
    pub(crate) async fn close(&self, conn: ConnId, reason: CloseReason) -> Result<(), Refusal> {
        self.tx
            .send(Command::Close { conn, reason })
            .await
            .map_err(|_| gone())
    }

    /// Stops the lobby's task, closing its sockets with `reason`; its game
    /// stays in the log for whoever serves it next.
    pub async fn stop(&self, reason: CloseReason) -> Result<(), Refusal> {
        self.send(Command::Stop { reason }).await
    }

    pub(crate) async fn disconnect(&self, conn: ConnId) {
        // If the actor is gone there is nothing to tell.
        let _ = self.tx.send(Command::Disconnect { conn }).await;
    }
}
