//! The bot's own turn: before the roll (knights, roll) and the action phase
//! (offers, cards, builds in the order city > settlement > plan roads >
//! development card, trades toward the plan, then spare purchases).

use super::{best, cards, robber, trading};
use crate::board_eval::spare;
use crate::ctx::Ctx;
use crate::network::{ROAD_SEARCH, next_road, spot_value, weights};
use crate::plan::{self, Goal};
use catan_core::{Action, EdgeId, ResourceSet};

/// Before the roll: a knight if it is worth it, else roll.
pub fn pre_roll(ctx: &Ctx, legal: &[Action]) -> Option<Action> {
    if !ctx.view.dev_card_played
        && let Some(k) = robber::knight(ctx, legal)
    {
        return Some(k);
    }
    Some(Action::RollDice)
}

/// What the bot remembers between its decisions.
#[derive(Default)]
pub struct Memory {
    /// The turn in which the bot last made a player offer.
    pub offered_turn: Option<u32>,
}

/// The action phase of the bot's own turn.
pub fn action(ctx: &Ctx, legal: &[Action], memory: &mut Memory) -> Option<Action> {
    if let Some(a) = trading::handle_own(ctx, legal) {
        return Some(a);
    }
    let (_, best) = plan::current(ctx);
    if !ctx.view.dev_card_played {
        if let Some(k) = robber::knight(ctx, legal) {
            return Some(k);
        }
        if let Some(a) = cards::play(ctx, legal, best.as_ref()) {
            return Some(a);
        }
    }
    if let Some(a) = build_city(ctx, legal) {
        return Some(a);
    }
    if let Some(a) = build_settlement(ctx, legal) {
        return Some(a);
    }
    let Some(plan) = best else {
        return spend_spare(ctx, legal, &ResourceSet::EMPTY).or(Some(Action::EndTurn));
    };
    match plan.goal {
        Goal::Settlement { roads: 1.., .. } => {
            if let Some(a) = road(ctx, legal) {
                return Some(a);
            }
        }
        Goal::DevCard if legal.contains(&Action::BuyDevelopmentCard) => {
            return Some(Action::BuyDevelopmentCard);
        }
        Goal::LongestRoad => {
            if let Some(edge) = crate::trail::lengthen(ctx, 0, ctx.pieces_left()[0]) {
                let a = Action::BuildRoad { edge };
                if legal.contains(&a) {
                    return Some(a);
                }
            }
        }
        _ => {}
    }
    if let Some(a) = trading::bank(ctx, legal, &plan) {
        return Some(a);
    }
    if memory.offered_turn != Some(ctx.view.turn)
        && let Some(a) = trading::offer(ctx, &plan)
    {
        memory.offered_turn = Some(ctx.view.turn);
        return Some(a);
    }
    spend_spare(ctx, legal, &plan.cost).or(Some(Action::EndTurn))
}

/// Purchases from cards the plan does not need (or any purchase when the
/// hand is large enough to fear a 7).
fn spend_spare(ctx: &Ctx, legal: &[Action], need: &ResourceSet) -> Option<Action> {
    let extra = spare(&ctx.hand, need);
    let crowded = ctx.hand.total() > 7;
    if legal.contains(&Action::BuyDevelopmentCard)
        && (crowded || extra.contains(&ResourceSet::DEV_CARD))
    {
        return Some(Action::BuyDevelopmentCard);
    }
    if crowded || extra.contains(&ResourceSet::ROAD) {
        return road(ctx, legal);
    }
    None
}

/// The legal road toward the best reachable free spot.
fn road(ctx: &Ctx, legal: &[Action]) -> Option<Action> {
    let far = crate::plan::FAR_ROAD_LIMIT.min(ctx.pieces_left()[0]);
    let e = next_road(ctx, 0, ROAD_SEARCH).or_else(|| next_road(ctx, 0, far))?;
    let a = Action::BuildRoad { edge: EdgeId(e) };
    legal.contains(&a).then_some(a)
}

/// The city on the most productive settlement.
fn build_city(ctx: &Ctx, legal: &[Action]) -> Option<Action> {
    let w = weights(ctx);
    best(legal, |a| match a {
        Action::BuildCity { vertex } => {
            let p = ctx.eval.production.get(vertex.index())?;
            Some(p.iter().zip(w).map(|(x, y)| x * y).sum::<f32>())
        }
        _ => None,
    })
}

/// The settlement on the most valuable legal spot.
fn build_settlement(ctx: &Ctx, legal: &[Action]) -> Option<Action> {
    best(legal, |a| match a {
        Action::BuildSettlement { vertex } => Some(spot_value(ctx, vertex.0)),
        _ => None,
    })
}
