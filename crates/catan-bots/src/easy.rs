//! The `easy` bot: the heuristic's greedy building without its finesse, and
//! deliberate mistakes.
//!
//! It never proposes player trades (it still answers them on merit), and in
//! a share of its decisions that have alternatives it plays a random legal
//! action instead (never accepting or confirming a trade it would refuse).
//! Beginners can beat it;
//! it still finishes its games because most of its moves are the
//! heuristic's.

use crate::{Bot, HeuristicBot};
use catan_core::{Action, View};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Share of decisions with alternatives that the easy bot plays at random.
pub const MISTAKE_RATE: f64 = 0.3;

/// The easy bot (see the module docs).
pub struct EasyBot {
    rng: ChaCha8Rng,
    inner: HeuristicBot,
}

impl EasyBot {
    /// An easy bot with its own seed.
    pub fn new(seed: u64) -> EasyBot {
        EasyBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            inner: HeuristicBot::new(seed ^ 0xea5e),
        }
    }
}

impl Bot for EasyBot {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Option<Action> {
        let planned = self.inner.choose(view, legal)?;
        if matches!(planned, Action::OfferTrade { .. }) {
            // No offers of its own: get on with the turn instead.
            return legal
                .iter()
                .find(|a| matches!(a, Action::EndTurn))
                .copied()
                .or(Some(planned));
        }
        let slips: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| !matches!(a, Action::AcceptTrade { .. } | Action::ConfirmTrade { .. }))
            .collect();
        if slips.len() > 1 && self.rng.random_bool(MISTAKE_RATE) {
            return Some(slips[self.rng.random_range(0..slips.len())]);
        }
        Some(planned)
    }
}
