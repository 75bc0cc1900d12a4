//! Bots that think long (the `hard` search bot) think off the lobby actor.
//!
//! The actor hands the bot, its seat's view and legal actions to a blocking
//! thread of a bounded pool (one thread per core, shared by every lobby) and
//! goes on handling its messages. The decision comes back on the actor's own
//! channel with the game version it was made for; the actor plays it only if
//! the game is still at that version (otherwise the bot is asked again). So
//! a thinking bot delays neither another lobby nor its own lobby's
//! connections, chat and resyncs.

use super::actor::{LobbyActor, Slot};
use crate::config::Config;
use catan_bots::search::SearchConfig;
use catan_bots::{Bot, BotKind, RandomBot, SearchBot, make_bot};
use catan_core::{Action, Seat, View};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::sync::{Semaphore, mpsc};

/// A bot of `kind` as this server plays it (the `hard` bot with the
/// server's think budget).
pub(crate) fn server_bot(kind: BotKind, seed: u64, config: &Config) -> Box<dyn Bot> {
    match kind {
        BotKind::Hard => Box::new(SearchBot::new(
            seed,
            SearchConfig {
                budget: Some(Duration::from_millis(config.bot_think_ms.max(1))),
                max_playouts: config.bot_think_playouts.max(1),
                ..SearchConfig::default()
            },
        )),
        k => make_bot(k, seed),
    }
}

/// A decision made off the actor.
pub(super) struct Decision {
    seat: Seat,
    /// The game version the bot was asked at.
    version: u64,
    /// The bot itself, handed back (`None` if its thread panicked).
    bot: Option<Box<dyn Bot>>,
    choice: Option<Action>,
    legal: Vec<Action>,
}

/// The actor's end of the decisions coming back.
pub(super) struct Thinking {
    tx: mpsc::UnboundedSender<Decision>,
    rx: mpsc::UnboundedReceiver<Decision>,
    /// The seat and version of the decision under way, if any.
    pub(super) busy: Option<(Seat, u64)>,
}

impl Default for Thinking {
    fn default() -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        Thinking { tx, rx, busy: None }
    }
}

impl Thinking {
    /// The next decision that came back (never ends: the actor holds a sender).
    pub(super) async fn next(&mut self) -> Option<Decision> {
        self.rx.recv().await
    }
}

/// Threads that may think at once, over all lobbies: one per core.
fn pool() -> Arc<Semaphore> {
    static POOL: OnceLock<Arc<Semaphore>> = OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Arc::new(Semaphore::new(cores))
    })
    .clone()
}

impl LobbyActor {
    /// Starts the bot at `seat` thinking off the actor, if it is one that
    /// thinks long; returns whether it did (then its decision comes back as
    /// a [`Decision`]).
    pub(super) fn think_off_actor(&mut self, seat: Seat, view: View, legal: Vec<Action>) -> bool {
        let Some(run) = &self.run else { return false };
        let version = run.version;
        let Some(Slot::Bot(b)) = self.seats.get_mut(seat.index()) else {
            return false;
        };
        if !b.bot.thinks_long() {
            return false;
        }
        // The seat's bot travels to the thinking thread and back; nothing
        // asks this stand-in meanwhile (`busy` holds further bot moves).
        let mut bot = std::mem::replace(&mut b.bot, Box::new(RandomBot::new(0)));
        self.thinking.busy = Some((seat, version));
        self.bot_due = None;
        let tx = self.thinking.tx.clone();
        let pool = pool();
        tokio::spawn(async move {
            let permit = pool.acquire_owned().await;
            let task = tokio::task::spawn_blocking(move || {
                let choice = bot.choose(&view, &legal);
                (bot, choice, legal)
            })
            .await;
            drop(permit);
            let decision = match task {
                Ok((bot, choice, legal)) => Decision {
                    seat,
                    version,
                    bot: Some(bot),
                    choice,
                    legal,
                },
                Err(e) => {
                    tracing::error!(seat = seat.0, error = %e, "a bot's thinking thread failed");
                    Decision {
                        seat,
                        version,
                        bot: None,
                        choice: None,
                        legal: Vec::new(),
                    }
                }
            };
            // The lobby may be gone by now; then nobody needs the answer.
            let _ = tx.send(decision);
        });
        true
    }

    /// A decision came back: put the bot back and play its choice if the
    /// game has not moved on meanwhile.
    pub(super) async fn on_decision(&mut self, d: Decision) {
        if self.thinking.busy == Some((d.seat, d.version)) {
            self.thinking.busy = None;
        }
        let config = self.env.config().clone();
        if let Some(Slot::Bot(b)) = self.seats.get_mut(d.seat.index()) {
            b.bot = match d.bot {
                Some(bot) => bot,
                // A fresh bot of the same kind replaces one lost to a panic.
                None => server_bot(b.kind, d.version ^ 0x5eed, &config),
            };
        }
        let current = self.run.as_ref().is_some_and(|r| r.version == d.version);
        if current && !d.legal.is_empty() {
            self.act_for_bot(d.seat, d.choice, d.legal).await;
        } else {
            self.schedule_bots();
        }
        self.after_sends();
    }
}
