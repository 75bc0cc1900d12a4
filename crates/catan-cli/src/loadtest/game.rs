//! One game's driver: sets the game up, then plays it like four unhurried
//! people (one action per `--pace` per game, chosen at random among the
//! legal actions of a seat that may act), measures how long each action
//! takes to reach every client of the lobby, reconnects dropped sockets
//! with their seat tokens, and records what the clients saw for the final
//! check.

use super::check::{Observed, Unanswered};
use super::http::HttpConn;
use super::metrics::{Metrics, Part};
use super::net::Sources;
use super::proto;
use super::setup::{self, SEATS};
use super::wsclient::{self, Event, Sink, Target};
use catan_core::{Action, Seat};
use catan_protocol::{Code, ServerHead, ServerMsgKind};
use futures_util::SinkExt;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio::sync::{Semaphore, watch};
use tokio::time::{Instant, MissedTickBehavior};
use tokio_tungstenite::tungstenite::Message;
use uuid::Uuid;

/// An action unanswered for this long counts as a timeout; the bot moves on.
const ACTION_TIMEOUT: Duration = Duration::from_secs(10);
/// How long setup waits for every socket's `welcome`.
const WELCOME_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest pause between reconnect attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(2);
/// How long one socket write may take.
const SEND_TIMEOUT: Duration = Duration::from_secs(5);

/// Where the run is; every driver watches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Play.
    Run,
    /// Send nothing new; let answers arrive.
    Drain,
    /// Close the sockets and report.
    Stop,
}

/// What all drivers share.
pub struct Shared {
    /// The servers (the nodes of a cluster; game `i` is set up on node
    /// `i mod n`).
    pub servers: Vec<SocketAddr>,
    /// Source addresses for sockets.
    pub sources: Sources,
    /// One action per this long, per game.
    pub pace: Duration,
    /// Spectator sockets per lobby.
    pub spectators: usize,
    /// Counters.
    pub metrics: Arc<Metrics>,
    /// Base seed of the bots' choices.
    pub seed: u64,
    /// Limits how many games set up at once.
    pub setup_slots: Semaphore,
}

/// What a driver reports at the end.
pub struct Outcome {
    /// The lobby, if it was created.
    pub lobby: Option<Uuid>,
    /// Why setup failed, if it did.
    pub setup_error: Option<String>,
    /// What the clients saw.
    pub observed: Observed,
}

/// An action on its way.
struct Pending {
    id: String,
    /// The client that sent it.
    client: usize,
    sent: Instant,
    /// Clients (bit per client) connected when it was sent.
    expect: u64,
    /// Clients that have received the update it caused.
    got: u64,
    last: Instant,
    before: u64,
    /// A client it waited for dropped: no latency sample.
    spoiled: bool,
    measured: bool,
    answered: bool,
}

/// One client socket of the game (a seat or a spectator).
struct Client {
    seat: Option<Seat>,
    target: Target,
    sink: Option<Sink>,
    epoch: u32,
    welcomed: bool,
    version: Option<u64>,
    /// The last version this client had, kept over a lost socket: a
    /// reconnect's `hello` names it (`since`), as the browser does, and
    /// gets only the history after it.
    had: Option<u64>,
    legal: Vec<Action>,
    attempts: u32,
    retry_at: Option<Instant>,
    ever_connected: bool,
    /// The last close named the node the lobby moved to (code 4010): the
    /// next attempt goes there without asking.
    told: bool,
    /// When the socket was lost, until a new one is welcomed.
    lost_at: Option<Instant>,
    /// When the socket of the current reconnect opened.
    opened_at: Option<Instant>,
}

struct Driver {
    shared: Arc<Shared>,
    clients: Vec<Client>,
    tx: UnboundedSender<Event>,
    rx: UnboundedReceiver<Event>,
    rng: ChaCha8Rng,
    phase: Phase,
    version: u64,
    started: bool,
    finished: bool,
    pending: Option<Pending>,
    /// Sent and not yet answered, by request id.
    outstanding: HashMap<String, Unanswered>,
    next_id: u64,
    observed: Observed,
}

/// Sets up game `index` and plays it until the phase becomes `Stop`.
pub async fn drive(shared: Arc<Shared>, index: usize, phase: watch::Receiver<Phase>) -> Outcome {
    let (tx, rx) = unbounded_channel();
    let seed = shared.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut d = Driver {
        shared,
        clients: Vec::new(),
        tx,
        rx,
        rng: ChaCha8Rng::seed_from_u64(seed),
        phase: Phase::Run,
        version: 0,
        started: false,
        finished: false,
        pending: None,
        outstanding: HashMap::new(),
        next_id: 0,
        observed: Observed::default(),
    };
    let lobby = match d.setup(index).await {
        Ok(id) => id,
        Err((lobby, e)) => {
            Metrics::bump(&d.shared.metrics.games_failed);
            d.close_all().await;
            return Outcome {
                lobby,
                setup_error: Some(e),
                observed: d.observed,
            };
        }
    };
    Metrics::bump(&d.shared.metrics.games_ready);
    d.play(phase).await;
    d.close_all().await;
    for (_, u) in d.outstanding.drain() {
        d.observed.unanswered.push(u);
    }
    Outcome {
        lobby: Some(lobby),
        setup_error: None,
        observed: d.observed,
    }
}

impl Driver {
    async fn setup(&mut self, index: usize) -> Result<Uuid, (Option<Uuid>, String)> {
        let shared = self.shared.clone();
        let _slot = shared
            .setup_slots
            .acquire()
            .await
            .map_err(|_| (None, "setup cancelled".to_string()))?;
        let home = shared.servers[index % shared.servers.len()];
        let mut http = HttpConn::connect(home, shared.sources.pick())
            .await
            .map_err(|e| (None, e))?;
        let lobby = setup::create(&mut http, index)
            .await
            .map_err(|e| (None, e))?;
        let id = lobby.id;
        let tokens = lobby.seat_tokens.iter().map(|t| Some(t.clone()));
        let seats = (0..SEATS).map(|s| Some(Seat(s as u8)));
        let spectators = std::iter::repeat_n((None, None), shared.spectators);
        for (seat, token) in seats.zip(tokens).chain(spectators) {
            self.clients.push(Client {
                seat,
                target: Target {
                    server: home,
                    lobby: id,
                    token,
                },
                sink: None,
                epoch: 0,
                welcomed: false,
                version: None,
                had: None,
                legal: Vec::new(),
                attempts: 0,
                retry_at: None,
                ever_connected: false,
                told: false,
                lost_at: None,
                opened_at: None,
            });
        }
        for i in 0..self.clients.len() {
            let sink = wsclient::open(
                &self.clients[i].target,
                None,
                shared.sources.pick(),
                i,
                0,
                self.tx.clone(),
                shared.metrics.clone(),
            )
            .await
            .map_err(|e| (Some(id), e))?;
            self.clients[i].sink = Some(sink);
        }
        let deadline = Instant::now() + WELCOME_TIMEOUT;
        while !self.clients.iter().all(|c| c.welcomed) {
            match tokio::time::timeout_at(deadline, self.rx.recv()).await {
                Ok(Some(ev)) => self.on_event(ev).await,
                Ok(None) => return Err((Some(id), "event channel closed".into())),
                Err(_) => return Err((Some(id), "no welcome on every socket in time".into())),
            }
            if self.clients.iter().any(|c| c.sink.is_none()) {
                return Err((Some(id), "a socket closed during setup".into()));
            }
        }
        setup::start(&mut http, &lobby)
            .await
            .map_err(|e| (Some(id), e))?;
        Ok(id)
    }

    async fn play(&mut self, mut phase: watch::Receiver<Phase>) {
        // Spread the games' turns evenly over the pace instead of in lockstep.
        let pace = self.shared.pace.max(Duration::from_millis(1));
        let offset = Duration::from_micros(self.rng.random_range(0..pace.as_micros() as u64));
        let mut ticks = tokio::time::interval_at(Instant::now() + offset, pace);
        ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            self.phase = *phase.borrow();
            if self.phase == Phase::Stop {
                return;
            }
            let retry = self.clients.iter().filter_map(|c| c.retry_at).min();
            tokio::select! {
                ev = self.rx.recv() => match ev {
                    Some(ev) => self.on_event(ev).await,
                    None => return,
                },
                _ = ticks.tick() => self.tick().await,
                _ = sleep_until(retry) => self.reconnect_due(),
                r = phase.changed() => if r.is_err() { return },
            }
        }
    }

    /// Chooses and sends one action, unless one is still on its way.
    async fn tick(&mut self) {
        if self.phase != Phase::Run || self.finished || !self.started {
            return;
        }
        if let Some(p) = &self.pending {
            if p.sent.elapsed() < ACTION_TIMEOUT {
                return;
            }
            if !p.answered {
                self.shared.metrics.error("action_timeout");
            }
            self.pending = None;
        }
        let version = self.version;
        let ready: Vec<usize> = (0..self.clients.len())
            .filter(|&i| {
                let c = &self.clients[i];
                c.seat.is_some()
                    && c.sink.is_some()
                    && c.welcomed
                    && c.version == Some(version)
                    && !c.legal.is_empty()
            })
            .collect();
        if ready.is_empty() {
            return;
        }
        let who = ready[self.rng.random_range(0..ready.len())];
        let legal = &self.clients[who].legal;
        let action = legal[self.rng.random_range(0..legal.len())];
        let Some(seat) = self.clients[who].seat else {
            return;
        };
        self.next_id += 1;
        let id = self.next_id.to_string();
        let text = proto::action(&id, version, &action);
        let expect = self.connected_mask();
        let sent = Instant::now();
        if !self.send(who, text).await {
            self.shared.metrics.error("send_failed");
            return;
        }
        Metrics::bump(&self.shared.metrics.actions_sent);
        self.outstanding.insert(
            id.clone(),
            Unanswered {
                version,
                seat,
                action,
            },
        );
        self.pending = Some(Pending {
            id,
            client: who,
            sent,
            expect,
            got: 0,
            last: sent,
            before: version,
            spoiled: false,
            measured: false,
            answered: false,
        });
    }

    fn connected_mask(&self) -> u64 {
        self.clients
            .iter()
            .enumerate()
            .filter(|(_, c)| c.sink.is_some() && c.welcomed && c.version.is_some())
            .fold(0, |m, (i, _)| m | (1 << i))
    }

    async fn send(&mut self, client: usize, text: String) -> bool {
        let Some(sink) = self.clients[client].sink.as_mut() else {
            return false;
        };
        matches!(
            tokio::time::timeout(SEND_TIMEOUT, sink.send(Message::text(text))).await,
            Ok(Ok(()))
        )
    }

    async fn on_event(&mut self, ev: Event) {
        match ev {
            Event::Msg {
                client,
                epoch,
                msg,
                at,
            } => self.on_msg(client, epoch, msg, at).await,
            Event::Closed {
                client,
                epoch,
                moved_to,
            } => {
                self.on_closed(client, epoch);
                if let (Some(to), Some(c)) = (moved_to, self.clients.get_mut(client))
                    && c.epoch == epoch
                {
                    // The lobby lives elsewhere: go there now, no backoff.
                    c.target.server = to;
                    c.told = true;
                    if c.retry_at.is_some() {
                        c.retry_at = Some(Instant::now());
                    }
                    Metrics::bump(&self.shared.metrics.moves);
                }
            }
            Event::Connected {
                client,
                epoch,
                server,
                sink,
                started,
            } => {
                if let Some(c) = self.clients.get_mut(client)
                    && c.epoch == epoch
                {
                    c.sink = Some(sink);
                    c.target.server = server;
                    c.opened_at = Some(Instant::now());
                    if let Some(lost) = c.lost_at {
                        let waited = started.saturating_duration_since(lost);
                        self.shared.metrics.reconnect_part(Part::Waited, waited);
                    }
                }
            }
            Event::ConnectFailed {
                client,
                epoch,
                error,
            } => {
                if let Some(c) = self.clients.get_mut(client)
                    && c.epoch == epoch
                {
                    let code = if error.contains("404") {
                        "reconnect_lobby_not_found"
                    } else {
                        "reconnect_failed"
                    };
                    self.shared.metrics.error(code);
                    schedule_retry(c, &mut self.rng);
                }
            }
        }
    }

    async fn on_msg(&mut self, client: usize, epoch: u32, msg: ServerHead, at: Instant) {
        // `proto::parse` let through only messages that carry what their
        // kind needs (a version, a refusal code).
        let version = msg.version.unwrap_or_default();
        // What any socket saw, even a replaced one, counts for the check.
        match msg.kind {
            ServerMsgKind::Update => {
                self.observed.saw(version, msg.seat);
                self.started = true;
            }
            ServerMsgKind::Accepted => {
                let id = msg.id.as_deref().unwrap_or_default();
                if let Some(u) = self.outstanding.remove(id) {
                    self.observed.accept(version, u.seat, u.action);
                    Metrics::bump(&self.shared.metrics.actions_accepted);
                    if let Some(p) = self.pending.as_mut()
                        && p.id == id
                    {
                        p.answered = true;
                    }
                }
            }
            ServerMsgKind::Rejected => {
                let Some(code) = msg.code else {
                    return;
                };
                self.shared.metrics.error(code.as_str());
                if let Some(id) = msg.id.as_deref() {
                    if let Some(u) = self.outstanding.remove(id) {
                        self.observed.refused(u, code);
                    }
                    if self.pending.as_ref().is_some_and(|p| p.id == id) {
                        self.pending = None;
                    }
                }
                if code == Code::StaleVersion {
                    let rid = format!("r{}", self.next_id);
                    self.send(client, proto::resync(&rid)).await;
                }
            }
            ServerMsgKind::GameOver if !self.finished => {
                self.finished = true;
                Metrics::bump(&self.shared.metrics.games_finished);
            }
            _ => {}
        }
        let Some(c) = self.clients.get_mut(client) else {
            return;
        };
        if c.epoch != epoch {
            return;
        }
        match msg.kind {
            ServerMsgKind::Welcome => {
                c.welcomed = true;
                c.attempts = 0;
                if let (Some(lost), Some(opened)) = (c.lost_at.take(), c.opened_at.take()) {
                    let m = &self.shared.metrics;
                    m.reconnect_part(Part::Welcome, at.saturating_duration_since(opened));
                    m.reconnect_part(Part::Total, at.saturating_duration_since(lost));
                }
                if c.ever_connected {
                    Metrics::bump(&self.shared.metrics.reconnects);
                }
                c.ever_connected = true;
            }
            ServerMsgKind::Snapshot => {
                c.version = Some(version);
                c.had = Some(version);
                c.legal = msg.legal.unwrap_or_default();
                self.started = true;
                self.version = self.version.max(version);
                // A resync past our pending action settles its fate; the
                // check finds it in the log or not.
                if self.pending.as_ref().is_some_and(|p| version > p.before) {
                    self.pending = None;
                }
            }
            ServerMsgKind::Update => {
                c.version = Some(version);
                c.had = Some(version);
                c.legal = msg.legal.unwrap_or_default();
                self.version = self.version.max(version);
                self.arrived(client, version, at);
            }
            _ => {}
        }
    }

    /// Notes that `client` has the update to `version`; when every expected
    /// client has it, that is one latency sample.
    fn arrived(&mut self, client: usize, version: u64, at: Instant) {
        let Some(p) = self.pending.as_mut() else {
            return;
        };
        if version != p.before + 1 || p.measured {
            return;
        }
        p.got |= 1 << client;
        if at > p.last {
            p.last = at;
        }
        if p.got & p.expect == p.expect {
            p.measured = true;
            if p.spoiled {
                Metrics::bump(&self.shared.metrics.samples_dropped);
            } else {
                self.shared.metrics.latency(p.last - p.sent);
            }
        }
        if p.measured && p.answered {
            self.pending = None;
        }
    }

    fn on_closed(&mut self, client: usize, epoch: u32) {
        let Some(c) = self.clients.get_mut(client) else {
            return;
        };
        if c.epoch != epoch {
            return;
        }
        c.sink = None;
        c.welcomed = false;
        c.version = None;
        c.legal.clear();
        // The answer to an action can only come on the socket that sent it:
        // once that socket is gone, stop waiting (the check finds the action
        // in the log or not) instead of stalling the game until the timeout.
        if self
            .pending
            .as_ref()
            .is_some_and(|p| p.client == client && !p.answered)
        {
            self.pending = None;
            if self.phase != Phase::Stop {
                self.shared.metrics.error("unanswered_on_disconnect");
            }
        }
        if let Some(p) = self.pending.as_mut()
            && p.expect & (1 << client) != 0
            && p.got & (1 << client) == 0
        {
            p.spoiled = true;
            p.expect &= !(1 << client);
        }
        if self.phase == Phase::Stop {
            return;
        }
        self.shared.metrics.dropped();
        c.lost_at.get_or_insert_with(Instant::now);
        c.opened_at = None;
        schedule_retry(c, &mut self.rng);
    }

    /// Starts a reconnect for every client whose retry time has come.
    fn reconnect_due(&mut self) {
        let now = Instant::now();
        for i in 0..self.clients.len() {
            let c = &mut self.clients[i];
            if c.retry_at.is_none_or(|t| t > now) {
                continue;
            }
            c.retry_at = None;
            c.epoch += 1;
            c.attempts += 1;
            let (mut target, epoch, since) = (c.target.clone(), c.epoch, c.had);
            // A cluster client asks where the lobby lives now before every
            // attempt, as the browser does (docs/CLUSTER.md), unless the
            // last close told it: its node may have died, and a survivor
            // asked answers once the lobby is served again.
            let relocate = self.shared.servers.len() > 1 && !std::mem::take(&mut c.told);
            let tx = self.tx.clone();
            let metrics = self.shared.metrics.clone();
            let source = self.shared.sources.pick();
            let shared = self.shared.clone();
            let start = self.rng.random_range(0..shared.servers.len());
            tokio::spawn(async move {
                let started = Instant::now();
                if relocate {
                    let found = locate(&shared, target.lobby, start, target.server).await;
                    shared
                        .metrics
                        .reconnect_part(Part::Lookup, started.elapsed());
                    if let Some(at) = found {
                        target.server = at;
                    }
                }
                let opening = Instant::now();
                let ev = match wsclient::open(&target, since, source, i, epoch, tx.clone(), metrics)
                    .await
                {
                    Ok(sink) => {
                        let open = opening.elapsed();
                        shared.metrics.reconnect_part(Part::Open, open);
                        Event::Connected {
                            client: i,
                            epoch,
                            server: target.server,
                            sink,
                            started,
                        }
                    }
                    Err(error) => Event::ConnectFailed {
                        client: i,
                        epoch,
                        error,
                    },
                };
                // If the driver is gone the run is over.
                let _ = tx.send(ev);
            });
        }
    }

    async fn close_all(&mut self) {
        for c in &mut self.clients {
            c.retry_at = None;
            if let Some(mut sink) = c.sink.take() {
                // Best effort: the server may be gone.
                let _ = tokio::time::timeout(Duration::from_secs(2), sink.close()).await;
            }
        }
    }
}

/// Longest a reconnecting client waits for one node's answer to where its
/// lobby lives before asking the next. Longer than a lease (3 s by
/// default), which a lookup may wait for a dead node's lobby to run out;
/// far shorter than the 30 s of other requests. A node at its open-file
/// limit leaves connections unaccepted in its backlog, and a client that
/// waited the full 30 s there was not back by the end of a recovery run
/// although its lobby was served again seconds after the kill
/// (docs/PERFORMANCE.md).
const LOCATE_TIMEOUT: Duration = Duration::from_secs(5);

/// Where lobby `id` lives, asked of the servers in turn from `start` until
/// one answers with the owner's `node_url` (each given [`LOCATE_TIMEOUT`]),
/// as the browser does (docs/CLUSTER.md): first `GET
/// /api/lobbies/{id}/node`, which the node asked answers by itself; when
/// that names `lost`, the node this client just lost or could not reach
/// (which the node asked may not know is dead yet), then `GET
/// /api/lobbies/{id}`, which that node forwards to the owner, finding out
/// whether it answers.
async fn locate(shared: &Shared, id: Uuid, start: usize, lost: SocketAddr) -> Option<SocketAddr> {
    let n = shared.servers.len();
    for k in 0..n {
        let server = shared.servers[(start + k) % n];
        let ask = async {
            let at = ask_where(server, shared.sources.pick(), id, false).await?;
            if at != lost {
                return Some(at);
            }
            ask_where(server, shared.sources.pick(), id, true).await
        };
        if let Ok(Some(at)) = tokio::time::timeout(LOCATE_TIMEOUT, ask).await {
            return Some(at);
        }
    }
    None
}

/// One node's answer to where lobby `id` lives (`None`: no answer that
/// names a node); `verify`: ask for the whole lobby, which the node asked
/// forwards to the owner (see [`locate`]).
async fn ask_where(
    server: SocketAddr,
    source: Option<IpAddr>,
    id: Uuid,
    verify: bool,
) -> Option<SocketAddr> {
    let mut http = HttpConn::connect(server, source).await.ok()?;
    let path = if verify {
        format!("/api/lobbies/{id}")
    } else {
        format!("/api/lobbies/{id}/node")
    };
    let r = http
        .request(hyper::Method::GET, &path, None, None)
        .await
        .ok()?;
    if r.status != 200 {
        return None;
    }
    let url = serde_json::from_slice::<serde_json::Value>(&r.body)
        .ok()
        .and_then(|v| v["node_url"].as_str().map(str::to_string))?;
    super::net::parse_target(&url).ok()
}

/// Schedules the next reconnect attempt with exponential backoff and jitter,
/// so that thousands of clients do not knock at once.
fn schedule_retry(c: &mut Client, rng: &mut ChaCha8Rng) {
    let base = Duration::from_millis(100u64 << c.attempts.min(5)).min(MAX_BACKOFF);
    let jitter = Duration::from_millis(rng.random_range(0..250));
    c.retry_at = Some(Instant::now() + base + jitter);
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    /// A node that accepts connections and never answers on them, as one
    /// at its open-file limit leaves them in its backlog.
    async fn silent_node() -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((socket, _)) = listener.accept().await {
                held.push(socket);
            }
        });
        addr
    }

    /// A node that says every lobby lives at `owner`, or at `light` when
    /// asked `GET /api/lobbies/{id}/node`.
    async fn answering_node(owner: SocketAddr, light: Option<SocketAddr>) -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let mut request = [0u8; 4096];
                    let n = socket.read(&mut request).await.unwrap_or(0);
                    let line = String::from_utf8_lossy(&request[..n]);
                    let named = match light {
                        Some(l) if line.contains("/node HTTP/1.1") => l,
                        _ => owner,
                    };
                    let body = format!(r#"{{"node_url":"http://{named}"}}"#);
                    let response = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = socket.write_all(response.as_bytes()).await;
                });
            }
        });
        addr
    }

    fn shared(servers: Vec<SocketAddr>) -> Shared {
        Shared {
            servers,
            sources: Sources::new(Vec::new()),
            pace: Duration::from_secs(2),
            spectators: 0,
            metrics: Arc::new(Metrics::default()),
            seed: 0,
            setup_slots: Semaphore::new(1),
        }
    }

    #[tokio::test]
    async fn a_light_answer_that_names_the_node_just_lost_is_checked_with_the_owner() {
        let owner: SocketAddr = "127.0.0.1:9".parse().unwrap();
        let lost: SocketAddr = "127.0.0.1:7".parse().unwrap();
        // The node asked believes the lobby is still on the node the
        // client lost; the whole lobby, asked next, names the owner.
        let shared = shared(vec![answering_node(owner, Some(lost)).await]);
        assert_eq!(locate(&shared, Uuid::nil(), 0, lost).await, Some(owner));
        // A light answer naming another node is taken as it is.
        let other: SocketAddr = "127.0.0.1:11".parse().unwrap();
        let shared = self::shared(vec![answering_node(owner, Some(other)).await]);
        assert_eq!(locate(&shared, Uuid::nil(), 0, lost).await, Some(other));
    }

    #[tokio::test]
    async fn a_node_that_never_answers_does_not_hold_a_reconnect_up() {
        let owner: SocketAddr = "127.0.0.1:9".parse().unwrap();
        let shared = shared(vec![silent_node().await, answering_node(owner, None).await]);
        // The silent node is asked first. Other requests wait 30 s for an
        // answer; a reconnect's lookup moves on to the next node after
        // `LOCATE_TIMEOUT`, well within this bound.
        let found = tokio::time::timeout(
            Duration::from_secs(20),
            locate(&shared, Uuid::nil(), 0, shared.servers[0]),
        )
        .await
        .expect("the lookup waited on the silent node for 20 s");
        assert_eq!(found, Some(owner));
    }
}
