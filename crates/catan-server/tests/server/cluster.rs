//! Three real `catan-server` processes on loopback ports over one
//! PostgreSQL database (issue 13, docs/CLUSTER.md):
//! - a lobby made on one node is playable through every node's API, and a
//!   WebSocket opened on the wrong node is closed with 4010 naming the owner;
//! - a node killed with SIGKILL mid-game: its game resumes on another node,
//!   every player's client finds it by itself and sees what it saw before,
//!   the game plays to the end, and its log has no gap and no duplicate;
//! - a node paused with SIGSTOP past its lease and resumed: the game was
//!   taken over meanwhile, the old owner's append is refused, it stops
//!   serving the lobby, and the log does not fork;
//! - a rolling restart (SIGTERM on each node in turn) under play: no action
//!   lost, every client back on its own;
//! - a waiting room (not yet started) outlives a SIGKILL of its node and a
//!   drain: its person's client finds it again with the same seats, and
//!   the host starts the game on the third node;
//! - a forwarded request counts against its client's address at the owner,
//!   not against the forwarding node's, and only a node can say so;
//! - a game unloaded while idle stays unloaded until a client asks for it
//!   (no node's reaper resumes it unasked);
//! - a node whose main database pool is full keeps its leases (the beat
//!   has a pool of its own);
//! - a node whose renewals hang stops serving with time to spare before
//!   its leases expire;
//! - a node whose renewals each take longer than a beat (but less than
//!   the lease) keeps its leases;
//! - a killed node's lobbies are taken over before its lease could run
//!   out (its database session closed with it), and a live node whose
//!   session ends gives its lobbies up and comes back;
//! - a lone node paused past its lease and resumed, with nobody to take
//!   its lobbies over meanwhile, keeps them and its clients.
//! - a burst of requests forwarded from one node to another leaves at most
//!   a small pool of connections open between them.

use crate::harness;

use catan_bots::{Bot, BotKind, make_bot};
use catan_core::record::{GameRecord, verify};
use catan_core::{Action, View};
use futures_util::{SinkExt, StreamExt};
use harness::{
    Backend, Player, ServerProcess, TestDb, Via, create_lobby_on, free_port, http, http_with,
    started_lobby_via, waits_only_for_people,
};
use serde_json::{Value, json};
use sqlx::{Connection, Executor, PgConnection};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

/// The lease time the nodes run with: short, so that failover is quick.
pub(crate) const LEASE_MS: u64 = 1500;
/// Longest a test waits for one thing it expects.
const WAIT: Duration = Duration::from_secs(30);

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Three nodes named a, b, c on their own ports.
async fn three_nodes(db: &TestDb) -> Vec<ServerProcess> {
    let mut nodes = Vec::new();
    for (i, name) in ["a", "b", "c"].iter().enumerate() {
        let port = free_port().await;
        nodes.push(ServerProcess::start_node(db, i as u32, port, name, LEASE_MS).await);
    }
    nodes
}

pub(crate) fn url_of(addr: SocketAddr) -> String {
    format!("http://{addr}")
}

pub(crate) fn addr_of(url: &str) -> SocketAddr {
    url.trim_start_matches("http://").parse().unwrap()
}

/// Creates a lobby on `host_node` with `humans` people (joined through
/// `join_node`) and `bots` bots, and starts it; its id and the people's
/// (seat, token).
async fn game_on(
    host_node: SocketAddr,
    join_node: SocketAddr,
    humans: &[&str],
    bots: usize,
    bot_delay_ms: u64,
) -> (String, Vec<(u8, String)>) {
    let create = json!({
        "name": "Cluster",
        "bot_delay_ms": bot_delay_ms,
        "options": { "players": humans.len() + bots },
    });
    started_lobby_via(host_node, join_node, create, humans, bots).await
}

/// Waits until `nodes` together hold `lobbies` lobbies by the node list
/// (each node's count at its last beat).
pub(crate) async fn served_by(nodes: &[SocketAddr], lobbies: usize) {
    // A bound for a hang, not a time goal (the reaper looks every beat).
    let give_up = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(
            Instant::now() < give_up,
            "the survivors never came to hold {lobbies} lobbies"
        );
        if held_by(nodes).await >= lobbies as i64 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// How many lobbies `nodes` hold together by the node list (each node's
/// count at its last beat).
pub(crate) async fn held_by(nodes: &[SocketAddr]) -> i64 {
    let (st, v) = http(nodes[0], "GET", "/api/nodes", None, None).await;
    assert_eq!(st, 200, "{v}");
    v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| nodes.contains(&addr_of(n["url"].as_str().unwrap())))
        .map(|n| n["lobbies"].as_i64().unwrap())
        .sum()
}

/// Where a lobby lives, asked of the first of `nodes` that answers.
async fn locate(nodes: &[SocketAddr], lobby: &str) -> Option<SocketAddr> {
    for &n in nodes {
        // A node that is down fails the request (the harness's client
        // panics, inside this task): ask the next.
        let path = format!("/api/lobbies/{lobby}");
        let ask = tokio::spawn(async move { http(n, "GET", &path, None, None).await });
        let Ok(Ok((st, v))) = tokio::time::timeout(Duration::from_secs(5), ask).await else {
            continue;
        };
        if st == 200
            && let Some(url) = v["node_url"].as_str()
        {
            return Some(addr_of(url));
        }
    }
    None
}

/// Where a lobby lives, asked as a reconnecting client asks
/// (docs/CLUSTER.md): the first node that answers says by itself, unless it
/// names `lost`, the node this client just lost (the node asked may not
/// know yet that it died); then that node is asked for the whole lobby,
/// which it forwards to the owner.
async fn locate_after_losing(
    nodes: &[SocketAddr],
    lobby: &str,
    lost: SocketAddr,
) -> Option<SocketAddr> {
    for &n in nodes {
        let path = format!("/api/lobbies/{lobby}/node");
        let ask = tokio::spawn(async move { http(n, "GET", &path, None, None).await });
        let Ok(Ok((st, v))) = tokio::time::timeout(Duration::from_secs(5), ask).await else {
            continue;
        };
        let Some(at) = v["node_url"].as_str().filter(|_| st == 200).map(addr_of) else {
            continue;
        };
        if at != lost {
            return Some(at);
        }
        if let Some(at) = locate(&[n], lobby).await {
            return Some(at);
        }
    }
    None
}

/// A player's client that finds its lobby by itself: on a dropped socket
/// or a 4010 close it asks any node where the lobby lives and reconnects
/// there, as the browser client and `catan loadtest` do.
struct Roamer {
    lobby: String,
    seat: u8,
    token: String,
    ws: Option<Ws>,
    /// The node it is connected to.
    node: SocketAddr,
    version: u64,
    view: Value,
    legal: Vec<Value>,
    seats: Value,
    over: Option<Value>,
    bot: Box<dyn Bot>,
    pending: Option<String>,
    wait_for: u64,
    next_id: u64,
    /// Reconnects made.
    reconnects: u32,
    /// Codes of this seat's refused actions.
    refusals: Vec<String>,
    /// The view last heard before each reconnect, and its version.
    before: Option<(u64, Value)>,
}

/// How a read ended.
enum Read {
    Msg(Value),
    /// Closed with this code (or none).
    Closed(Option<u16>, String),
}

impl Roamer {
    async fn join(node: SocketAddr, lobby: &str, seat: u8, token: &str) -> Roamer {
        let mut r = Roamer {
            lobby: lobby.to_string(),
            seat,
            token: token.to_string(),
            ws: None,
            node,
            version: 0,
            view: Value::Null,
            legal: Vec::new(),
            seats: Value::Null,
            over: None,
            bot: make_bot(BotKind::Normal, u64::from(seat) + 11),
            pending: None,
            wait_for: 0,
            next_id: 0,
            reconnects: 0,
            refusals: Vec::new(),
            before: None,
        };
        r.open(&[node]).await;
        r
    }

    /// Connects to `self.node` (following 4010 closes), says hello and
    /// reads to the first snapshot; relocates through `nodes` when the node
    /// does not answer.
    async fn open(&mut self, nodes: &[SocketAddr]) {
        let deadline = Instant::now() + WAIT;
        loop {
            assert!(
                Instant::now() < deadline,
                "seat {}: no way back in",
                self.seat
            );
            let url = format!("ws://{}/api/lobbies/{}/ws", self.node, self.lobby);
            let Ok(Ok((ws, _))) =
                tokio::time::timeout(Duration::from_secs(5), connect_async(url)).await
            else {
                self.relocate(nodes).await;
                continue;
            };
            self.ws = Some(ws);
            self.send(json!({ "type": "hello", "protocol": 1, "token": self.token }))
                .await;
            loop {
                match self.read(Duration::from_secs(10)).await {
                    // A game's state, or a room not yet started (which has
                    // no game state to send).
                    Read::Msg(v) if v["type"] == "snapshot" => return,
                    Read::Msg(v) if v["type"] == "lobby" && v["lobby"]["status"] == "waiting" => {
                        return;
                    }
                    Read::Msg(_) => {}
                    Read::Closed(Some(4010), reason) => {
                        // "moved to <url>": go there.
                        match reason.strip_prefix("moved to ") {
                            Some(url) => self.node = addr_of(url),
                            None => self.relocate(nodes).await,
                        }
                        break;
                    }
                    Read::Closed(..) => {
                        tokio::time::sleep(Duration::from_millis(200)).await;
                        self.relocate(nodes).await;
                        break;
                    }
                }
            }
        }
    }

    async fn relocate(&mut self, nodes: &[SocketAddr]) {
        if let Some(n) = locate_after_losing(nodes, &self.lobby, self.node).await {
            self.node = n;
        } else {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    async fn send(&mut self, v: Value) {
        if let Some(ws) = self.ws.as_mut() {
            // A failed send shows up as a closed socket on the next read.
            let _ = ws.send(Message::text(v.to_string())).await;
        }
    }

    async fn read(&mut self, d: Duration) -> Read {
        let Some(ws) = self.ws.as_mut() else {
            return Read::Closed(None, String::new());
        };
        loop {
            match tokio::time::timeout(d, ws.next()).await {
                Err(_) => panic!(
                    "seat {}: nothing within {d:?} at {}",
                    self.seat, self.version
                ),
                Ok(Some(Ok(Message::Text(t)))) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    self.track(&v);
                    return Read::Msg(v);
                }
                Ok(Some(Ok(Message::Close(f)))) => {
                    self.ws = None;
                    return match f {
                        Some(f) => Read::Closed(Some(f.code.into()), f.reason.to_string()),
                        None => Read::Closed(None, String::new()),
                    };
                }
                Ok(Some(Ok(_))) => {}
                Ok(_) => {
                    self.ws = None;
                    return Read::Closed(None, String::new());
                }
            }
        }
    }

    fn track(&mut self, v: &Value) {
        match v["type"].as_str() {
            Some("snapshot") | Some("update") => {
                self.version = v["version"].as_u64().unwrap();
                self.view = v["view"].clone();
                self.legal = v["legal"].as_array().unwrap().clone();
            }
            Some("lobby") => self.seats = v["lobby"]["seats"].clone(),
            Some("game_over") => {
                self.version = v["version"].as_u64().unwrap();
                self.legal.clear();
                self.over = Some(v.clone());
            }
            Some("accepted") if self.pending.as_deref() == v["id"].as_str() => {
                self.pending = None;
                self.wait_for = v["version"].as_u64().unwrap();
            }
            Some("rejected") if self.pending.as_deref() == v["id"].as_str() => {
                self.pending = None;
                self.refusals
                    .push(v["code"].as_str().unwrap_or("").to_string());
            }
            _ => {}
        }
    }

    fn choice(&mut self) -> Option<Value> {
        if self.legal.is_empty() || self.over.is_some() || self.version < self.wait_for {
            return None;
        }
        // The engine lets a seat answer an offer again (or change its
        // answer); a person answers each offer once.
        let answered = |offer: &Value| {
            self.view["offers"].as_array().is_some_and(|os| {
                os.iter().any(|o| {
                    o["id"] == *offer
                        && ["accepted", "declined"].iter().any(|k| {
                            o[k].as_array()
                                .is_some_and(|s| s.contains(&json!(self.seat)))
                        })
                })
            })
        };
        let open: Vec<Value> = self
            .legal
            .iter()
            .filter(|a| {
                !(["accept_trade", "decline_trade"].contains(&a["type"].as_str().unwrap_or(""))
                    && answered(&a["offer"]))
            })
            .cloned()
            .collect();
        if open.is_empty() {
            return None;
        }
        let view: View = serde_json::from_value(self.view.clone()).unwrap();
        let legal: Vec<Action> = serde_json::from_value(json!(open)).unwrap();
        self.bot
            .choose(&view, &legal)
            .map(|a| serde_json::to_value(a).unwrap())
            .or_else(|| open.first().cloned())
    }

    async fn act(&mut self, action: Value) -> String {
        self.next_id += 1;
        let id = format!("s{}a{}", self.seat, self.next_id);
        let msg = json!({ "type": "action", "id": id, "version": self.version, "action": action });
        self.send(msg).await;
        self.pending = Some(id.clone());
        id
    }

    /// Whether only people can move the game on now.
    fn waits_only_for_people(&self) -> bool {
        waits_only_for_people(&self.view, &self.seats)
    }

    /// Plays until the game is over (or the version reaches `stop_at` and
    /// only people can move it on), reconnecting by itself.
    async fn play(mut self, nodes: Vec<SocketAddr>, stop_at: Option<u64>) -> Roamer {
        loop {
            if self.over.is_some() {
                return self;
            }
            if stop_at.is_some_and(|s| self.version >= s)
                && self.pending.is_none()
                && self.waits_only_for_people()
            {
                return self;
            }
            if self.pending.is_none()
                && let Some(a) = self.choice()
            {
                self.act(a).await;
            }
            if let Read::Closed(..) = self.read(WAIT).await {
                self.before = Some((self.version, self.view.clone()));
                self.pending = None;
                self.reconnects += 1;
                self.relocate(&nodes).await;
                self.open(&nodes).await;
                let (v, view) = self.before.clone().unwrap();
                if self.version == v {
                    assert_eq!(self.view, view, "seat {}: the view changed", self.seat);
                }
                assert!(self.version >= v, "seat {}: went back in time", self.seat);
            }
        }
    }
}

/// Plays every player at once until each stops (`Roamer::play`).
async fn play_all(players: Vec<Roamer>, nodes: &[SocketAddr], stop_at: Option<u64>) -> Vec<Roamer> {
    let tasks: Vec<_> = players
        .into_iter()
        .map(|p| tokio::spawn(p.play(nodes.to_vec(), stop_at)))
        .collect();
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.unwrap());
    }
    out
}

/// The stored record of `lobby` through `node`'s API once it is over, or
/// straight from the database.
async fn stored_log(db: &TestDb, lobby: &str) -> GameRecord {
    let store = catan_store::Store::connect(&db.url).await.unwrap();
    let id = uuid::Uuid::parse_str(lobby).unwrap();
    let game = store.load_game(id).await.unwrap().unwrap();
    store.close().await;
    game.record
}

/// The log's seqs are 1..=n with no gap or duplicate, and it replays and
/// verifies against its seed.
fn assert_log_whole(record: &GameRecord) {
    let seqs: Vec<u64> = record.actions.iter().map(|a| a.seq).collect();
    let want: Vec<u64> = (1..=seqs.len() as u64).collect();
    assert_eq!(seqs, want, "the log has a gap or a duplicate");
    verify(record).unwrap_or_else(|e| panic!("the log does not verify: {e}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn any_node_serves_every_lobby_and_sockets_are_routed() {
    let db = TestDb::new(Backend::Postgres).await;
    let nodes = three_nodes(&db).await;
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    // Made on a, joined, filled and started through b.
    let (lobby, humans) = game_on(addrs[0], addrs[1], &["Ann"], 3, 0).await;
    for &n in &addrs {
        let (st, v) = http(n, "GET", &format!("/api/lobbies/{lobby}"), None, None).await;
        assert_eq!(st, 200, "{v}");
        assert_eq!(v["node_url"], url_of(addrs[0]), "asked of {n}: {v}");
        // The light answer, which each node gives by itself, agrees.
        let (st, v) = http(n, "GET", &format!("/api/lobbies/{lobby}/node"), None, None).await;
        assert_eq!(st, 200, "{v}");
        assert_eq!(v, json!({ "node_url": url_of(addrs[0]) }), "asked of {n}");
        // An id no lobby has: a node that cannot tell it from a game that
        // nobody serves yet names the node whose turn it is to take it
        // over, and that node finds no such game.
        let nil = uuid::Uuid::nil();
        let (st, v) = http(n, "GET", &format!("/api/lobbies/{nil}/node"), None, None).await;
        let at = match v["node_url"].as_str() {
            Some(url) => addr_of(url),
            None => n,
        };
        assert!(
            st == 404 || (st == 200 && addrs.contains(&at)),
            "asked of {n}: {v}"
        );
        let (st, v) = http(at, "GET", &format!("/api/lobbies/{nil}"), None, None).await;
        assert_eq!(
            (st, v["error"]["code"].as_str()),
            (404, Some("lobby_not_found")),
            "{v}"
        );
        let (st, v) = http(n, "GET", "/api/lobbies/not-a-lobby/node", None, None).await;
        assert_eq!(
            (st, v["error"]["code"].as_str()),
            (404, Some("lobby_not_found")),
            "{v}"
        );
    }
    // The node list names all three.
    let (st, v) = http(addrs[2], "GET", "/api/nodes", None, None).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["clustered"], true);
    let ids: Vec<&str> = v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["a", "b", "c"]);
    // The lobby list of another node shows it once its owner published it.
    let until = Instant::now() + WAIT;
    loop {
        let (_, v) = http(addrs[2], "GET", "/api/lobbies", None, None).await;
        let listed = v["lobbies"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["id"] == lobby.as_str());
        if listed {
            break;
        }
        assert!(Instant::now() < until, "c never listed a's lobby: {v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // A socket on c is closed with 4010 naming a.
    let (mut ws, _) = connect_async(format!("ws://{}/api/lobbies/{lobby}/ws", addrs[2]))
        .await
        .unwrap();
    let close = loop {
        match tokio::time::timeout(WAIT, ws.next()).await.unwrap() {
            Some(Ok(Message::Close(f))) => break f.unwrap(),
            Some(Ok(_)) => {}
            other => panic!("no close frame: {other:?}"),
        }
    };
    assert_eq!(u16::from(close.code), 4010);
    assert_eq!(
        close.reason.as_str(),
        format!("moved to {}", url_of(addrs[0]))
    );
    // A roaming client that starts on c ends up on a and plays to the end.
    let (seat, token) = &humans[0];
    let ann = Roamer::join(addrs[2], &lobby, *seat, token).await;
    assert_eq!(ann.node, addrs[0]);
    let ann = tokio::time::timeout(Duration::from_secs(600), ann.play(addrs.clone(), None))
        .await
        .expect("the game did not end");
    assert!(ann.over.is_some());
    assert_log_whole(&stored_log(&db, &lobby).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_nodes_game_resumes_on_another_node() {
    let db = TestDb::new(Backend::Postgres).await;
    let mut nodes = three_nodes(&db).await;
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let (lobby, humans) = game_on(addrs[0], addrs[0], &["Ann", "Ben"], 2, 0).await;
    // More games on the same node that wait for a person nobody will ask
    // for them after the kill: the survivors' reapers must take them over.
    // (Four: one address may hold five open lobbies.)
    let mut idle = Vec::new();
    for _ in 0..4 {
        idle.push(game_on(addrs[0], addrs[0], &["Idle"], 2, 0).await.0);
    }
    let mut players = Vec::new();
    for (seat, token) in &humans {
        players.push(Roamer::join(addrs[0], &lobby, *seat, token).await);
    }
    // Part of the game, to where it waits for a person.
    let players = play_all(players, &addrs, Some(30)).await;
    let before: Vec<(u64, Value)> = players
        .iter()
        .map(|p| (p.version, p.view.clone()))
        .collect();
    // SIGKILL the owner; each client finds the game again by itself.
    let killed_at = Instant::now();
    nodes.remove(0).kill();
    let survivors = addrs[1..].to_vec();
    // Asked at once, a survivor does not send the client to the dead node
    // (nor refuse while the dead node's lease runs out): it waits for the
    // lease, takes the lobby over (or learns who did) and names a live node.
    let (st, v) = http(
        survivors[0],
        "GET",
        &format!("/api/lobbies/{lobby}"),
        None,
        None,
    )
    .await;
    assert_eq!(st, 200, "asked right after the SIGKILL: {v}");
    let owner = v["node_url"].as_str().map(addr_of);
    assert!(
        owner.is_some_and(|o| survivors.contains(&o)),
        "a survivor named {owner:?} as the owner"
    );
    let tasks: Vec<_> = players
        .into_iter()
        .map(|p| {
            let survivors = survivors.clone();
            // The first read fails at once (the socket died with the node).
            let stop = p.version + 1;
            tokio::spawn(p.play(survivors, Some(stop)))
        })
        .collect();
    let mut players = Vec::new();
    for t in tasks {
        players.push(t.await.unwrap());
    }
    println!(
        "recovery: every client back and playing {:.1}s after the SIGKILL",
        killed_at.elapsed().as_secs_f64()
    );
    // Each client came back to a live node, and saw there the view it had
    // before (`Roamer::play` compares them at the same version).
    for (p, (v, _)) in players.iter().zip(&before) {
        assert!(p.reconnects >= 1, "seat {} never reconnected", p.seat);
        assert!(
            survivors.contains(&p.node),
            "seat {} is not on a live node",
            p.seat
        );
        assert_eq!(p.before.as_ref().map(|b| b.0), Some(*v));
    }
    // The games nobody asked for come back too, on the survivors, found
    // by their reapers (the node list counts each node's lobbies at its
    // beat; nobody asks for these until both survivors count them all).
    served_by(&survivors, 1 + idle.len()).await;
    for id in &idle {
        let at = locate(&survivors, id).await;
        assert!(
            at.is_some_and(|a| survivors.contains(&a)),
            "idle game {id} is at {at:?}"
        );
    }
    // Play to the end on the new owner.
    let tasks: Vec<_> = players
        .into_iter()
        .map(|p| tokio::spawn(p.play(survivors.clone(), None)))
        .collect();
    for t in tasks {
        let p = tokio::time::timeout(Duration::from_secs(600), t)
            .await
            .expect("the game did not end")
            .unwrap();
        assert!(p.over.is_some());
        assert!(
            !p.refusals.iter().any(|c| c == "storage_unavailable"),
            "{:?}",
            p.refusals
        );
    }
    assert_log_whole(&stored_log(&db, &lobby).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_owner_is_fenced_out_after_a_takeover() {
    let db = TestDb::new(Backend::Postgres).await;
    let nodes = three_nodes(&db).await;
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let (lobby, humans) = game_on(addrs[0], addrs[0], &["Ann", "Ben"], 1, 0).await;
    let mut players = Vec::new();
    for (seat, token) in &humans {
        players.push(Roamer::join(addrs[0], &lobby, *seat, token).await);
    }
    // Play a little, to where one person must act.
    let players = play_all(players, &addrs, Some(6)).await;
    let version = players[0].version;
    let active = players[0].view["active"].as_u64().unwrap() as u8;
    let mut stale = players
        .into_iter()
        .find(|p| p.seat == active)
        .expect("the active seat is a person's");
    // Pause its owner (a, unless a busy machine moved it meanwhile); its
    // client sends an action that the owner cannot see yet.
    let was = locate(&addrs, &lobby).await.expect("someone serves it");
    let paused = addrs.iter().position(|&a| a == was).unwrap();
    nodes[paused].signal("STOP");
    let action = stale.choice().expect("the active person has a move");
    stale.act(action.clone()).await;
    // Past the lease, b takes the game over when asked for it.
    tokio::time::sleep(Duration::from_millis(LEASE_MS * 2)).await;
    let others: Vec<SocketAddr> = addrs.iter().copied().filter(|&a| a != was).collect();
    let owner = locate(&others, &lobby)
        .await
        .expect("another node serves it");
    assert_ne!(owner, was);
    // The same seat connects anew to the new owner (and waits there).
    let mut fresh = Roamer::join(owner, &lobby, stale.seat, &stale.token.clone()).await;
    assert_eq!(
        fresh.version, version,
        "the new owner {owner} replayed the log to another version than the paused {was} \
         served; the paused owner's view: {}; the new one: {}",
        stale.view, fresh.view
    );
    // a wakes up: the action its socket held would be the next seq, free in
    // the log, so only the fence can keep it out. It is refused (or the
    // lobby was stopped first); either way the socket closes with 4010.
    nodes[paused].signal("CONT");
    let closed = loop {
        match stale.read(WAIT).await {
            Read::Closed(code, _) => break code,
            Read::Msg(v) => assert_ne!(
                v["type"], "accepted",
                "the paused owner accepted an action after the takeover: {v}"
            ),
        }
    };
    assert_eq!(closed, Some(4010));
    let record = stored_log(&db, &lobby).await;
    assert_eq!(
        record.actions.len() as u64,
        version,
        "the old owner's action reached the log"
    );
    // The game goes on at the new owner, from the same version.
    let next = fresh
        .choice()
        .expect("the seat has a move at the new owner");
    let id = fresh.act(next).await;
    loop {
        if let Read::Msg(v) = fresh.read(WAIT).await
            && v["id"] == id.as_str()
        {
            assert_eq!(v["type"], "accepted", "{v}");
            break;
        }
    }
    let record = stored_log(&db, &lobby).await;
    assert!(record.actions.len() as u64 > version);
    assert_log_whole(&record);
    drop(nodes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_game_stays_unloaded_until_asked_for() {
    let db = TestDb::new(Backend::Postgres).await;
    // Games nobody is connected to are unloaded after a second (waiting
    // rooms keep the default, so setting the game up cannot race it).
    let mut nodes = Vec::new();
    for (i, name) in ["a", "b"].iter().enumerate() {
        let port = free_port().await;
        let idle = [("CATAN_GAME_UNLOAD_MS", "1000")];
        nodes
            .push(ServerProcess::start_node_with(&db, i as u32, port, name, LEASE_MS, &idle).await);
    }
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    // A game in progress that waits for Ann, who never opens a socket.
    let (lobby, _) = game_on(addrs[0], addrs[0], &["Ann"], 3, 0).await;
    // Listed as held at a beat, then unloaded: neither node holds it (a
    // bound for a hang, not a goal).
    served_by(&addrs, 1).await;
    let give_up = Instant::now() + WAIT;
    while held_by(&addrs).await > 0 {
        assert!(Instant::now() < give_up, "the idle game was never unloaded");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // And it stays so: no reaper resumes it unasked (before, its lease
    // was released, the reapers took it over within a beat, and it was
    // unloaded and loaded again every couple of seconds). Eight lease
    // times: four such rounds.
    let watch = Instant::now() + Duration::from_millis(8 * LEASE_MS);
    while Instant::now() < watch {
        assert_eq!(
            held_by(&addrs).await,
            0,
            "a node resumed the idle game unasked"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Asked for through either node, it comes back, where it was.
    let (st, v) = http(
        addrs[1],
        "GET",
        &format!("/api/lobbies/{lobby}"),
        None,
        None,
    )
    .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["status"], "playing", "{v}");
    let at = v["node_url"].as_str().map(addr_of);
    assert!(at.is_some_and(|a| addrs.contains(&a)), "served at {at:?}");
    served_by(&addrs, 1).await;
    drop(nodes);
}

/// Who sits where in a lobby listing, as (kind, name, bot kind) by seat.
fn seating(seats: &Value) -> Vec<(String, String, String)> {
    let text = |v: &Value| v.as_str().unwrap_or("").to_string();
    seats
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (text(&s["kind"]), text(&s["name"]), text(&s["bot"])))
        .collect()
}

/// Reads until the socket closes, then finds the lobby again through
/// `nodes` and reconnects there.
async fn follow(p: &mut Roamer, nodes: &[SocketAddr]) {
    while let Read::Msg(_) = p.read(WAIT).await {}
    p.reconnects += 1;
    p.relocate(nodes).await;
    p.open(nodes).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_room_outlives_its_node_and_a_drain() {
    let db = TestDb::new(Backend::Postgres).await;
    let mut nodes = three_nodes(&db).await;
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    // A room on a: Ann joins through b, the host seats an easy bot through
    // c (both forwarded to a), and the third seat stays free.
    let create = json!({ "name": "Waiting", "options": { "players": 3 } });
    let (st, v) = create_lobby_on(addrs[0], &create).await;
    assert_eq!(st, 201, "{v}");
    let lobby = v["lobby"]["id"].as_str().unwrap().to_string();
    let host = v["host_token"].as_str().unwrap().to_string();
    let join = format!("/api/lobbies/{lobby}/join");
    let (st, v) = http(
        addrs[1],
        "POST",
        &join,
        None,
        Some(json!({ "name": "Ann" })),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    let (seat, token) = (
        v["seat"].as_u64().unwrap() as u8,
        v["token"].as_str().unwrap().to_string(),
    );
    let bots = format!("/api/lobbies/{lobby}/bots");
    let (st, v) = http(
        addrs[2],
        "POST",
        &bots,
        Some(&host),
        Some(json!({ "kind": "easy" })),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    let mut ann = Roamer::join(addrs[0], &lobby, seat, &token).await;
    let seated = seating(&ann.seats);
    assert_eq!(seated[0], ("human".into(), "Ann".into(), "".into()));
    assert_eq!(seated[1].0, "bot");
    assert_eq!(seated[1].2, "easy");
    assert_eq!(seated[2].0, "empty");
    // SIGKILL a: Ann's client finds the room again on a survivor, with the
    // same seats, and her token still holds her seat there.
    nodes.remove(0).kill();
    let survivors = addrs[1..].to_vec();
    follow(&mut ann, &survivors).await;
    assert!(survivors.contains(&ann.node), "Ann is on {}", ann.node);
    assert_eq!(seating(&ann.seats), seated, "the room changed on its way");
    // Drain its new owner (SIGTERM): the room moves to the last node.
    let owner = nodes.iter().position(|n| n.addr == ann.node).unwrap();
    nodes[owner].signal("TERM");
    follow(&mut ann, &survivors).await;
    let last = ann.node;
    assert!(survivors.contains(&last) && last != nodes[owner].addr);
    assert_eq!(seating(&ann.seats), seated, "the room changed in the drain");
    let status = nodes[owner].wait_exit(WAIT).await;
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    // The host's token still works: fill the last seat and start there.
    let (st, v) = http(
        last,
        "POST",
        &bots,
        Some(&host),
        Some(json!({ "kind": "normal" })),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    let start = format!("/api/lobbies/{lobby}/start");
    let (st, v) = http(last, "POST", &start, Some(&host), None).await;
    assert_eq!(st, 200, "{v}");
    // Ann plays her seat to the end.
    let ann = tokio::time::timeout(Duration::from_secs(600), ann.play(vec![last], None))
        .await
        .expect("the game did not end");
    assert!(ann.over.is_some());
    let record = stored_log(&db, &lobby).await;
    let names: Vec<&str> = record.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names[0], "Ann");
    assert_eq!(record.seats[1].bot.as_deref(), Some("easy"));
    assert_eq!(record.seats[2].bot.as_deref(), Some("normal"));
    assert_log_whole(&record);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_loses_no_action() {
    let db = TestDb::new(Backend::Postgres).await;
    let mut nodes = three_nodes(&db).await;
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    // Two games, on a and b, each with two people playing and two bots
    // slow enough (200 ms a move) that the games outlast the restarts.
    let mut games = Vec::new();
    for host in [addrs[0], addrs[1]] {
        games.push(game_on(host, host, &["Ann", "Ben"], 2, 200).await);
    }
    let mut tasks = Vec::new();
    for (lobby, humans) in &games {
        for (seat, token) in humans {
            let p = Roamer::join(addrs[0], lobby, *seat, token).await;
            tasks.push(tokio::spawn(p.play(addrs.clone(), None)));
        }
    }
    // Restart each node in turn while the games go on: SIGTERM (it hands
    // its lobbies over and exits), then start it again under its id.
    for (i, name) in ["a", "b", "c"].iter().enumerate() {
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let port = addrs[i].port();
        nodes[i].signal("TERM");
        let status = nodes[i].wait_exit(WAIT).await;
        assert!(
            status.is_some_and(|s| s.success()),
            "node {name} did not stop cleanly: {status:?}\n{}",
            nodes[i].log_text()
        );
        nodes[i] = ServerProcess::start_node(&db, 10 + i as u32, port, name, LEASE_MS).await;
    }
    for t in tasks {
        let p = tokio::time::timeout(Duration::from_secs(900), t)
            .await
            .expect("a game did not end")
            .unwrap();
        assert!(p.over.is_some());
        assert!(
            !p.refusals.iter().any(|c| c == "storage_unavailable"),
            "{:?}",
            p.refusals
        );
        // Its game lived through its node's restart: it had to move.
        assert!(p.reconnects >= 1, "seat {} never had to move", p.seat);
    }
    for (lobby, _) in &games {
        assert_log_whole(&stored_log(&db, lobby).await);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_requests_count_against_their_client() {
    let db = TestDb::new(Backend::Postgres).await;
    // Six POSTs per address, no refill to speak of during the test.
    let mut nodes = Vec::new();
    let limits = [
        ("CATAN_HTTP_RATE_BURST", "6"),
        ("CATAN_HTTP_RATE_PER_SEC", "0.001"),
    ];
    for (i, name) in ["a", "b"].iter().enumerate() {
        let port = free_port().await;
        nodes.push(
            ServerProcess::start_node_with(&db, i as u32, port, name, LEASE_MS, &limits).await,
        );
    }
    let (a, b) = (nodes[0].addr, nodes[1].addr);
    let create = json!({ "name": "Limits", "options": { "players": 3 } });
    let (st, v) = create_lobby_on(a, &create).await;
    assert_eq!(st, 201, "{v}");
    let id = v["lobby"]["id"].as_str().unwrap().to_string();
    let leave = format!("/api/lobbies/{id}/leave");
    // Two clients send four POSTs each through b to a's lobby: eight in
    // all reach a from b's address, but each client sent only four.
    for client in [[127, 0, 0, 2], [127, 0, 0, 3]] {
        let via = Via {
            from: client.into(),
            to: b,
        };
        for _ in 0..4 {
            let (st, v) = http_with(
                via,
                "POST",
                &leave,
                &[("authorization", "Bearer not-a-seat")],
                None,
            )
            .await;
            assert_ne!(
                st, 429,
                "a counted b's forwarded requests as one client: {v}"
            );
            assert!(
                v["error"]["code"].is_string() && st != 503,
                "the owner's refusal of a bad token, not a routing error: {st} {v}"
            );
        }
    }
    // A client cannot name another address without the cluster's key:
    // its own six POSTs use up its own allowance, whatever it claims.
    let liar = Via {
        from: [127, 0, 0, 4].into(),
        to: a,
    };
    let mut limited = false;
    for n in 0..7 {
        let claimed = format!("10.0.0.{n}");
        let (st, _) = http_with(
            liar,
            "POST",
            &leave,
            &[
                ("authorization", "Bearer not-a-seat"),
                ("x-catan-client", claimed.as_str()),
                ("x-catan-cluster-key", "guessed"),
            ],
            None,
        )
        .await;
        limited |= st == 429;
    }
    assert!(
        limited,
        "a client escaped its limit by naming other addresses"
    );
}

/// A node whose main pool is full (every connection waiting on a locked
/// table, more requests queued behind them: a reconnect storm on a slow
/// database) still beats and renews its leases on the beat's own pool, so
/// it keeps its lobbies and its players keep their sockets. Before, the
/// beat waited for a connection behind the requests, the node looked dead
/// to the others, and the second node took its lobby over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_pool_does_not_cost_a_node_its_leases() {
    let db = TestDb::new(Backend::Postgres).await;
    // No rate limit: the requests that fill the pool come from one address.
    let unlimited = [
        ("CATAN_HTTP_RATE_PER_SEC", "100000"),
        ("CATAN_HTTP_RATE_BURST", "100000"),
    ];
    let mut nodes = Vec::new();
    for (i, name) in ["a", "b"].iter().enumerate() {
        let port = free_port().await;
        nodes.push(
            ServerProcess::start_node_with(&db, i as u32, port, name, LEASE_MS, &unlimited).await,
        );
    }
    let (a, b) = (nodes[0].addr, nodes[1].addr);
    let (lobby, seats) = game_on(a, a, &["Ann"], 2, 0).await;
    let (seat, token) = &seats[0];
    let mut ann = Player::connect(a, &lobby, Some((*seat, token))).await;
    // A game's record is read from `game_actions`; with that table locked,
    // each request for it holds one of a's pooled connections until its
    // statement times out, and the rest wait for one. Three lease times of
    // that. (A lock on `game_actions` leaves b's way to take the lobby over
    // open: finding orphans and claiming leases do not read it.)
    let mut lock = PgConnection::connect(&db.url).await.unwrap();
    lock.execute("BEGIN").await.unwrap();
    lock.execute("LOCK TABLE game_actions IN ACCESS EXCLUSIVE MODE")
        .await
        .unwrap();
    let record = format!("/api/games/{lobby}");
    let requests: Vec<_> = (0..40)
        .map(|_| {
            let path = record.clone();
            tokio::spawn(async move { http(a, "GET", &path, None, None).await })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(3 * LEASE_MS)).await;
    lock.execute("ROLLBACK").await.unwrap();
    for r in requests {
        // Answered (most with 503: no connection in time), none lost.
        let (st, _) = r.await.unwrap();
        assert!(st == 200 || st == 503, "status {st}");
    }
    // Time for a to find out at its next beat had b taken the lobby over.
    tokio::time::sleep(Duration::from_millis(2 * LEASE_MS)).await;
    assert!(
        !nodes[0].log_text().contains("lease lost"),
        "a lost its lease while its pool was full:\n{}",
        nodes[0].log_text()
    );
    let b_log = nodes[1].log_text();
    assert!(
        !b_log.contains("took the lobby over") && !b_log.contains("took a batch of lobbies over"),
        "b took a's lobby over:\n{b_log}"
    );
    // Ann's socket is the one she had: it answers, and the lobby is a's.
    let snapshot = ann.resync().await;
    assert_eq!(snapshot["type"], "snapshot");
    assert_eq!(locate(&[b], &lobby).await, Some(a));
    drop(nodes);
}

/// A node whose renewals hang (the node table locked: a stuck database)
/// stops serving its lobbies before its lease can expire, without waiting
/// for the renewal to fail: its players are told the lobby moved while the
/// lease is still surely its own, so no other node can be serving it yet.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_whose_renewals_hang_stops_before_its_leases_expire() {
    let db = TestDb::new(Backend::Postgres).await;
    let port = free_port().await;
    // A longer lease than the others' here, so that the tenth of it the
    // node keeps in hand (600 ms) is far more than a busy machine's delays.
    let node = ServerProcess::start_node(&db, 0, port, "a", 6000).await;
    let (lobby, seats) = game_on(node.addr, node.addr, &["Ann"], 2, 0).await;
    let (seat, token) = &seats[0];
    let mut ann = Player::connect(node.addr, &lobby, Some((*seat, token))).await;
    let mut lock = PgConnection::connect(&db.url).await.unwrap();
    lock.execute("BEGIN").await.unwrap();
    lock.execute("LOCK TABLE cluster_nodes IN ACCESS EXCLUSIVE MODE")
        .await
        .unwrap();
    // The lock waited for any renewal in flight: this is the last expiry
    // the node renewed its lease to, by the database's clock.
    let (expires_ms,): (i64,) = sqlx::query_as(
        "SELECT (extract(epoch FROM lease_until) * 1000)::int8 FROM cluster_nodes \
         WHERE id = 'a'",
    )
    .fetch_one(&mut lock)
    .await
    .unwrap();
    assert_eq!(ann.closed_with().await, Some(4010), "told the lobby moved");
    let log = node.log_text();
    let stopped = log
        .lines()
        .find(|l| l.contains("this node stops serving its lobbies"))
        .unwrap_or_else(|| panic!("the node never stopped serving:\n{log}"));
    let at: chrono::DateTime<chrono::Utc> = stopped
        .split_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no time on {stopped:?}"));
    lock.execute("ROLLBACK").await.unwrap();
    let expires = chrono::DateTime::from_timestamp_millis(expires_ms).unwrap();
    // It keeps a tenth of the lease in hand; at least half of that must
    // be left.
    assert!(
        at + chrono::Duration::milliseconds(300) <= expires,
        "stopped at {at}, too close to its lease running out at {expires}"
    );
    drop(node);
}

/// A node whose renewals each take longer than a beat, though well within
/// the lease (a busy database), keeps its leases and goes on serving: the
/// beat sends a renewal every beat without waiting for the answer to the
/// one before. (Waiting for it, each renewal went out only when the last
/// was answered, two of them took longer than the lease less its margin,
/// and the node gave every lobby up.) While its renewals are slow it
/// refuses new lobbies with 503 `server_busy`, and takes them again once
/// renewals are quick.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn renewals_slower_than_a_beat_keep_the_leases() {
    let db = TestDb::new(Backend::Postgres).await;
    let port = free_port().await;
    // A 9 s lease: a beat every 3 s, 0.9 s kept in hand. Renewals of 4.3 s
    // sent a beat apart are each answered 0.8 s before the node would have
    // to stop; sent one after the other's answer, the second is answered
    // 8.6 s after the first was sent, past the stop at 8.1 s.
    let node = ServerProcess::start_node(&db, 0, port, "a", 9000).await;
    let (lobby, seats) = game_on(node.addr, node.addr, &["Ann"], 2, 0).await;
    let (seat, token) = &seats[0];
    let mut ann = Player::connect(node.addr, &lobby, Some((*seat, token))).await;
    let mut admin = PgConnection::connect(&db.url).await.unwrap();
    let (_, epoch, _) = lease_row(&mut admin, &lobby).await;
    // Every UPDATE of the node table (the renewals) waits 4.3 s before it
    // takes any row lock, so that renewals in flight together are slow
    // side by side, as on a busy database, not queued behind each other.
    admin
        .execute(
            "CREATE FUNCTION slow_renewal() RETURNS trigger LANGUAGE plpgsql AS \
             $$ BEGIN PERFORM pg_sleep(4.3); RETURN NULL; END $$",
        )
        .await
        .unwrap();
    admin
        .execute(
            "CREATE TRIGGER slow_renewal BEFORE UPDATE ON cluster_nodes \
             FOR EACH STATEMENT EXECUTE FUNCTION slow_renewal()",
        )
        .await
        .unwrap();
    let t = Instant::now();
    admin
        .execute("UPDATE cluster_nodes SET lease_until = lease_until WHERE false")
        .await
        .unwrap();
    assert!(
        t.elapsed() >= Duration::from_millis(4300),
        "the renewals are not slowed"
    );
    // Three leases' time: Ann's socket stays open throughout (a close
    // panics in `next_within`).
    let end = Instant::now() + Duration::from_secs(27);
    while let Some(left) = end.checked_duration_since(Instant::now()) {
        ann.next_within(left).await;
    }
    let new_lobby = || json!({ "name": "one more", "options": { "players": 3 } });
    let (st, v) = http(node.addr, "POST", "/api/lobbies", None, Some(new_lobby())).await;
    assert_eq!(
        (st, v["error"]["code"].as_str()),
        (503, Some("server_busy")),
        "a node with slow renewals takes a new lobby on: {v}"
    );
    kept_its_lease(&node, &mut admin, &lobby, epoch, "refuses new lobbies").await;
    admin
        .execute("DROP TRIGGER slow_renewal ON cluster_nodes")
        .await
        .unwrap();
    // And the node still serves the game.
    let action = ann.choice().expect("Ann, the host, places first");
    ann.act(action).await;
    ann.until("accepted").await;
    // Renewals are quick again: a client trying again, as the refusal
    // asks, gets its lobby within a few beats (the slow ones still in
    // flight are answered first).
    let give_up = Instant::now() + Duration::from_secs(30);
    loop {
        let (st, v) = http(node.addr, "POST", "/api/lobbies", None, Some(new_lobby())).await;
        if st == 201 {
            break;
        }
        assert_eq!(v["error"]["code"], "server_busy", "{st} {v}");
        assert!(
            Instant::now() < give_up,
            "still busy 30 s after renewals were quick again"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    assert!(node.log_text().contains("takes new lobbies again"));
    drop(node);
}

/// A lone node paused (SIGSTOP) past its lease and resumed, with no other
/// node to take its lobbies over meanwhile, keeps them: once resumed, its
/// beat sends a renewal before it gives anything up, the renewal (of a
/// generation nobody ended) is answered, and the check of what it held
/// (`check_held`) finds every lobby still its own. The player's socket
/// stays open and the game goes on at the same epoch. (Before, the beat's
/// tick and its give-up timer were both due after the pause and one was
/// picked at random: about every other time the node gave every lobby up
/// and every client had to reconnect.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lone_node_paused_past_its_lease_keeps_its_lobbies() {
    // Long enough for the margins below to hold on a loaded machine.
    const LEASE: u64 = 6000;
    let db = TestDb::new(Backend::Postgres).await;
    let port = free_port().await;
    let node = ServerProcess::start_node(&db, 0, port, "a", LEASE).await;
    let (lobby, seats) = game_on(node.addr, node.addr, &["Ann"], 2, 0).await;
    let (seat, token) = &seats[0];
    let mut ann = Player::connect(node.addr, &lobby, Some((*seat, token))).await;
    let mut admin = PgConnection::connect(&db.url).await.unwrap();
    let (_, epoch, _) = lease_row(&mut admin, &lobby).await;
    node.signal("STOP");
    // 1.25 lease times: the lease runs out (it was renewed at the latest
    // as the pause began), 1.5-3.5 s before the node resumes, well short of
    // the whole lease time after which the node's own reaper, seeing no
    // live node, would take the lobby as anybody's orphan.
    tokio::time::sleep(Duration::from_millis(LEASE * 5 / 4)).await;
    let (_, _, live) = lease_row(&mut admin, &lobby).await;
    assert!(!live, "the lease did not run out during the pause");
    node.signal("CONT");
    // Two lease times: Ann's socket stays open throughout (a close panics
    // in `next_within`).
    let end = Instant::now() + Duration::from_millis(2 * LEASE);
    while let Some(left) = end.checked_duration_since(Instant::now()) {
        ann.next_within(left).await;
    }
    kept_its_lease(&node, &mut admin, &lobby, epoch, "the beat was held up").await;
    let action = ann.choice().expect("Ann, the host, places first");
    ann.act(action).await;
    ann.until("accepted").await;
    drop(node);
}

/// A node that takes a dead node's lobby over keeps the lease while the
/// lobby's log loads, however long that takes: its beat parks the leases of
/// lobbies missing from its registry, and a lobby being loaded is leased a
/// moment before it is registered. (A busy node took seconds to load a
/// batch of logs; the leases parked meanwhile were claimed again by the
/// other survivor, and the lobbies resumed here were fenced out at their
/// first action: docs/PERFORMANCE.md, "Recovery at 3,000 games per node".)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeover_whose_log_loads_slowly_keeps_its_lease() {
    let db = TestDb::new(Backend::Postgres).await;
    let mut nodes = three_nodes(&db).await;
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let (lobby, seats) = game_on(addrs[0], addrs[0], &["Ann"], 2, 0).await;
    let (seat, token) = seats[0].clone();
    let mut admin = PgConnection::connect(&db.url).await.unwrap();
    let (_, epoch, _) = lease_row(&mut admin, &lobby).await;
    // Logs are read from `game_actions`: while this lock is held, loading
    // one waits (finding orphans and claiming them do not read it).
    let mut lock = PgConnection::connect(&db.url).await.unwrap();
    lock.execute("BEGIN").await.unwrap();
    lock.execute("LOCK TABLE game_actions IN ACCESS EXCLUSIVE MODE")
        .await
        .unwrap();
    nodes.remove(0).kill();
    let survivors = addrs[1..].to_vec();
    // A survivor's reaper claims the game (nobody asks for it yet).
    let give_up = Instant::now() + WAIT;
    let claimer = loop {
        let (node, e, _) = lease_row(&mut admin, &lobby).await;
        if let Some(node) = node.filter(|n| n != "a" && e > epoch) {
            break node;
        }
        assert!(Instant::now() < give_up, "no survivor claimed the game");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    // Six of its beats (a third of the lease each) while the log cannot
    // be loaded; within the statement timeout (4 s), so the load succeeds.
    tokio::time::sleep(Duration::from_millis(2 * LEASE_MS)).await;
    lock.execute("ROLLBACK").await.unwrap();
    // The game is served where it was claimed, at that claim's epoch, and
    // plays on: Ann's placement is accepted.
    let give_up = Instant::now() + WAIT;
    let at = loop {
        if let Some(at) = locate(&survivors, &lobby).await {
            break at;
        }
        assert!(Instant::now() < give_up, "the game is served nowhere");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let answer = first_move_at(at, &lobby, seat, &token).await;
    assert_eq!(answer["type"], "accepted", "{answer}");
    assert_eq!(
        lease_row(&mut admin, &lobby).await,
        (Some(claimer), epoch + 1, true),
        "the lobby was taken over once, and its lease is live\nb:\n{}\nc:\n{}",
        nodes[0].log_text(),
        nodes[1].log_text()
    );
    drop(nodes);
}

/// A node killed with SIGKILL has its lobbies taken over long before its
/// lease (6 s here) could run out: the database saw its session close,
/// and a survivor ended its lease generation there and then
/// (docs/CLUSTER.md, "Node sessions"). Nobody asks for the lobby: the
/// survivors' reapers take it, and it plays on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_nodes_lobbies_are_taken_over_before_its_lease_runs_out() {
    const LONG_LEASE_MS: u64 = 6000;
    let db = TestDb::new(Backend::Postgres).await;
    let mut nodes = Vec::new();
    for (i, name) in ["a", "b", "c"].iter().enumerate() {
        let port = free_port().await;
        nodes.push(ServerProcess::start_node(&db, i as u32, port, name, LONG_LEASE_MS).await);
    }
    let started = Instant::now();
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let (lobby, seats) = game_on(addrs[0], addrs[0], &["Ann"], 2, 0).await;
    let (seat, token) = seats[0].clone();
    let mut admin = PgConnection::connect(&db.url).await.unwrap();
    let (_, epoch, _) = lease_row(&mut admin, &lobby).await;
    // Every node has opened its session, and the survivors' sessions are
    // a lease old: a node takes nobody for dead before that (after a
    // restart of the database every session is new).
    let give_up = Instant::now() + WAIT;
    loop {
        let (keys,): (i64,) = sqlx::query_as("SELECT count(session_key) FROM cluster_nodes")
            .fetch_one(&mut admin)
            .await
            .unwrap();
        if keys == 3 {
            break;
        }
        assert!(
            Instant::now() < give_up,
            "the nodes never opened their sessions"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let old = started + Duration::from_millis(LONG_LEASE_MS + 1000);
    tokio::time::sleep_until(old.into()).await;
    // The expiry a's lease was last renewed to (by the database's clock): a
    // renewal between this and the kill only moves it later.
    let (expires_ms,): (i64,) = sqlx::query_as(
        "SELECT (extract(epoch FROM lease_until) * 1000)::int8 FROM cluster_nodes \
         WHERE id = 'a'",
    )
    .fetch_one(&mut admin)
    .await
    .unwrap();
    nodes.remove(0).kill();
    let give_up = Instant::now() + WAIT;
    let claimer = loop {
        let (node, e, live) = lease_row(&mut admin, &lobby).await;
        if let Some(node) = node.filter(|n| n != "a" && e > epoch && live) {
            break node;
        }
        assert!(Instant::now() < give_up, "no survivor took the game over");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let (since_ms, cut): (i64, bool) = sqlx::query_as(
        "SELECT (extract(epoch FROM l.since) * 1000)::int8, n.cut_at IS NOT NULL \
         FROM lobby_leases l, cluster_nodes n WHERE l.lobby_id = $1::uuid AND n.id = 'a'",
    )
    .bind(&lobby)
    .fetch_one(&mut admin)
    .await
    .unwrap();
    assert!(cut, "no survivor cut a's generation");
    assert!(
        since_ms < expires_ms,
        "{claimer} took the game over {} ms after a's lease ran out, not before",
        since_ms - expires_ms
    );
    // It plays on where it was taken: Ann's placement is accepted.
    let at = locate(&addrs[1..], &lobby)
        .await
        .expect("a survivor serves the game");
    let answer = first_move_at(at, &lobby, seat, &token).await;
    assert_eq!(answer["type"], "accepted", "{answer}");
    drop(nodes);
}

/// A live node whose database session ends (here an administrator's
/// `pg_terminate_backend`; a restart of the database does the same) is cut
/// like a dead one: its next renewal is refused, it stops serving its
/// lobby at once (the socket closes with 4010) and another node takes the
/// lobby over; it opens a session again and takes lobbies again under a
/// new lease generation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_whose_session_ends_gives_its_lobbies_up_and_comes_back() {
    let db = TestDb::new(Backend::Postgres).await;
    let nodes = three_nodes(&db).await;
    let started = Instant::now();
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let (lobby, seats) = game_on(addrs[0], addrs[0], &["Ann"], 2, 0).await;
    let (seat, token) = &seats[0];
    let mut ann = Player::connect(addrs[0], &lobby, Some((*seat, token))).await;
    let mut admin = PgConnection::connect(&db.url).await.unwrap();
    let (_, epoch, _) = lease_row(&mut admin, &lobby).await;
    let generation = || async {
        let mut c = PgConnection::connect(&db.url).await.unwrap();
        let (g,): (i64,) = sqlx::query_as("SELECT lease_gen FROM cluster_nodes WHERE id = 'a'")
            .fetch_one(&mut c)
            .await
            .unwrap();
        g
    };
    let before = generation().await;
    // The others' sessions are a lease old (they cut nobody before).
    let old = started + Duration::from_millis(LEASE_MS + 500);
    tokio::time::sleep_until(old.into()).await;
    // End a's session, and only that connection of a's.
    let give_up = Instant::now() + WAIT;
    loop {
        let (ended,): (i64,) = sqlx::query_as(
            "SELECT count(pg_terminate_backend(l.pid)) FROM pg_locks l, cluster_nodes n \
             WHERE n.id = 'a' AND l.locktype = 'advisory' AND l.granted \
               AND l.objid::int8 = n.session_key::int8 AND l.objsubid = 2",
        )
        .fetch_one(&mut admin)
        .await
        .unwrap();
        if ended == 1 {
            break;
        }
        assert!(Instant::now() < give_up, "a never opened its session");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(ann.closed_with().await, Some(4010), "told the lobby moved");
    let give_up = Instant::now() + WAIT;
    loop {
        let (node, e, live) = lease_row(&mut admin, &lobby).await;
        if node.as_deref().is_some_and(|n| n != "a") && e > epoch && live {
            break;
        }
        assert!(Instant::now() < give_up, "no other node took the game over");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // a opens a session again, holds a lease of a new generation and takes
    // a new lobby (once its renewals are quick again).
    let give_up = Instant::now() + WAIT;
    let new_lobby = loop {
        let create = json!({ "name": "again", "options": { "players": 3 } });
        let (st, v) = http(addrs[0], "POST", "/api/lobbies", None, Some(create)).await;
        if st == 201 {
            break v["lobby"]["id"].as_str().unwrap().to_string();
        }
        assert_eq!(v["error"]["code"], "server_busy", "{st} {v}");
        assert!(Instant::now() < give_up, "a never took a lobby again");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(generation().await > before);
    let (node, _, live) = lease_row(&mut admin, &new_lobby).await;
    assert_eq!((node.as_deref(), live), (Some("a"), true));
    let log = nodes[0].log_text();
    assert!(
        log.matches("database session is open").count() >= 2,
        "a did not open its session again:\n{log}"
    );
    drop(nodes);
}

/// Connects seat `seat` of `lobby` at node `at`, waits for the seat's
/// first move (the bots place before a person's turn; a game nobody
/// watches waits), makes it, and answers the server's answer to it
/// (accepted or rejected).
async fn first_move_at(at: SocketAddr, lobby: &str, seat: u8, token: &str) -> Value {
    let mut p = Player::connect(at, lobby, Some((seat, token))).await;
    let action = loop {
        if let Some(action) = p.choice() {
            break action;
        }
        p.next().await;
    };
    p.act(action).await;
    loop {
        let v = p.next().await;
        if v["type"] == "accepted" || v["type"] == "rejected" {
            return v;
        }
    }
}

/// Node a (`node`) never gave a lobby up, its log `says` why it was
/// tested, and `lobby`'s lease is a's, at `epoch`, and live.
async fn kept_its_lease(
    node: &ServerProcess,
    admin: &mut PgConnection,
    lobby: &str,
    epoch: i64,
    says: &str,
) {
    let log = node.log_text();
    assert!(
        !log.contains("lease lost") && !log.contains("this node stops serving"),
        "the node gave its lobbies up:\n{log}"
    );
    assert!(
        log.contains(says),
        "the node's log does not say {says:?}:\n{log}"
    );
    assert_eq!(
        lease_row(admin, lobby).await,
        (Some("a".to_string()), epoch, true),
        "the lease is not the node's at its epoch, or not live"
    );
}

/// The lease of `lobby`: its node, its epoch and whether it is live.
async fn lease_row(c: &mut PgConnection, lobby: &str) -> (Option<String>, i64, bool) {
    sqlx::query_as("SELECT node_id, epoch, live FROM lease_state WHERE lobby_id = $1::uuid")
        .bind(lobby)
        .fetch_one(c)
        .await
        .unwrap()
}

/// Established TCP connections to `port` on loopback, as the kernel lists
/// them (`/proc/net/tcp`: hexadecimal `address:port`, state `01`).
fn established_to(port: u16) -> usize {
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap();
    let port = format!(":{port:04X}");
    table
        .lines()
        .skip(1)
        .filter(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            f.len() > 3 && f[2].ends_with(&port) && f[3] == "01"
        })
        .count()
}

/// A burst of requests forwarded from one node to another (as when a dead
/// node's clients all ask a survivor where their lobby went) leaves only a
/// few connections open between the two: each kept connection is a file
/// at both ends, and keeping every one of a burst took the survivors of a
/// 9,000-game kill run to their open-file limit, so that some clients
/// never came back (docs/PERFORMANCE.md, "Forwarding connections").
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_burst_of_forwarded_requests_leaves_few_connections_open() {
    let db = TestDb::new(Backend::Postgres).await;
    let nodes = three_nodes(&db).await;
    let (a, c) = (nodes[0].addr, nodes[2].addr);
    let (st, v) = create_lobby_on(a, &json!({ "name": "Burst" })).await;
    assert_eq!(st, 201, "{v}");
    let lobby = v["lobby"]["id"].as_str().unwrap().to_string();
    let before = established_to(a.port());
    let asks = (0..300).map(|_| {
        let path = format!("/api/lobbies/{lobby}");
        tokio::spawn(async move { http(c, "GET", &path, None, None).await })
    });
    for ask in futures_util::future::join_all(asks).await {
        let (st, v) = ask.unwrap();
        assert_eq!(st, 200, "{v}");
        assert_eq!(v["node_url"], url_of(a), "{v}");
    }
    // The forwards are answered; what c keeps open to a is its pool (at
    // most 16). The ones beyond it close as each is handed back, a moment
    // after its answer went out: wait for that, but for less than the
    // 5 s after which even a kept connection is closed, so that only the
    // bound on the pool can pass.
    let until = Instant::now() + Duration::from_secs(3);
    loop {
        let after = established_to(a.port());
        if after <= before + 16 {
            break;
        }
        assert!(
            Instant::now() < until,
            "{after} connections to a after the burst, {before} before"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
