//! Test harness: a real server on 127.0.0.1:0, an HTTP client (over the
//! socket or in process) and WebSocket clients over real sockets.

#![allow(dead_code)]

use catan_protocol::PROTOCOL_VERSION;
use catan_server::{AppState, Config, MemoryJournal, serve};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async_with_config};

pub mod http;
pub use http::{Http, http};

/// How long a test waits for any one message.
pub const WAIT: Duration = Duration::from_secs(10);

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
    pub state: AppState,
    pub journal: Arc<MemoryJournal>,
}

/// Test defaults: no bot delay, big queues, generous rate limits.
pub fn test_config() -> Config {
    Config {
        bot_delay_ms: 0,
        conn_queue: 100_000,
        rate_per_sec: 1000.0,
        rate_burst: 1000,
        max_lobbies_per_client: 100,
        http_rate_per_sec: 100_000.0,
        http_rate_burst: 100_000,
        ..Config::default()
    }
}

pub async fn start(config: Config) -> Server {
    let journal = Arc::new(MemoryJournal::new());
    let state = AppState::new(config, journal.clone());
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let st = state.clone();
    tokio::spawn(async move {
        serve(listener, st, std::future::pending()).await.unwrap();
    });
    Server {
        addr,
        state,
        journal,
    }
}

/// A lobby made over HTTP.
pub struct Lobby {
    pub id: String,
    pub host: String,
}

pub async fn create_lobby(addr: impl Http, body: Value) -> Lobby {
    let (status, v) = http(addr, "POST", "/api/lobbies", None, Some(body)).await;
    assert_eq!(status, 201, "{v}");
    Lobby {
        id: v["lobby"]["id"].as_str().unwrap().to_string(),
        host: v["host_token"].as_str().unwrap().to_string(),
    }
}

/// `GET /api/lobbies/{id}`: the lobby as everyone may see it.
pub async fn lobby_info(addr: impl Http, lobby: &Lobby) -> Value {
    let (status, v) = http(
        addr,
        "GET",
        &format!("/api/lobbies/{}", lobby.id),
        None,
        None,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    v
}

pub async fn join(addr: impl Http, lobby: &Lobby, name: &str) -> (u8, String) {
    let (status, v) = http(
        addr,
        "POST",
        &format!("/api/lobbies/{}/join", lobby.id),
        None,
        Some(json!({ "name": name })),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    (
        v["seat"].as_u64().unwrap() as u8,
        v["token"].as_str().unwrap().to_string(),
    )
}

pub async fn add_bot(addr: impl Http, lobby: &Lobby, kind: &str) -> u8 {
    let (status, v) = http(
        addr,
        "POST",
        &format!("/api/lobbies/{}/bots", lobby.id),
        Some(&lobby.host),
        Some(json!({ "kind": kind })),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    v["seat"].as_u64().unwrap() as u8
}

/// A lobby created with `body` (plus no bot delay), its four seats taken by
/// bots of `kind`; not started yet, so a test can connect first.
pub async fn four_bots(addr: impl Http, mut body: Value, kind: &str) -> Lobby {
    body["bot_delay_ms"] = json!(0);
    let lobby = create_lobby(addr, body).await;
    for _ in 0..4 {
        add_bot(addr, &lobby, kind).await;
    }
    lobby
}

/// A started game of people only (named A, B, C, ...), so nothing moves
/// unless a test client acts; returns the lobby and the seat tokens by seat.
pub async fn started_people_only(addr: SocketAddr, players: usize) -> (Lobby, Vec<String>) {
    let lobby = create_lobby(
        addr,
        json!({ "name": "people", "options": { "players": players } }),
    )
    .await;
    let mut tokens = vec![String::new(); players];
    for i in 0..players {
        let name = char::from(b'A' + i as u8).to_string();
        let (seat, token) = join(addr, &lobby, &name).await;
        tokens[seat as usize] = token;
    }
    start_game(addr, &lobby).await;
    (lobby, tokens)
}

pub async fn start_game(addr: impl Http, lobby: &Lobby) {
    let (status, v) = http(
        addr,
        "POST",
        &format!("/api/lobbies/{}/start", lobby.id),
        Some(&lobby.host),
        None,
    )
    .await;
    assert_eq!(status, 200, "{v}");
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How a socket ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Closed {
    /// A close frame with this code and reason.
    Frame(u16, String),
    /// The connection ended without a close frame.
    Dropped,
}

/// A WebSocket client that records everything it receives.
pub struct Client {
    ws: Ws,
    /// Every text message received, parsed.
    pub log: Vec<Value>,
    /// Raw text of every message received.
    pub raw: Vec<String>,
    pub closed: Option<Closed>,
    next_id: u64,
    /// Latest game version seen.
    pub version: u64,
    /// Latest view seen (put together from changes in protocol 3).
    pub view: Value,
    /// Every view seen, in order, as [`Client::view`] was after each
    /// snapshot and update.
    pub views: Vec<Value>,
    /// Latest legal actions seen.
    pub legal: Vec<Value>,
}

impl Client {
    /// Opens a socket and says hello (with a seat token, or as a spectator)
    /// in the newest protocol version.
    pub async fn connect(addr: SocketAddr, lobby: &str, token: Option<&str>) -> Client {
        Client::connect_speaking(addr, lobby, token, PROTOCOL_VERSION).await
    }

    /// [`Client::connect`] in protocol version `protocol`.
    pub async fn connect_speaking(
        addr: SocketAddr,
        lobby: &str,
        token: Option<&str>,
        protocol: u32,
    ) -> Client {
        let mut c = Client::open(addr, lobby).await;
        let mut hello = json!({ "type": "hello", "protocol": protocol });
        if let Some(t) = token {
            hello["token"] = json!(t);
        }
        c.send(hello).await;
        c
    }

    /// [`Client::connect`] as a spectator that may fail: `None` when the
    /// socket is refused or closed before its welcome (the lobby is gone).
    pub async fn try_watch(addr: SocketAddr, lobby: &str) -> Option<Client> {
        let url = format!("ws://{addr}/api/lobbies/{lobby}/ws");
        let (ws, _) = connect_async_with_config(url, None, true).await.ok()?;
        let mut c = Client::over(ws);
        c.send(json!({ "type": "hello", "protocol": PROTOCOL_VERSION }))
            .await;
        loop {
            match c.recv().await? {
                v if v["type"] == "welcome" => return Some(c),
                _ => {}
            }
        }
    }

    /// Opens a socket without saying anything.
    pub async fn open(addr: SocketAddr, lobby: &str) -> Client {
        let url = format!("ws://{addr}/api/lobbies/{lobby}/ws");
        let (ws, _) = connect_async_with_config(url, None, true).await.unwrap();
        Client::over(ws)
    }

    fn over(ws: Ws) -> Client {
        Client {
            ws,
            log: Vec::new(),
            raw: Vec::new(),
            closed: None,
            next_id: 0,
            version: 0,
            view: Value::Null,
            views: Vec::new(),
            legal: Vec::new(),
        }
    }

    pub async fn send(&mut self, v: Value) {
        self.send_text(v.to_string()).await;
    }

    pub async fn send_text(&mut self, t: String) {
        let _ = self.ws.send(Message::text(t)).await;
    }

    /// A fresh request id.
    pub fn id(&mut self) -> String {
        self.next_id += 1;
        format!("r{}", self.next_id)
    }

    /// Sends an action at the latest version seen; returns its request id.
    pub async fn act(&mut self, action: Value) -> String {
        let id = self.id();
        let v = self.version;
        self.send(json!({ "type": "action", "id": id, "version": v, "action": action }))
            .await;
        id
    }

    /// The next message, or None when the socket closed (see `closed`).
    pub async fn recv(&mut self) -> Option<Value> {
        self.recv_within(WAIT).await
    }

    /// The next message within `d` (pings and other frames in between do
    /// not extend the wait; panics when none came), or None when the socket
    /// closed.
    pub async fn recv_within(&mut self, d: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + d;
        loop {
            let next = tokio::time::timeout_at(deadline, self.ws.next()).await;
            let msg = match next {
                Err(_) => panic!("no message within {d:?}; last: {:?}", self.log.last()),
                Ok(None) => {
                    self.closed.get_or_insert(Closed::Dropped);
                    return None;
                }
                Ok(Some(Err(_))) => {
                    self.closed.get_or_insert(Closed::Dropped);
                    return None;
                }
                Ok(Some(Ok(m))) => m,
            };
            match msg {
                Message::Text(t) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    self.raw.push(t.to_string());
                    self.track(&v);
                    self.log.push(v.clone());
                    return Some(v);
                }
                Message::Close(f) => {
                    self.closed = Some(match f {
                        Some(f) => Closed::Frame(f.code.into(), f.reason.to_string()),
                        None => Closed::Dropped,
                    });
                    return None;
                }
                _ => continue,
            }
        }
    }

    fn track(&mut self, v: &Value) {
        match v["type"].as_str() {
            Some("snapshot") | Some("update") => {
                let version = v["version"].as_u64().unwrap();
                match v.get("changes") {
                    // Protocol 3: only what changed since the version
                    // before, applied as the page applies it.
                    Some(changes) => {
                        assert_eq!(version, self.version + 1, "changes from a version missed");
                        apply_changes(&mut self.view, changes);
                    }
                    None => {
                        let board = self.view.get("board").cloned();
                        self.view = v["view"].clone();
                        // From protocol 2 an update leaves the board out:
                        // it is the snapshot's, all game.
                        if let (Some(board), None) = (board, self.view.get("board")) {
                            self.view["board"] = board;
                        }
                    }
                }
                self.version = version;
                self.views.push(self.view.clone());
                self.legal = v["legal"].as_array().unwrap().clone();
            }
            Some("game_over") => {
                self.version = v["version"].as_u64().unwrap();
                self.legal.clear();
            }
            _ => {}
        }
    }

    /// Everything received during `d` (stops early if the socket closes).
    pub async fn collect_for(&mut self, d: Duration) -> Vec<Value> {
        let end = tokio::time::Instant::now() + d;
        let mut out = Vec::new();
        while let Ok(Some(Ok(msg))) = tokio::time::timeout_at(end, self.ws.next()).await {
            if let Message::Text(t) = msg {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                self.raw.push(t.to_string());
                self.track(&v);
                self.log.push(v.clone());
                out.push(v);
            }
        }
        out
    }

    /// Reads until a message of type `ty` arrives.
    pub async fn until(&mut self, ty: &str) -> Value {
        loop {
            match self.recv().await {
                Some(v) if v["type"] == ty => return v,
                Some(_) => {}
                None => panic!("socket closed ({:?}) waiting for {ty}", self.closed),
            }
        }
    }

    /// Reads until the reply (`accepted` or `rejected`) to request `id`.
    pub async fn reply(&mut self, id: &str) -> Value {
        loop {
            match self.recv().await {
                Some(v)
                    if (v["type"] == "accepted" || v["type"] == "rejected") && v["id"] == id =>
                {
                    return v;
                }
                Some(_) => {}
                None => panic!("socket closed ({:?}) waiting for reply {id}", self.closed),
            }
        }
    }

    /// Reads until the socket closes; returns how.
    pub async fn until_closed(&mut self) -> Closed {
        while self.recv().await.is_some() {}
        self.closed.clone().unwrap()
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// A simple player policy for tests: roll, end the turn when possible,
/// otherwise the first legal action (opening placements, discards, robber).
pub fn simple_choice(legal: &[Value]) -> Option<Value> {
    for want in ["roll_dice", "end_turn"] {
        if let Some(a) = legal.iter().find(|a| a["type"] == want) {
            return Some(a.clone());
        }
    }
    legal.first().cloned()
}

/// Writes a protocol 3 update's `changes` over a view, the way the page
/// does (docs/PROTOCOL.md, `update`): each named field replaced, and each
/// named field of each player named by seat.
pub fn apply_changes(view: &mut Value, changes: &Value) {
    for (key, value) in changes.as_object().expect("changes are an object") {
        if key != "players" {
            view[key] = value.clone();
            continue;
        }
        for (seat, fields) in value.as_object().expect("players by seat") {
            let i: usize = seat.parse().expect("a seat number");
            for (field, v) in fields.as_object().expect("a player's changes") {
                view["players"][i][field] = v.clone();
            }
        }
    }
}
