//! The random bot: a uniformly random legal action.

use crate::Bot;
use catan_core::{Action, View};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Picks uniformly among the legal actions.
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot with its own seed.
    pub fn new(seed: u64) -> Self {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, _view: &View, legal: &[Action]) -> Option<Action> {
        if legal.is_empty() {
            None
        } else {
            Some(legal[self.rng.random_range(0..legal.len())])
        }
    }
}
