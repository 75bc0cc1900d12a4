//! What the bot is saving for: a city, a settlement (with the roads to reach
//! it) or a development card, scored by value over the cards still missing.
//! The same score judges trades: a trade is good when it raises it.

use crate::board_eval::{missing, spare};
use crate::ctx::Ctx;
use crate::network::{Reach, best_spot, reach, weights};
use catan_core::ResourceSet;
use catan_core::geometry::bits64;

/// A build the bot saves for.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Goal {
    /// Upgrade the settlement on this vertex.
    City(u8),
    /// A settlement on this vertex after `roads` new roads.
    Settlement {
        /// Where.
        vertex: u8,
        /// New roads needed first.
        roads: u8,
    },
    /// Buy a development card.
    DevCard,
    /// A road that lengthens the bot's longest trail, to take Longest Road.
    LongestRoad,
}

/// A goal with its full cost and its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// The goal.
    pub goal: Goal,
    /// Everything it costs (roads included).
    pub cost: ResourceSet,
    /// Worth before counting missing cards.
    pub value: f32,
}

/// Farthest a settlement goal may usually lie, in new roads.
pub const ROAD_LIMIT: u8 = 3;
/// How far the bot looks when nothing lies within [`ROAD_LIMIT`] (late in a
/// game with a high target, the last free corners are far away).
pub const FAR_ROAD_LIMIT: u8 = 8;

/// Every goal open to the bot now (the hand does not matter here).
pub fn candidates(ctx: &Ctx, r: &Reach) -> Vec<Plan> {
    let mut out = Vec::with_capacity(3);
    let [roads_left, settlements_left, cities_left] = ctx.pieces_left();
    let w = weights(ctx);
    if cities_left > 0 && ctx.my_settlements != 0 {
        let best = bits64(ctx.my_settlements).max_by(|&a, &b| {
            let pa = weighted(&ctx.eval.production[a as usize], &w);
            let pb = weighted(&ctx.eval.production[b as usize], &w);
            pa.total_cmp(&pb)
        });
        if let Some(v) = best {
            let pv = weighted(&ctx.eval.production[v as usize], &w);
            out.push(Plan {
                goal: Goal::City(v),
                cost: ResourceSet::CITY,
                value: 1.15 + 0.05 * pv,
            });
        }
    }
    if settlements_left > 0 {
        let limit = ROAD_LIMIT.min(roads_left);
        let far;
        let spot = match best_spot(ctx, r, limit) {
            Some(s) => Some(s),
            None if roads_left > limit => {
                far = reach(ctx, 0, FAR_ROAD_LIMIT.min(roads_left));
                best_spot(ctx, &far, FAR_ROAD_LIMIT.min(roads_left))
            }
            None => None,
        };
        if let Some((v, d, val)) = spot {
            let mut cost = ResourceSet::SETTLEMENT;
            for _ in 0..d {
                cost.add(&ResourceSet::ROAD);
            }
            out.push(Plan {
                goal: Goal::Settlement {
                    vertex: v,
                    roads: d,
                },
                cost,
                value: (1.0 + 0.05 * val) * 0.8f32.powi(d as i32),
            });
        }
    }
    // Once the board has no more room for the bot, cards and Longest Road
    // are its points, however many roads the award takes.
    let built_out = !out
        .iter()
        .any(|p| matches!(p.goal, Goal::Settlement { .. }))
        && (cities_left == 0 || ctx.my_settlements == 0);
    if ctx.view.deck_size > 0 {
        out.push(Plan {
            goal: Goal::DevCard,
            cost: ResourceSet::DEV_CARD,
            value: if built_out { 1.0 } else { 0.6 },
        });
    }
    let horizon = if built_out {
        roads_left
    } else {
        crate::trail::NEAR_ROADS
    };
    if roads_left > 0
        && ctx.view.longest_road != Some(ctx.me)
        && crate::trail::lengthen(ctx, 0, horizon).is_some()
    {
        out.push(Plan {
            goal: Goal::LongestRoad,
            cost: ResourceSet::ROAD,
            value: crate::trail::award_value(ctx),
        });
    }
    out
}

fn weighted(p: &[f32; 5], w: &[f32; 5]) -> f32 {
    p.iter().zip(w).map(|(a, b)| a * b).sum()
}

/// Missing cards after the bank trades that the spare cards allow; trades
/// count half a card because each one spends several.
pub fn effective_missing(ctx: &Ctx, cost: &ResourceSet, hand: &ResourceSet) -> f32 {
    let miss = missing(cost, hand);
    if miss == 0 {
        return 0.0;
    }
    let rates = ctx.rates();
    let extra = spare(hand, cost);
    let trades: u32 = (0..5).map(|i| (extra.0[i] / rates[i].max(2)) as u32).sum();
    let covered = trades.min(miss);
    (miss - covered) as f32 + 0.5 * covered as f32
}

/// How good `plan` looks with `hand`.
pub fn score(ctx: &Ctx, plan: &Plan, hand: &ResourceSet) -> f32 {
    plan.value / (1.0 + effective_missing(ctx, &plan.cost, hand))
}

/// The best plan for `hand` among `plans`.
pub fn best(ctx: &Ctx, plans: &[Plan], hand: &ResourceSet) -> Option<Plan> {
    plans
        .iter()
        .copied()
        .max_by(|a, b| score(ctx, a, hand).total_cmp(&score(ctx, b, hand)))
}

/// The best plan's score for `hand` (0 when there is none).
pub fn hand_worth(ctx: &Ctx, plans: &[Plan], hand: &ResourceSet) -> f32 {
    best(ctx, plans, hand).map_or(0.0, |p| score(ctx, &p, hand))
}

/// The plans and the chosen one for the bot's current hand.
pub fn current(ctx: &Ctx) -> (Vec<Plan>, Option<Plan>) {
    let plans = ctx.plans().to_vec();
    let chosen = best(ctx, &plans, &ctx.hand);
    (plans, chosen)
}
