//! Bot players over `catan-core`.
//!
//! A bot sees exactly what its seat may see: the seat's redacted [`View`] and
//! the engine's list of legal actions for that seat. It never gets the
//! [`catan_core::Game`], so it cannot peek at other hands or the deck.
//!
//! [`RandomBot`] picks uniformly; [`HeuristicBot`] plays by rules (opening by
//! pips and mix, roads toward the best free spot, city > settlement > card,
//! trades toward its plan, robber on the leader). [`arena`] plays a whole game
//! between bots; `catan bots` uses it to measure the heuristic's win rate.
//!
//! A seat must be asked to answer offers made to it: when an offer is open,
//! call [`Bot::choose`] for each recipient that has not answered (its legal
//! actions then include accept and decline), as [`arena`] does.

mod arena;
pub mod board_eval;
pub mod ctx;
mod heuristic;
pub mod network;
pub mod plan;
mod random;

pub use arena::{ArenaResult, arena};
pub use heuristic::{HeuristicBot, discard_pick, opening_value};
pub use random::RandomBot;

use catan_core::{Action, View};

/// A player program.
pub trait Bot: Send {
    /// Picks one of `legal` (the legal actions of the view's seat), or `None`
    /// when `legal` is empty. It may also return an action not in `legal`
    /// (for example a trade offer); the engine refuses it if it is illegal.
    fn choose(&mut self, view: &View, legal: &[Action]) -> Option<Action>;
}

/// The kinds of bot a lobby can seat.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotKind {
    /// Uniformly random legal actions.
    Random,
    /// Plays sensibly (see the heuristic module).
    Heuristic,
}

/// A bot of `kind` with its own seeded randomness.
pub fn make_bot(kind: BotKind, seed: u64) -> Box<dyn Bot> {
    match kind {
        BotKind::Random => Box::new(RandomBot::new(seed)),
        BotKind::Heuristic => Box::new(HeuristicBot::new(seed)),
    }
}
