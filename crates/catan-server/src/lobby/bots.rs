//! Timers: bot moves after the lobby's delay, stand-ins for absent or slow
//! players, and the deadline the actor's loop sleeps until.
//!
//! Nothing here blocks: the actor computes the next due time and its loop
//! wakes for it between commands.

use super::actor::{LobbyActor, Slot};
use super::play::Actor;
use catan_bots::stand_in_action;
use catan_core::playout::seats_to_act;
use catan_core::{Action, Phase, Seat, Viewer};
use catan_protocol::Code;
use rand::Rng;
use std::time::Duration;
use tokio::time::Instant;

/// Wait after the journal refused an automatic move.
const BACKOFF: Duration = Duration::from_secs(1);

/// The shortest time between two stand-in steps for a disconnected player.
const STAND_IN_PACE: Duration = Duration::from_secs(1);

impl LobbyActor {
    /// The bot seat the game waits for, if any: a bot asked to answer a
    /// trade offer it has not answered (before the offer's maker, so that
    /// bots can trade with each other), else a bot to act.
    fn pending_bot(&self) -> Option<Seat> {
        // Bots wait while nobody is connected: a game nobody watches is
        // paused, not played out (and written to the log) for nobody.
        if self.conns.is_empty() {
            return None;
        }
        let game = &self.run.as_ref()?.game;
        let is_bot = |s: Seat| matches!(self.seats.get(s.index()), Some(Slot::Bot(_)));
        if game.phase() == Phase::Action {
            for o in game.offers() {
                for s in o.to.iter() {
                    if s != o.maker
                        && is_bot(s)
                        && !o.accepted.contains(s)
                        && !o.declined.contains(s)
                        && game.legal_actions(s).iter().any(|a| {
                            matches!(a, Action::AcceptTrade { offer } | Action::DeclineTrade { offer } if *offer == o.id)
                        })
                    {
                        return Some(s);
                    }
                }
            }
        }
        seats_to_act(game).into_iter().find(|s| is_bot(*s))
    }

    /// Sets when the next bot move is due: after the lobby's delay, or once
    /// people have had time to answer the bot's offer (`offer_wait`).
    pub(super) fn schedule_bots(&mut self) {
        if self.thinking.busy.is_some() {
            // A decision is under way; its return schedules the next move.
            self.bot_due = None;
            return;
        }
        let Some(seat) = self.pending_bot() else {
            self.bot_due = None;
            return;
        };
        let paced = Instant::now() + Duration::from_millis(self.settings.bot_delay_ms);
        self.bot_due = Some(match self.bot_offer_wait(seat) {
            Some(t) => t.max(paced),
            None => paced,
        });
    }

    /// Human seats the game waits for and when each gets a stand-in: a
    /// disconnected player after the server's grace period (timer or not, so
    /// that one lost connection cannot stall a game for good), and with the
    /// turn timer on also a connected player who is too slow.
    fn stand_in_deadlines(&self) -> Vec<(Seat, Instant)> {
        let timer = self.settings.turn_timer;
        let Some(run) = &self.run else {
            return Vec::new();
        };
        // A game nobody is connected to (no player, no spectator) pauses
        // instead of being played out by stand-ins for nobody.
        if self.conns.is_empty() {
            return Vec::new();
        }
        let slow = timer
            .enabled
            .then(|| run.step_started + Duration::from_secs(timer.seconds as u64));
        let grace = self.env.config().turn_grace();
        // Once the grace has run out, one stand-in step per `pace` at most:
        // a table of absent players is played at a human speed, not in a
        // tight loop that fills the journal.
        let pace = run.step_started + grace.min(STAND_IN_PACE);
        seats_to_act(&run.game)
            .into_iter()
            .filter_map(|s| match self.seats.get(s.index()) {
                Some(Slot::Human(h)) => {
                    let away = h.away_since.map(|t| (t + grace).max(pace));
                    let due = match (away, slow) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                    due.map(|t| (s, t))
                }
                _ => None,
            })
            .collect()
    }

    /// When the loop must wake next.
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        let mut due = self.bot_due;
        for (_, t) in self.stand_in_deadlines() {
            due = Some(due.map_or(t, |d| d.min(t)));
        }
        if let (Some(d), Some(b)) = (due, self.backoff_until) {
            due = Some(d.max(b));
        }
        if let Some(idle) = self.idle_since {
            let t = idle + self.idle_limit();
            due = Some(due.map_or(t, |d| d.min(t)));
        }
        if let Some(t) = self.room_resave {
            due = Some(due.map_or(t, |d| d.min(t)));
        }
        due
    }

    /// Does whatever is due.
    pub(super) async fn on_timer(&mut self) {
        let now = Instant::now();
        if self.room_resave.is_some_and(|t| t <= now) {
            self.resave_room().await;
        }
        if self.backoff_until.is_some_and(|b| b > now) {
            return;
        }
        self.backoff_until = None;
        if self.bot_due.is_some_and(|t| t <= now) {
            self.bot_move().await;
        }
        let due: Vec<Seat> = self
            .stand_in_deadlines()
            .into_iter()
            .filter(|(_, t)| *t <= now)
            .map(|(s, _)| s)
            .collect();
        for seat in due {
            self.stand_in(seat).await;
        }
        self.after_sends();
    }

    async fn bot_move(&mut self) {
        let Some(seat) = self.pending_bot() else {
            self.bot_due = None;
            return;
        };
        let Some(run) = &self.run else { return };
        let view = run.game.view(Viewer::Seat(seat));
        let legal = run.game.legal_actions(seat);
        if legal.is_empty() {
            tracing::error!(seat = seat.0, "bot has nothing to do while awaited");
            self.bot_due = None;
            return;
        }
        if let Some(offer) = self.take_test_offer(seat) {
            self.act_for_bot(seat, Some(offer), legal).await;
            return;
        }
        let Some(Slot::Bot(b)) = self.seats.get_mut(seat.index()) else {
            return;
        };
        if b.bot.thinks_long() {
            // Its decision comes back as a message (`think`).
            self.think_off_actor(seat, view, legal);
            return;
        }
        let choice = b.bot.choose(&view, &legal);
        self.act_for_bot(seat, choice, legal).await;
    }

    /// Plays a bot's choice for `seat` (a random legal action if it has none
    /// or the engine refuses it).
    pub(super) async fn act_for_bot(
        &mut self,
        seat: Seat,
        choice: Option<Action>,
        legal: Vec<Action>,
    ) {
        let action = match choice {
            Some(a) => a,
            None if legal.is_empty() => {
                self.bot_due = None;
                return;
            }
            None => legal[self.rng.random_range(0..legal.len())],
        };
        match self.perform(seat, action, Actor::Bot, None).await {
            Ok(_) => {}
            Err(e) if e.code == Code::StorageUnavailable => self.back_off(),
            Err(e) => {
                // A bot's proposal may be refused (e.g. a trade offer the
                // engine rejects); a legal action keeps the game going.
                tracing::debug!(seat = seat.0, code = %e.code, "bot action refused");
                if legal.is_empty() {
                    self.bot_due = None;
                    return;
                }
                let fallback = legal[self.rng.random_range(0..legal.len())];
                if let Err(e) = self.perform(seat, fallback, Actor::Bot, None).await {
                    tracing::warn!(seat = seat.0, code = %e.code, "bot fallback refused");
                    self.back_off();
                }
            }
        }
    }

    async fn stand_in(&mut self, seat: Seat) {
        let Some(run) = &self.run else { return };
        if !seats_to_act(&run.game).contains(&seat) {
            return;
        }
        // The stand-in sees what the seat's bot would: its view, its legal actions.
        let view = run.game.view(Viewer::Seat(seat));
        let legal = run.game.legal_actions(seat);
        let Some(action) = stand_in_action(&view, &legal, &mut self.rng) else {
            return;
        };
        if let Err(e) = self.perform(seat, action, Actor::StandIn, None).await {
            tracing::warn!(seat = seat.0, code = %e.code, "stand-in action refused");
            self.back_off();
        }
    }

    fn back_off(&mut self) {
        self.backoff_until = Some(Instant::now() + BACKOFF);
        if self.bot_due.is_none() {
            self.schedule_bots();
        }
    }
}
