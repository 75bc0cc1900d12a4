//! The heuristic bot: plays sensibly from its own view and the legal actions.
//!
//! Each decision rebuilds a small [`Ctx`] from the view and dispatches on the
//! phase; the sub-modules hold one concern each. Whatever a helper proposes
//! is checked against the legal list (player offers excepted, which are never
//! listed), so the bot only ever asks for something the engine accepts.

mod cards;
mod discard;
mod opening;
mod robber;
#[cfg(test)]
mod tests;
mod trading;
mod turn;

pub use discard::pick as discard_pick;
pub use opening::opening_value;

use crate::Bot;
use crate::ctx::Ctx;
use crate::memo::Memo;
use catan_core::{Action, PhaseName, View};

/// The legal action `score` rates highest among those it rates at all (the
/// last of equals, as [`Iterator::max_by`] keeps it), with its score: the
/// one argmax every ranked choice of the heuristic goes through.
fn best_scored(legal: &[Action], score: impl Fn(&Action) -> Option<f32>) -> Option<(Action, f32)> {
    legal
        .iter()
        .filter_map(|a| Some((*a, score(a)?)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// [`best_scored`]'s action alone.
fn best(legal: &[Action], score: impl Fn(&Action) -> Option<f32>) -> Option<Action> {
    best_scored(legal, score).map(|(a, _)| a)
}

/// The heuristic's own score of each action where it ranks one against its
/// alternatives (opening settlements and roads, settlements later, robber
/// moves and knights); `None` where it has no such ranking. The `hard`
/// bot's search takes its candidates in this order, so that it compares the
/// heuristic's runners-up rather than a random sample.
pub fn rank(view: &View, legal: &[Action]) -> Vec<Option<f32>> {
    let ctx = Ctx::new(view);
    legal
        .iter()
        .map(|a| match *a {
            Action::BuildSettlement { vertex } => Some(opening_value(&ctx, vertex.0)),
            Action::BuildRoad { .. } if view.phase == PhaseName::Opening => {
                opening::road_value(&ctx, a)
            }
            Action::MoveRobber { hex, victim } | Action::PlayKnight { hex, victim } => {
                Some(robber::robber_score(&ctx, hex, victim))
            }
            _ => None,
        })
        .collect()
}
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A bot that plays by hand-written rules (see the module docs).
pub struct HeuristicBot {
    rng: ChaCha8Rng,
    memory: turn::Memory,
    memo: Memo,
}

impl HeuristicBot {
    /// A heuristic bot; `seed` only breaks the rare case where no rule applies.
    pub fn new(seed: u64) -> Self {
        HeuristicBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            memory: turn::Memory::default(),
            memo: Memo::default(),
        }
    }

    fn propose(&mut self, ctx: &Ctx, legal: &[Action]) -> Option<Action> {
        match ctx.view.phase {
            PhaseName::Opening => opening::choose(ctx, legal),
            PhaseName::Discard => discard::choose(ctx, legal),
            PhaseName::MoveRobber => robber::choose(ctx, legal),
            PhaseName::PreRoll => turn::pre_roll(ctx, legal),
            PhaseName::Action if ctx.me == ctx.view.active => {
                turn::action(ctx, legal, &mut self.memory)
            }
            PhaseName::Action => trading::respond(ctx, legal),
            PhaseName::Finished => None,
        }
    }
}

impl Bot for HeuristicBot {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Option<Action> {
        if legal.is_empty() {
            return None;
        }
        let ctx = self.memo.ctx(view);
        let proposal = self.propose(&ctx, legal);
        self.memo.keep(&ctx);
        match proposal {
            Some(a) if legal.contains(&a) || matches!(a, Action::OfferTrade { .. }) => Some(a),
            // No rule fits: end the turn or roll if possible, else any legal action.
            _ => [Action::EndTurn, Action::RollDice]
                .into_iter()
                .find(|a| legal.contains(a))
                .or_else(|| Some(legal[self.rng.random_range(0..legal.len())])),
        }
    }
}
