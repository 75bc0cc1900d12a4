//! Harness of the persistence tests: a throw-away database on either
//! backend (a uniquely named PostgreSQL database, or an SQLite file in a
//! temporary directory) that can be made unavailable and back, a small HTTP
//! client, WebSocket players driven by the heuristic bot, and the real
//! `catan-server` binary as a child process.

#![allow(dead_code)]

use catan_bots::{Bot, BotKind, make_bot};
use catan_core::{Action, View};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use sqlx::{Connection, Executor, PgConnection, SqliteConnection};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

// The HTTP client of the in-process harness (one copy of it in the binary).
use crate::common::http as http_client;
pub use http_client::http;
pub use http_client::{Via, http_with};

/// Longest wait for a message the test expects.
pub const WAIT: Duration = Duration::from_secs(20);

/// Which backend a test runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Postgres,
    Sqlite,
}

/// The PostgreSQL server the tests use (`DATABASE_URL`, as `.ci/run` sets it).
pub fn admin_url() -> String {
    std::env::var("DATABASE_URL")
        .ok()
        .filter(|u| u.starts_with("postgres"))
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

/// `url` with its database name replaced by `db`.
fn with_database(url: &str, db: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (url, String::new()),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let host_part = match base[scheme_end..].find('/') {
        Some(i) => &base[..scheme_end + i],
        None => base,
    };
    format!("{host_part}/{db}{query}")
}

fn unique(prefix: &str) -> String {
    format!("{prefix}_{}", uuid::Uuid::new_v4().simple())
}

/// A database that exists for one test and is dropped afterwards.
pub struct TestDb {
    pub backend: Backend,
    /// What the server is given as `DATABASE_URL` (PostgreSQL) or the SQLite file.
    pub url: String,
    /// PostgreSQL: the database name.
    name: String,
    /// SQLite: the temporary directory (also holds server logs).
    pub dir: PathBuf,
    /// SQLite: a connection holding the write lock while "unavailable".
    lock: Option<SqliteConnection>,
}

impl TestDb {
    pub async fn new(backend: Backend) -> TestDb {
        let dir = std::env::temp_dir().join(unique("catan_persist"));
        std::fs::create_dir_all(&dir).unwrap();
        match backend {
            Backend::Postgres => {
                let name = unique("catan_persist_test");
                let mut admin = PgConnection::connect(&admin_url()).await.unwrap();
                admin
                    .execute(format!("CREATE DATABASE \"{name}\"").as_str())
                    .await
                    .unwrap();
                TestDb {
                    backend,
                    url: with_database(&admin_url(), &name),
                    name,
                    dir,
                    lock: None,
                }
            }
            Backend::Sqlite => TestDb {
                backend,
                // The server's default location: catan.db in its data dir.
                url: dir.join("catan.db").to_string_lossy().into_owned(),
                name: String::new(),
                dir,
                lock: None,
            },
        }
    }

    /// Makes the database refuse the server's writes: PostgreSQL stops
    /// accepting connections and ends the open ones; SQLite's write lock is
    /// taken by another connection (the server's writes time out busy).
    pub async fn make_unavailable(&mut self) {
        match self.backend {
            Backend::Postgres => {
                let mut admin = PgConnection::connect(&admin_url()).await.unwrap();
                admin
                    .execute(
                        format!("ALTER DATABASE \"{}\" ALLOW_CONNECTIONS false", self.name)
                            .as_str(),
                    )
                    .await
                    .unwrap();
                sqlx::query(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                     WHERE datname = $1 AND pid <> pg_backend_pid()",
                )
                .bind(&self.name)
                .execute(&mut admin)
                .await
                .unwrap();
            }
            Backend::Sqlite => {
                let mut c = SqliteConnection::connect(&format!("sqlite://{}", self.url))
                    .await
                    .unwrap();
                c.execute("BEGIN EXCLUSIVE").await.unwrap();
                self.lock = Some(c);
            }
        }
    }

    /// Undoes [`TestDb::make_unavailable`].
    pub async fn make_available(&mut self) {
        match self.backend {
            Backend::Postgres => {
                let mut admin = PgConnection::connect(&admin_url()).await.unwrap();
                admin
                    .execute(
                        format!("ALTER DATABASE \"{}\" ALLOW_CONNECTIONS true", self.name).as_str(),
                    )
                    .await
                    .unwrap();
            }
            Backend::Sqlite => {
                if let Some(mut c) = self.lock.take() {
                    c.execute("ROLLBACK").await.unwrap();
                    c.close().await.unwrap();
                }
            }
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if self.backend == Backend::Postgres {
            let name = self.name.clone();
            // Drop may run inside a runtime: use a thread with its own.
            let _ = std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                rt.block_on(async {
                    if let Ok(mut admin) = PgConnection::connect(&admin_url()).await {
                        let _ = admin
                            .execute(
                                format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)").as_str(),
                            )
                            .await;
                    }
                });
            })
            .join();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A lobby with two people (seats' tokens kept) and two heuristic bots,
/// started. Returns (lobby id, [(seat, token)]).
pub async fn lobby_two_humans_two_bots(addr: SocketAddr) -> (String, Vec<(u8, String)>) {
    started_lobby(addr, &["Alice", "Bob"], 2).await
}

/// Creates a lobby (bots act at once), seats `humans` by name and `bots`
/// heuristic bots, and starts it; returns its id and each person's seat and
/// token, in the order of `humans`.
pub async fn started_lobby(
    addr: SocketAddr,
    humans: &[&str],
    bots: usize,
) -> (String, Vec<(u8, String)>) {
    let body = json!({ "name": "Persist", "bot_delay_ms": 0 });
    started_lobby_via(addr, addr, body, humans, bots).await
}

/// `POST /api/lobbies` on `host` with `create`, tried again while the
/// node answers 503 `server_busy`, as that refusal asks a client to (a
/// cluster node refuses new lobbies while its lease renewals are slow,
/// which a loaded test machine can make them for a moment).
pub async fn create_lobby_on(host: SocketAddr, create: &Value) -> (u16, Value) {
    let give_up = tokio::time::Instant::now() + WAIT;
    loop {
        let (st, v) = http(host, "POST", "/api/lobbies", None, Some(create.clone())).await;
        if st != 503 || v["error"]["code"] != "server_busy" || tokio::time::Instant::now() > give_up
        {
            return (st, v);
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// [`started_lobby`] with the lobby created on `host` from `create` (the
/// `POST /api/lobbies` body), and the seats taken and the game started
/// through `via` (another node of a cluster, or the same server).
pub async fn started_lobby_via(
    host: SocketAddr,
    via: SocketAddr,
    create: Value,
    humans: &[&str],
    bots: usize,
) -> (String, Vec<(u8, String)>) {
    let (st, v) = create_lobby_on(host, &create).await;
    assert_eq!(st, 201, "{v}");
    let id = v["lobby"]["id"].as_str().unwrap().to_string();
    let host_token = v["host_token"].as_str().unwrap().to_string();
    let mut seated = Vec::new();
    for name in humans {
        let (st, v) = http(
            via,
            "POST",
            &format!("/api/lobbies/{id}/join"),
            None,
            Some(json!({ "name": name })),
        )
        .await;
        assert_eq!(st, 200, "{v}");
        seated.push((
            v["seat"].as_u64().unwrap() as u8,
            v["token"].as_str().unwrap().to_string(),
        ));
    }
    for _ in 0..bots {
        let (st, v) = http(
            via,
            "POST",
            &format!("/api/lobbies/{id}/bots"),
            Some(&host_token),
            Some(json!({ "kind": "normal" })),
        )
        .await;
        assert_eq!(st, 200, "{v}");
    }
    let (st, v) = http(
        via,
        "POST",
        &format!("/api/lobbies/{id}/start"),
        Some(&host_token),
        None,
    )
    .await;
    assert_eq!(st, 200, "{v}");
    (id, seated)
}

/// Whether only people can move the game on, as a client last heard it:
/// the seats it waits for are people's (`seats` as the lobby message lists
/// them) and no trade offer is open (bots answer and withdraw offers by
/// themselves). Once every person has stopped playing, nothing changes.
pub fn waits_only_for_people(view: &Value, seats: &Value) -> bool {
    let human = |s: &Value| {
        s.as_u64()
            .is_some_and(|i| seats[i as usize]["kind"] == "human")
    };
    let offers_open = view["offers"].as_array().is_some_and(|o| !o.is_empty());
    let awaited: Vec<Value> = if view["phase"] == "discard" {
        let owed = view["discards_owed"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        (0..owed.len())
            .filter(|&i| owed[i].as_u64().unwrap_or(0) > 0)
            .map(|i| json!(i))
            .collect()
    } else {
        vec![view["active"].clone()]
    };
    !offers_open && !awaited.is_empty() && awaited.iter().all(human)
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A player (or spectator) on a WebSocket, tracking the game as it hears it.
pub struct Player {
    ws: Ws,
    pub seat: Option<u8>,
    /// Latest version heard.
    pub version: u64,
    /// Latest view heard (JSON as sent).
    pub view: Value,
    /// Latest legal actions heard.
    pub legal: Vec<Value>,
    /// Latest lobby message.
    pub lobby: Value,
    /// The game_over message, once heard.
    pub over: Option<Value>,
    bot: Box<dyn Bot>,
    next_id: u64,
    /// A request sent and not yet answered.
    pending: Option<String>,
    /// After `accepted` at version v: act again only once the update for v arrived.
    wait_for: u64,
    /// The bot's choice was refused at this version: fall back to a simple one.
    refused_at: Option<u64>,
    /// Codes of this player's refused actions, in order.
    pub refusals: Vec<String>,
}

impl Player {
    /// Connects and says hello (with a seat token, or as a spectator);
    /// returns once the first snapshot (or lobby, before a game) arrived.
    pub async fn connect(addr: SocketAddr, lobby: &str, seat: Option<(u8, &str)>) -> Player {
        let url = format!("ws://{addr}/api/lobbies/{lobby}/ws");
        let (ws, _) = connect_async(url).await.unwrap();
        let mut p = Player {
            ws,
            seat: seat.map(|s| s.0),
            version: 0,
            view: Value::Null,
            legal: Vec::new(),
            lobby: Value::Null,
            over: None,
            bot: make_bot(BotKind::Normal, u64::from(seat.map_or(9, |s| s.0))),
            next_id: 0,
            pending: None,
            wait_for: 0,
            refused_at: None,
            refusals: Vec::new(),
        };
        let mut hello = json!({ "type": "hello", "protocol": 1 });
        if let Some((_, token)) = seat {
            hello["token"] = json!(token);
        }
        p.send(hello).await;
        p.until("snapshot").await;
        p
    }

    pub async fn send(&mut self, v: Value) {
        self.ws.send(Message::text(v.to_string())).await.unwrap();
    }

    /// The next message within `d`, or `None` if there was none (pings
    /// and other frames in between do not extend the wait).
    pub async fn next_within(&mut self, d: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + d;
        loop {
            let msg = match tokio::time::timeout_at(deadline, self.ws.next()).await {
                Err(_) => return None,
                Ok(Some(Ok(m))) => m,
                Ok(other) => panic!("seat {:?}: socket ended: {other:?}", self.seat),
            };
            if let Message::Text(t) = msg {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                self.track(&v);
                return Some(v);
            }
        }
    }

    /// The next message; panics after [`WAIT`].
    pub async fn next(&mut self) -> Value {
        match self.next_within(WAIT).await {
            Some(v) => v,
            None => panic!(
                "seat {:?}: nothing within {WAIT:?} at version {}",
                self.seat, self.version
            ),
        }
    }

    /// Reads until a message of type `ty`.
    pub async fn until(&mut self, ty: &str) -> Value {
        loop {
            let v = self.next().await;
            if v["type"] == ty {
                return v;
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
            Some("lobby") => self.lobby = v["lobby"].clone(),
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
                let code = v["code"].as_str().unwrap_or("").to_string();
                if code != "stale_version" {
                    self.refused_at = Some(self.version);
                }
                self.refusals.push(code);
            }
            _ => {}
        }
    }

    /// What this player would do now, if anything.
    pub fn choice(&mut self) -> Option<Value> {
        if self.legal.is_empty() || self.over.is_some() || self.version < self.wait_for {
            return None;
        }
        if self.refused_at != Some(self.version) {
            let view: View = serde_json::from_value(self.view.clone()).unwrap();
            let legal: Vec<Action> = serde_json::from_value(json!(self.legal)).unwrap();
            if let Some(a) = self.bot.choose(&view, &legal) {
                return Some(serde_json::to_value(a).unwrap());
            }
        }
        for want in ["roll_dice", "end_turn"] {
            if let Some(a) = self.legal.iter().find(|a| a["type"] == want) {
                return Some(a.clone());
            }
        }
        self.legal.first().cloned()
    }

    /// Sends `action` at the latest version; returns the request id.
    pub async fn act(&mut self, action: Value) -> String {
        self.next_id += 1;
        let id = format!("a{}", self.next_id);
        let msg = json!({ "type": "action", "id": id, "version": self.version, "action": action });
        self.send(msg).await;
        self.pending = Some(id.clone());
        id
    }

    /// Whether, as this player last heard, only people can move the game
    /// on ([`waits_only_for_people`]).
    fn waits_only_for_people(&self) -> bool {
        waits_only_for_people(&self.view, &self.lobby["seats"])
    }

    /// Plays until the game is over, or until the version reaches `stop_at`
    /// and the game waits only for people (see `waits_only_for_people`), so
    /// that what every person sees stays as it is until they move again.
    pub async fn play(mut self, stop_at: Option<u64>) -> Player {
        loop {
            if self.over.is_some() {
                return self;
            }
            let stopping = stop_at.is_some_and(|s| self.version >= s);
            if stopping && self.pending.is_none() && self.waits_only_for_people() {
                return self;
            }
            if self.pending.is_none()
                && let Some(a) = self.choice()
            {
                self.act(a).await;
            }
            self.next().await;
            assert!(
                !self.refusals.iter().any(|c| c == "storage_unavailable"),
                "seat {:?}: the store refused an action",
                self.seat
            );
        }
    }

    /// Reads until the socket ends; returns the close code (`None` when it
    /// ended without a close frame).
    pub async fn closed_with(&mut self) -> Option<u16> {
        loop {
            match tokio::time::timeout(WAIT, self.ws.next()).await {
                Err(_) => panic!("seat {:?}: socket still open after {WAIT:?}", self.seat),
                Ok(Some(Ok(Message::Close(f)))) => return f.map(|f| f.code.into()),
                Ok(Some(Ok(Message::Text(t)))) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    self.track(&v);
                }
                Ok(Some(Ok(_))) => {}
                Ok(_) => return None,
            }
        }
    }

    /// Asks for a fresh snapshot; returns it.
    pub async fn resync(&mut self) -> Value {
        self.send(json!({ "type": "resync", "id": "resync" })).await;
        self.until("snapshot").await
    }
}

/// A server running in this process on `db`, as the binary would run it
/// (store chosen from the configuration, unfinished games recovered).
pub struct InProcess {
    pub addr: SocketAddr,
    pub state: catan_server::AppState,
    /// What recovery did at its start.
    pub report: catan_server::persist::RecoveryReport,
}

pub async fn start_in_process(db: &TestDb) -> InProcess {
    start_in_process_with(db, |_| {}).await
}

/// Like [`start_in_process`], with the test's own changes to the config.
pub async fn start_in_process_with(
    db: &TestDb,
    edit: impl FnOnce(&mut catan_server::Config),
) -> InProcess {
    let mut config = catan_server::Config {
        database_url: Some(db.url.clone()),
        data_dir: db.dir.clone(),
        bot_delay_ms: 0,
        rate_per_sec: 1000.0,
        rate_burst: 1000,
        conn_queue: 100_000,
        http_rate_per_sec: 100_000.0,
        http_rate_burst: 100_000,
        ..catan_server::Config::default()
    };
    edit(&mut config);
    let (state, report) = catan_server::persist::persistent_state(config)
        .await
        .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = catan_server::app(state.clone());
    tokio::spawn(async move {
        axum::serve(
            listener,
            router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
        .unwrap();
    });
    InProcess {
        addr,
        state,
        report,
    }
}

/// A port nobody listens on right now.
pub async fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
    l.local_addr().unwrap().port()
}

/// The `catan-server` binary running as a child process.
pub struct ServerProcess {
    pub addr: SocketAddr,
    child: Child,
    pub log: PathBuf,
}

impl ServerProcess {
    /// Starts the binary on `db` (PostgreSQL through `DATABASE_URL`; SQLite
    /// through the default file in `--data-dir`) and waits until it answers.
    pub async fn start(db: &TestDb, run: u32) -> ServerProcess {
        ServerProcess::start_with(db, run, &[]).await
    }

    /// Like [`ServerProcess::start`], with more environment variables.
    pub async fn start_with(db: &TestDb, run: u32, env: &[(&str, &str)]) -> ServerProcess {
        let port = free_port().await;
        ServerProcess::start_on(db, run, port, env).await
    }

    /// One node of a cluster over `db` (PostgreSQL) on `port`, named
    /// `node`, with leases of `lease_ms`.
    pub async fn start_node(
        db: &TestDb,
        run: u32,
        port: u16,
        node: &str,
        lease_ms: u64,
    ) -> ServerProcess {
        Self::start_node_with(db, run, port, node, lease_ms, &[]).await
    }

    /// [`ServerProcess::start_node`] with more environment variables.
    pub async fn start_node_with(
        db: &TestDb,
        run: u32,
        port: u16,
        node: &str,
        lease_ms: u64,
        more: &[(&str, &str)],
    ) -> ServerProcess {
        let url = format!("http://127.0.0.1:{port}");
        let lease = lease_ms.to_string();
        let mut env = vec![
            ("CATAN_NODE_URL", url.as_str()),
            ("CATAN_NODE_ID", node),
            ("CATAN_LEASE_MS", lease.as_str()),
        ];
        env.extend_from_slice(more);
        ServerProcess::start_on(db, run, port, &env).await
    }

    /// Like [`ServerProcess::start_with`], on a given port.
    pub async fn start_on(db: &TestDb, run: u32, port: u16, env: &[(&str, &str)]) -> ServerProcess {
        ServerProcess::start_limited(db, run, port, env, None).await
    }

    /// Like [`ServerProcess::start_on`], under a limit of `files` open
    /// files (soft and hard) when given: `prlimit(1)` sets it and then
    /// execs the server, so the child's pid and signals are the server's.
    pub async fn start_limited(
        db: &TestDb,
        run: u32,
        port: u16,
        env: &[(&str, &str)],
        files: Option<u32>,
    ) -> ServerProcess {
        let addr: SocketAddr = ([127, 0, 0, 1], port).into();
        let log = db.dir.join(format!("server-{run}.log"));
        let out = std::fs::File::create(&log).unwrap();
        let exe = env!("CARGO_BIN_EXE_catan-server");
        let mut cmd = match files {
            Some(n) => {
                let mut c = Command::new("prlimit");
                c.arg(format!("--nofile={n}:{n}")).arg("--").arg(exe);
                c
            }
            None => Command::new(exe),
        };
        cmd.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("CATAN_BIND", addr.to_string())
            .env("CATAN_BOT_DELAY_MS", "0")
            .env("CATAN_RATE_PER_SEC", "1000")
            .env("CATAN_RATE_BURST", "1000")
            .env("CATAN_HTTP_RATE_PER_SEC", "100000")
            .env("CATAN_HTTP_RATE_BURST", "100000")
            .env("CATAN_STATIC_DIR", db.dir.join("no-web"))
            .env("RUST_LOG", "info")
            .stdout(Stdio::from(out.try_clone().unwrap()))
            .stderr(Stdio::from(out));
        cmd.envs(env.iter().copied());
        match db.backend {
            Backend::Postgres => {
                cmd.env("DATABASE_URL", &db.url);
            }
            Backend::Sqlite => {
                cmd.arg("--data-dir").arg(&db.dir);
            }
        }
        let child = cmd.spawn().unwrap();
        let mut server = ServerProcess { addr, child, log };
        server.wait_ready().await;
        server
    }

    async fn wait_ready(&mut self) {
        for _ in 0..300 {
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!("server exited with {status}; log: {}", self.log_text());
            }
            if TcpStream::connect(self.addr).await.is_ok() {
                let (st, _) = http(self.addr, "GET", "/healthz", None, None).await;
                if st == 200 {
                    return;
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("server did not come up; log: {}", self.log_text());
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends a signal by name (`STOP`, `CONT`, `TERM`) with `kill(1)`.
    pub fn signal(&self, name: &str) {
        let ok = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.child.id().to_string())
            .status()
            .unwrap()
            .success();
        assert!(ok, "kill -{name} failed");
        if name == "STOP" {
            self.wait_stopped();
        }
    }

    /// Waits until every thread of the process is stopped: `kill` returns
    /// once the signal is sent, and a thread running on the other core may
    /// still handle a message before it stops (a test that sends its next
    /// message to a paused node would race with it).
    fn wait_stopped(&self) {
        let tasks = format!("/proc/{}/task", self.child.id());
        let until = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            let stopped = std::fs::read_dir(&tasks).unwrap().all(|t| {
                let stat =
                    std::fs::read_to_string(t.unwrap().path().join("stat")).unwrap_or_default();
                // The state follows the command name's closing parenthesis.
                stat.rsplit_once(") ")
                    .is_some_and(|(_, rest)| rest.starts_with('T') || rest.starts_with('t'))
            });
            if stopped {
                return;
            }
            assert!(
                std::time::Instant::now() < until,
                "the process did not stop"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Waits (at most `d`) for the process to exit by itself; its status.
    pub async fn wait_exit(&mut self, d: Duration) -> Option<std::process::ExitStatus> {
        let until = std::time::Instant::now() + d;
        while std::time::Instant::now() < until {
            if let Some(st) = self.child.try_wait().unwrap() {
                return Some(st);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        None
    }

    /// SIGKILL: no shutdown code runs, nothing is flushed on purpose.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `catan` CLI next to the server binary, if it has been built.
pub fn catan_cli() -> Option<PathBuf> {
    let server = Path::new(env!("CARGO_BIN_EXE_catan-server"));
    let cli = server.with_file_name(format!("catan{}", std::env::consts::EXE_SUFFIX));
    cli.exists().then_some(cli)
}
