//! Game actions: checking who sends them, applying them on a copy, journaling
//! them, and telling every connection what it may know.

use super::ConnId;
use super::actor::{LobbyActor, Slot};
use super::manage::storage_unavailable;
use super::settle::InDoubt;
use super::update_views::UpdateViews;
use crate::error::Refusal;
use crate::frames::rejected;
use crate::metrics::{ActorLabels, metrics};
use catan_core::record::{GameResult, RecordedAction};
use catan_core::{Action, Event, Phase, Seat, Viewer};
use catan_protocol::CloseReason;
use catan_protocol::Code;
use catan_protocol::MAX_CHAT_CHARS;
use catan_protocol::{ClientMsg, ServerMsg};
use catan_store::format_time;
use std::time::Duration;
use tokio::time::Instant;

/// Who is behind an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Actor {
    /// The seat's player.
    Player,
    /// The seat's bot.
    Bot,
    /// A stand-in for an absent or slow player.
    StandIn,
}

impl Actor {
    /// The `by` label of `catan_actions_total`.
    fn label(self) -> &'static str {
        match self {
            Actor::Player => "player",
            Actor::Bot => "bot",
            Actor::StandIn => "stand_in",
        }
    }
}

impl LobbyActor {
    pub(super) async fn on_client(&mut self, conn: ConnId, msg: ClientMsg) {
        let Some(c) = self.conns.get(conn) else {
            // The connection was closed meanwhile; nobody to answer.
            return;
        };
        let (viewer, token) = (c.viewer, c.token);
        match msg {
            ClientMsg::Hello { .. } => self.conns.reply(
                conn,
                &rejected(
                    None,
                    Code::AlreadyConnected,
                    "this socket already said hello",
                ),
            ),
            ClientMsg::Resync { id } => {
                self.send_game_state(conn, None);
                let version = self.version();
                self.conns.reply(conn, &ServerMsg::Accepted { id, version });
            }
            ClientMsg::TestBotOffer { id, bot, to } => {
                let reply = match self.arm_test_offer(bot, to) {
                    Ok(()) => ServerMsg::Accepted {
                        id,
                        version: self.version(),
                    },
                    Err(e) => rejected(Some(id), e.code, e.message),
                };
                self.conns.reply(conn, &reply);
            }
            ClientMsg::Chat { id, text } => {
                let r = self.chat(viewer, &text);
                let reply = match r {
                    Ok(()) => ServerMsg::Accepted {
                        id,
                        version: self.version(),
                    },
                    Err(e) => rejected(Some(id), e.code, e.message),
                };
                self.conns.reply(conn, &reply);
            }
            ClientMsg::Action {
                id,
                version,
                seat,
                action,
            } => {
                let r = self.player_action(viewer, token, version, seat, action, conn, &id);
                if let Err(e) = r.await {
                    tracing::debug!(conn, code = %e.code, "action refused");
                    self.conns
                        .reply(conn, &rejected(Some(id), e.code, e.message));
                }
            }
        }
    }

    fn version(&self) -> u64 {
        self.run.as_ref().map_or(0, |r| r.version)
    }

    fn chat(&mut self, viewer: Viewer, text: &str) -> Result<(), Refusal> {
        let Viewer::Seat(seat) = viewer else {
            return Err(Refusal::new(
                Code::NotYourSeat,
                "spectators cannot chat; join a seat to talk",
            ));
        };
        let text = text.trim();
        if self.env.config().panic_on_chat.as_deref() == Some(text) {
            panic!("fault injection: chat line {text:?}");
        }
        if text.is_empty() {
            return Err(Refusal::new(Code::EmptyChat, "say something"));
        }
        if text.chars().count() > MAX_CHAT_CHARS {
            return Err(Refusal::new(
                Code::ChatTooLong,
                format!("chat lines are at most {MAX_CHAT_CHARS} characters"),
            ));
        }
        let name = match self.seats.get(seat.index()) {
            Some(Slot::Human(h)) => h.name.clone(),
            _ => return Err(Refusal::new(Code::NotYourSeat, "you no longer hold a seat")),
        };
        self.conns.broadcast(&ServerMsg::Chat {
            seat,
            name,
            text: text.to_string(),
        });
        Ok(())
    }

    /// Checks a player's request and performs it; on success the reply
    /// `accepted` has been sent.
    #[allow(clippy::too_many_arguments)]
    async fn player_action(
        &mut self,
        viewer: Viewer,
        token: Option<crate::token::TokenHash>,
        version: u64,
        claimed: Option<Seat>,
        action: Action,
        conn: ConnId,
        id: &str,
    ) -> Result<(), Refusal> {
        let Viewer::Seat(seat) = viewer else {
            return Err(Refusal::new(
                Code::NotYourSeat,
                "spectators cannot act; join a seat to play",
            ));
        };
        if let Some(c) = claimed
            && c != seat
        {
            return Err(Refusal::new(
                Code::NotYourSeat,
                format!("this connection plays {seat}, not {c}"),
            ));
        }
        // The seat's token is checked again on every action: the seat may have
        // changed hands since this connection said hello.
        let still_holder = match (&self.seats.get(seat.index()), token) {
            (Some(Slot::Human(h)), Some(t)) => h.token.matches(&t),
            _ => false,
        };
        if !still_holder {
            return Err(Refusal::new(
                Code::InvalidToken,
                "this connection no longer holds the seat",
            ));
        }
        let Some(run) = &self.run else {
            return Err(Refusal::new(
                Code::GameNotStarted,
                "the game has not started yet",
            ));
        };
        if version != run.version {
            return Err(Refusal::new(
                Code::StaleVersion,
                format!(
                    "the game is at version {}, not {version}; apply the latest update and retry",
                    run.version
                ),
            ));
        }
        self.perform(seat, action, Actor::Player, Some((conn, id)))
            .await
            .map(|_| ())
    }

    /// Applies `action` for `seat` on a copy of the game, journals it, and
    /// only then makes it the game and tells everyone. `ack` gets
    /// `accepted` before the update. While an earlier action is in doubt
    /// (`settle`) every action is refused.
    pub(super) async fn perform(
        &mut self,
        seat: Seat,
        action: Action,
        by: Actor,
        ack: Option<(ConnId, &str)>,
    ) -> Result<u64, Refusal> {
        if self.settling.busy() {
            return Err(Refusal::new(
                Code::StorageUnavailable,
                "the game is waiting for the database to confirm its last action; \
                 nothing changed, try again shortly",
            ));
        }
        let Some(run) = self.run.as_mut() else {
            return Err(Refusal::new(
                Code::GameNotStarted,
                "the game has not started yet",
            ));
        };
        let mut next = run.game.clone();
        let events = next.apply(seat, action).map_err(Refusal::from)?;
        let entry = RecordedAction::new(
            run.version + 1,
            seat,
            action,
            &events,
            format_time(chrono::Utc::now()),
            by == Actor::StandIn,
        );
        let journal = self.env.journal();
        let began = std::time::Instant::now();
        let appended = journal.append(self.id, &entry).await;
        let m = metrics();
        m.appended(began.elapsed());
        match appended {
            Ok(()) => {}
            Err(e) if e.in_doubt => {
                m.journal_failures.inc();
                let seq = entry.seq;
                self.settle_later(InDoubt {
                    entry,
                    seat,
                    by,
                    next,
                    events,
                });
                tracing::warn!(error = %e, seq, "journal did not confirm an action in time");
                return Err(Refusal::new(
                    Code::StorageUnavailable,
                    "the database did not confirm the action in time; the game is unchanged \
                     for now, and applies the action later (an update) if the database \
                     turns out to have stored it",
                ));
            }
            Err(e) if e.fenced => {
                tracing::warn!(error = %e, seq = entry.seq, "lobby taken over; action refused");
                self.stopping = Some(CloseReason::MOVED);
                return Err(Refusal::new(
                    Code::LobbyMoved,
                    "another server serves this game now; reconnect to play on there",
                ));
            }
            Err(e) => {
                m.journal_failures.inc();
                tracing::warn!(error = %e, seq = entry.seq, "journal refused an action");
                return Err(storage_unavailable());
            }
        }
        if by == Actor::StandIn {
            tracing::info!(seat = seat.0, action = action.kind(), "stand-in acted");
        }
        Ok(self.adopt(seat, by, entry.seq, next, &events, ack).await)
    }

    /// Makes a recorded action the game (`next`, at version `seq`) and tells
    /// everyone; `ack` gets `accepted` first.
    pub(super) async fn adopt(
        &mut self,
        seat: Seat,
        by: Actor,
        seq: u64,
        next: catan_core::Game,
        events: &[Event],
        ack: Option<(ConnId, &str)>,
    ) -> u64 {
        metrics()
            .actions
            .get_or_create(&ActorLabels { by: by.label() })
            .inc();
        let Some(run) = self.run.as_mut() else {
            return seq;
        };
        run.game = next;
        run.version = seq;
        run.step_started = Instant::now();
        let finished = run.game.phase() == Phase::Finished;
        if let Some((conn, id)) = ack {
            self.conns.reply(
                conn,
                &ServerMsg::Accepted {
                    id: id.to_string(),
                    version: seq,
                },
            );
        }
        self.broadcast_update(Some(seat), by == Actor::StandIn, events);
        if finished {
            self.finish().await;
        }
        self.schedule_bots();
        seq
    }

    async fn finish(&mut self) {
        let Some(run) = &mut self.run else { return };
        // No update follows the end: the views kept for one go.
        run.sent_views = Default::default();
        let result = GameResult::from_game(&run.game);
        tracing::info!(winner = ?result.winner, version = run.version, "game over");
        let journal = self.env.journal();
        if let Err(e) = journal.game_finished(self.id, &result).await {
            // The actions are all recorded; the end can be derived by replay.
            tracing::warn!(error = %e, "journal refused the game result");
        }
        let msg = ServerMsg::GameOver {
            version: run.version,
            winner: result.winner,
            view: run.game.view(Viewer::Omniscient),
            seed: Some(run.fairness.clone()),
        };
        self.conns.broadcast(&msg);
        self.lobby_changed();
        self.update_idle();
    }

    /// Tells every connection what happened, redacted for its viewer.
    pub(super) fn broadcast_update(
        &mut self,
        seat: Option<Seat>,
        stand_in: bool,
        events: &[Event],
    ) {
        let Some(run) = &self.run else { return };
        let game = &run.game;
        let open = game.options().open_hands;
        let version = run.version;
        let step_time_left_ms = self.step_time_left_ms();
        self.history.push(version, seat, stand_in, events);
        let mut views = UpdateViews::new(game, version, &run.sent_views);
        self.conns.broadcast_with(|viewer, form| {
            let (view, changes) = views.for_client(viewer, form);
            ServerMsg::Update {
                version,
                seat,
                stand_in,
                events: events
                    .iter()
                    .map(|e| e.redacted_for(viewer, open))
                    .collect(),
                view,
                changes,
                legal: legal_for(game, viewer),
                step_time_left_ms,
            }
        });
        let sent = views.into_sent();
        if let Some(run) = &mut self.run {
            run.sent_views = sent;
        }
        self.publish();
    }

    /// With the turn timer on and the game not over: how long the current
    /// step has left before a stand-in acts, in milliseconds. A page
    /// counts down from it, so a reload does not restart the countdown.
    pub(super) fn step_time_left_ms(&self) -> Option<u64> {
        let timer = self.settings.turn_timer;
        let run = self.run.as_ref()?;
        if !timer.enabled || run.game.phase() == Phase::Finished {
            return None;
        }
        let due = run.step_started + Duration::from_secs(u64::from(timer.seconds));
        let left = due.saturating_duration_since(Instant::now());
        Some(u64::try_from(left.as_millis()).unwrap_or(u64::MAX))
    }

    /// Sends one connection the game as it stands: its history (the steps
    /// after `since` when the client has every step up to that version, as
    /// a reconnecting client says in its `hello`; else all of them), the
    /// snapshot, and the full final state if the game is over.
    pub(super) fn send_game_state(&mut self, conn: ConnId, since: Option<u64>) {
        let Some(viewer) = self.conns.get(conn).map(|c| c.viewer) else {
            return;
        };
        let Some(run) = &self.run else {
            self.conns
                .send(conn, &ServerMsg::Lobby { lobby: self.info() });
            return;
        };
        // A version past the game's own is not this game's (the client is
        // confused): it gets everything, and replaces its log.
        let since = since.filter(|&v| v <= run.version);
        let history = ServerMsg::History {
            version: run.version,
            since,
            steps: self
                .history
                .for_viewer(viewer, run.game.options().open_hands, since),
        };
        let snapshot = ServerMsg::Snapshot {
            version: run.version,
            view: run.game.view(viewer),
            legal: legal_for(&run.game, viewer),
            step_time_left_ms: self.step_time_left_ms(),
        };

        let over = (run.game.phase() == Phase::Finished).then(|| ServerMsg::GameOver {
            version: run.version,
            winner: run.game.winner(),
            view: run.game.view(Viewer::Omniscient),
            seed: Some(run.fairness.clone()),
        });
        let finished = over.is_some();
        self.conns.send(conn, &history);
        self.conns.send(conn, &snapshot);
        if let Some(over) = over {
            self.conns.send(conn, &over);
        }
        // The next update can then send this connection only what changed
        // since its snapshot, even if no other connection of its viewer
        // was there for the last update.
        if let Some(run) = &mut self.run
            && !finished
        {
            run.sent_views.remember(run.version, viewer, &run.game);
        }
    }
}

/// What `viewer` may do now: a seat's legal actions, nothing for others.
fn legal_for(game: &catan_core::Game, viewer: Viewer) -> Vec<Action> {
    match viewer {
        Viewer::Seat(s) => game.legal_actions(s),
        _ => Vec::new(),
    }
}
