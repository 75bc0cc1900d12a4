//! The lobby actor: its state, its loop, and connections coming and going.
//!
//! The loop waits for the next command or the next timer (a bot's move, a
//! stand-in for an absent player, or idle cleanup) and handles one at a
//! time. Join/leave/bots/start live in `manage`, game actions in `play`,
//! bot and stand-in scheduling in `bots`.

use super::conns::Conns;
use super::env::LobbyEnv;
use super::update_views::SentViews;
use super::{Command, ConnectRequest, LOBBY_QUEUE, LobbyHandle};
use crate::error::Refusal;
use crate::settings::LobbySettings;
use crate::token::TokenHash;
use catan_bots::{Bot, BotKind};
use catan_core::record::{SeedReveal, commitment};
use catan_core::{Game, Phase, Seat, Viewer};
use catan_protocol::CloseReason;
use catan_protocol::Code;
use catan_protocol::{LobbyInfo, LobbyStatus, SeatInfo, SeatKind};
use catan_protocol::{SeatPresence, ServerMsg};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, RwLock};
use tokio::sync::mpsc;
use tokio::time::Instant;
use uuid::Uuid;

/// A person in a seat.
pub(super) struct Human {
    pub name: String,
    pub token: TokenHash,
    /// Since when nobody is connected for this seat (`None`: connected).
    pub away_since: Option<Instant>,
}

/// A bot in a seat.
pub(super) struct BotSeat {
    pub name: String,
    pub kind: BotKind,
    pub bot: Box<dyn Bot>,
}

/// Who sits in a seat.
pub(super) enum Slot {
    Empty,
    Human(Human),
    Bot(BotSeat),
}

/// The game once started.
pub(super) struct Running {
    pub game: Game,
    /// Actions applied so far.
    pub version: u64,
    /// When the game started waiting for its current step.
    pub step_started: Instant,
    /// The seed and salt: committed to at the start, revealed at the end.
    pub fairness: SeedReveal,
    /// The views the last update was made from.
    pub sent_views: SentViews,
}

/// The task that owns one lobby.
pub struct LobbyActor {
    pub(super) id: Uuid,
    pub(super) settings: LobbySettings,
    pub(super) host: TokenHash,
    pub(super) seats: Vec<Slot>,
    pub(super) run: Option<Running>,
    pub(super) conns: Conns,
    pub(super) env: LobbyEnv,
    pub(super) info_slot: Arc<RwLock<LobbyInfo>>,
    /// Randomness for stand-ins and bot seeds (never the game's own RNG).
    pub(super) rng: ChaCha8Rng,
    /// Since when nobody is connected and no game runs.
    pub(super) idle_since: Option<Instant>,
    /// When the next bot move is due.
    pub(super) bot_due: Option<Instant>,
    /// After a journal failure: no automatic move before this.
    pub(super) backoff_until: Option<Instant>,
    /// A waiting-room write failed and its change was undone, but it may
    /// have committed: when to store the room as it is again (`room`).
    pub(super) room_resave: Option<Instant>,
    /// When each open trade offer was made (a bot's offer waits for people).
    pub(super) offer_clock: super::offer_wait::OfferClock,
    /// Decisions of bots thinking off the actor (`think`).
    pub(super) thinking: super::think::Thinking,
    /// Every step of the running game, for viewers who (re)connect.
    pub(super) history: super::history::History,
    /// An action whose append is in doubt, being settled (`settle`).
    pub(super) settling: super::settle::Settling,
    /// Told to stop (the node hands the lobby to another, or lost it): the
    /// reason its sockets are closed with.
    pub(super) stopping: Option<CloseReason>,
    /// A test hook's armed bot offer: bot, recipient, the last turn it
    /// offered in (`test_offer`).
    pub(super) test_offer: Option<(Seat, Seat, Option<u32>)>,
    rx: mpsc::Receiver<Command>,
}

impl LobbyActor {
    /// A new, empty lobby and the handle to reach it.
    pub fn new(
        id: Uuid,
        settings: LobbySettings,
        host: TokenHash,
        env: LobbyEnv,
    ) -> (LobbyActor, LobbyHandle) {
        let (tx, rx) = mpsc::channel(LOBBY_QUEUE);
        let seats = (0..settings.options.players).map(|_| Slot::Empty).collect();
        let rng = match env.config().game_seed {
            Some(s) => ChaCha8Rng::seed_from_u64(s),
            None => ChaCha8Rng::from_rng(&mut rand::rng()),
        };
        let mut actor = LobbyActor {
            id,
            settings,
            host,
            seats,
            run: None,
            conns: Conns::default(),
            env,
            info_slot: Arc::new(RwLock::new(placeholder_info(id))),
            rng,
            idle_since: Some(Instant::now()),
            bot_due: None,
            backoff_until: None,
            room_resave: None,
            offer_clock: Default::default(),
            thinking: Default::default(),
            history: Default::default(),
            settling: Default::default(),
            stopping: None,
            test_offer: None,
            rx,
        };
        actor.publish();
        (actor, LobbyHandle::new(id, tx))
    }

    /// The shared copy of this lobby's description the registry lists.
    pub fn info_slot(&self) -> Arc<RwLock<LobbyInfo>> {
        self.info_slot.clone()
    }

    /// Runs the lobby until it is cleaned up or every handle is gone.
    pub async fn run(mut self) {
        tracing::info!(status = ?self.status(), "lobby actor started");
        self.schedule_bots();
        loop {
            let deadline = self.next_deadline();
            tokio::select! {
                cmd = self.rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                Some(d) = self.thinking.next() => self.on_decision(d).await,
                Some(s) = self.settling.next() => self.on_settled(s).await,
                _ = sleep_until(deadline) => self.on_timer().await,
            }
            if let Some(reason) = self.stopping {
                tracing::info!(reason = reason.reason, "lobby stopped here");
                // Handed on (a drain): the next owner rebuilds the room
                // from the store, so leave it true there if it can be.
                self.resave_room().await;
                break;
            }
            if self.expired(Instant::now()) {
                tracing::info!("lobby idle; cleaning it up");
                if self.status() == LobbyStatus::Waiting {
                    self.close_room().await;
                }
                break;
            }
        }
        self.conns
            .close_all(self.stopping.unwrap_or(CloseReason::LOBBY_CLOSED));
        tracing::info!("lobby actor stopped");
    }

    async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Info { reply } => {
                let _ = reply.send(Ok(self.info()));
            }
            Command::Join {
                name,
                seat,
                token,
                reply,
            } => {
                let r = self.join(name, seat, token).await;
                let _ = reply.send(r);
            }
            Command::Leave { token, reply } => {
                let r = self.leave(token).await;
                let _ = reply.send(r);
            }
            Command::AddBot {
                host,
                kind,
                seat,
                reply,
            } => {
                let r = self.add_bot(host, kind, seat).await;
                let _ = reply.send(r);
            }
            Command::RemoveBot { host, seat, reply } => {
                let r = self.remove_bot(host, seat).await;
                let _ = reply.send(r);
            }
            Command::Start { host, reply } => {
                let r = self.start(host).await;
                let _ = reply.send(r);
            }
            Command::SaveRoom { reply } => {
                let r = self.save_room().await;
                let _ = reply.send(r);
            }
            Command::Connect { req, reply } => {
                let r = self.connect(req);
                let _ = reply.send(r);
            }
            Command::Disconnect { conn } => self.disconnect(conn),
            Command::Client { conn, msg } => self.on_client(conn, msg).await,
            Command::Reply { conn, msg } => self.conns.reply(conn, &msg),
            Command::Close { conn, reason } => self.conns.kick(conn, reason),
            Command::Stop { reason } => self.stopping = Some(reason),
        }
        self.after_sends();
    }

    /// Where the lobby is in its life.
    pub(super) fn status(&self) -> LobbyStatus {
        match &self.run {
            None => LobbyStatus::Waiting,
            Some(r) if r.game.phase() == Phase::Finished => LobbyStatus::Finished,
            Some(_) => LobbyStatus::Playing,
        }
    }

    fn expired(&self, now: Instant) -> bool {
        // A lobby with an action in doubt stays until it is settled: resumed
        // from the log meanwhile, it could write the same seq differently.
        if self.settling.busy() {
            return false;
        }
        match self.idle_since {
            Some(t) => now.saturating_duration_since(t) >= self.idle_limit(),
            None => false,
        }
    }

    /// How long the lobby may stay idle: a running game (unloadable only
    /// with a durable journal, see [`Self::update_idle`]) is unloaded
    /// after its own time, any other lobby closed after the lobby's.
    pub(super) fn idle_limit(&self) -> std::time::Duration {
        let config = self.env.config();
        match self.status() {
            LobbyStatus::Playing => config.game_unload(),
            _ => config.lobby_idle(),
        }
    }

    /// Notes whether the lobby is idle: nobody connected, and no game running
    /// unless the journal is durable (then the game is unloaded from memory
    /// and resumed from its log when someone comes back; see
    /// `persist::resume_on_demand`).
    pub(super) fn update_idle(&mut self) {
        let unloadable = self.status() != LobbyStatus::Playing || self.env.journal().durable();
        let idle = self.conns.is_empty() && unloadable;
        match (idle, self.idle_since) {
            (true, None) => self.idle_since = Some(Instant::now()),
            (false, Some(_)) => self.idle_since = None,
            _ => {}
        }
    }

    /// The lobby as everyone may see it.
    pub(super) fn info(&self) -> LobbyInfo {
        let seats: Vec<SeatInfo> = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let seat = Seat(i as u8);
                match s {
                    Slot::Empty => SeatInfo {
                        seat,
                        kind: SeatKind::Empty,
                        name: None,
                        bot: None,
                        connected: false,
                    },
                    Slot::Human(h) => SeatInfo {
                        seat,
                        kind: SeatKind::Human,
                        name: Some(h.name.clone()),
                        bot: None,
                        connected: self.conns.seat_conn(seat).is_some(),
                    },
                    Slot::Bot(b) => SeatInfo {
                        seat,
                        kind: SeatKind::Bot,
                        name: Some(b.name.clone()),
                        bot: Some(b.kind),
                        connected: true,
                    },
                }
            })
            .collect();
        LobbyInfo {
            id: self.id,
            name: self.settings.name.clone(),
            public: self.settings.public,
            status: self.status(),
            options: self.settings.options,
            turn_timer: self.settings.turn_timer,
            bot_delay_ms: self.settings.bot_delay_ms,
            bot_offer_wait_ms: self.env.config().bot_offer_wait_ms,
            seats_taken: seats.iter().filter(|s| s.kind != SeatKind::Empty).count(),
            seats,
            spectators: self.conns.spectators(),
            version: self.run.as_ref().map_or(0, |r| r.version),
            seed_commitment: self
                .run
                .as_ref()
                .map(|r| commitment(r.fairness.seed, &r.fairness.salt)),
            node_url: self.env.config().node_url.clone(),
        }
    }

    /// Refreshes the registry's copy of the lobby description.
    pub(super) fn publish(&mut self) {
        let info = self.info();
        match self.info_slot.write() {
            Ok(mut g) => *g = info,
            Err(p) => *p.into_inner() = info,
        }
    }

    /// Tells everyone the lobby changed.
    pub(super) fn lobby_changed(&mut self) {
        self.publish();
        let info = self.info();
        self.conns.broadcast(&ServerMsg::Lobby { lobby: info });
    }

    /// Tells everyone who is connected.
    pub(super) fn presence_changed(&mut self) {
        self.publish();
        let seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatPresence {
                seat: Seat(i as u8),
                connected: match s {
                    Slot::Empty => false,
                    Slot::Bot(_) => true,
                    Slot::Human(_) => self.conns.seat_conn(Seat(i as u8)).is_some(),
                },
            })
            .collect();
        let spectators = self.conns.spectators();
        self.conns
            .broadcast(&ServerMsg::Presence { seats, spectators });
    }

    /// Handles connections the last sends found too slow or closed.
    pub(super) fn after_sends(&mut self) {
        let mut changed = false;
        // A presence broadcast can itself drop a connection; a few rounds
        // settle it because each round removes what it dropped.
        for _ in 0..4 {
            let dropped = self.conns.take_dropped();
            if dropped.is_empty() {
                break;
            }
            changed = true;
            for v in dropped {
                self.mark_away(v);
            }
            self.presence_changed();
        }
        if changed {
            self.update_idle();
            self.schedule_bots();
        }
    }

    fn mark_away(&mut self, viewer: Viewer) {
        if let Viewer::Seat(s) = viewer
            && self.conns.seat_conn(s).is_none()
            && let Some(Slot::Human(h)) = self.seats.get_mut(s.index())
            && h.away_since.is_none()
        {
            h.away_since = Some(Instant::now());
        }
    }

    fn connect(&mut self, req: ConnectRequest) -> Result<(), Refusal> {
        let viewer = match req.token {
            Some(hash) => {
                let seat = self.seat_of(&hash).ok_or_else(|| {
                    Refusal::new(Code::InvalidToken, "no seat in this lobby has that token")
                })?;
                Viewer::Seat(seat)
            }
            None => {
                if self.conns.spectators() >= self.env.config().max_spectators {
                    return Err(Refusal::new(
                        Code::SpectatorsFull,
                        "this lobby has as many spectators as it allows",
                    ));
                }
                Viewer::Spectator
            }
        };
        if let Viewer::Seat(s) = viewer {
            if let Some(old) = self.conns.seat_conn(s) {
                tracing::info!(seat = s.0, "seat reconnected; replacing the old connection");
                self.conns.kick(old, CloseReason::REPLACED);
                // The old connection is replaced, not gone: no away mark.
                self.conns.take_dropped();
            }
            if let Some(Slot::Human(h)) = self.seats.get_mut(s.index()) {
                h.away_since = None;
            }
        }
        self.conns
            .insert(req.conn, viewer, req.protocol, req.token, req.tx, req.close);
        tracing::info!(conn = req.conn, ?viewer, "connected");
        self.conns.send(
            req.conn,
            &ServerMsg::Welcome {
                protocol: req.protocol,
                lobby_id: self.id,
                you: viewer,
            },
        );
        self.conns
            .send(req.conn, &ServerMsg::Lobby { lobby: self.info() });
        if self.run.is_some() {
            self.send_game_state(req.conn, req.since);
        }
        self.presence_changed();
        self.update_idle();
        self.schedule_bots();
        Ok(())
    }

    fn disconnect(&mut self, conn: super::ConnId) {
        if let Some(viewer) = self.conns.remove(conn) {
            tracing::info!(conn, ?viewer, "disconnected");
            self.mark_away(viewer);
            self.presence_changed();
            self.update_idle();
            self.schedule_bots();
        }
    }

    /// The seat whose token hashes to `hash`.
    pub(super) fn seat_of(&self, hash: &TokenHash) -> Option<Seat> {
        self.seats.iter().enumerate().find_map(|(i, s)| match s {
            Slot::Human(h) if h.token.matches(hash) => Some(Seat(i as u8)),
            _ => None,
        })
    }
}

fn placeholder_info(id: Uuid) -> LobbyInfo {
    LobbyInfo {
        id,
        name: String::new(),
        public: false,
        status: LobbyStatus::Waiting,
        options: Default::default(),
        turn_timer: Default::default(),
        bot_delay_ms: 0,
        bot_offer_wait_ms: 0,
        seats: Vec::new(),
        seats_taken: 0,
        spectators: 0,
        version: 0,
        seed_commitment: None,
        node_url: None,
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}
