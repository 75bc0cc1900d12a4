//! Playing Road Building, Invention and Monopoly when they move the plan on.

use super::best;
use crate::board_eval::missing;
use crate::ctx::{Ctx, masks};
use crate::network::next_road;
use crate::plan::{Goal, Plan};
use crate::trail;
use catan_core::geometry::bits64;
use catan_core::rules::awards::{longest_trail, trail_with};
use catan_core::{Action, EdgeId, EdgeList, Resource};

/// A development card worth playing now in the action phase, if any.
pub fn play(ctx: &Ctx, legal: &[Action], plan: Option<&Plan>) -> Option<Action> {
    if ctx.view.dev_card_played {
        return None;
    }
    if let Some(a) = monopoly(ctx, legal, plan) {
        return Some(a);
    }
    if let Some(a) = invention(ctx, legal, plan) {
        return Some(a);
    }
    road_building(ctx, legal, plan)
}

/// Invention: the two cards that leave the plan the fewest missing.
fn invention(ctx: &Ctx, legal: &[Action], plan: Option<&Plan>) -> Option<Action> {
    let plan = plan?;
    if missing(&plan.cost, &ctx.hand) == 0 {
        return None;
    }
    best(legal, |a| match a {
        Action::PlayInvention { resources } => {
            let mut hand = ctx.hand;
            for r in resources.iter() {
                *hand.get_mut(r) += 1;
            }
            let weight: f32 = resources
                .iter()
                .map(|r| crate::network::weights(ctx)[r.index()])
                .sum();
            Some(-(missing(&plan.cost, &hand) as f32) * 10.0 + weight)
        }
        _ => None,
    })
}

/// Monopoly: the type opponents most likely hold, weighted by need; played
/// once at least three cards are expected.
fn monopoly(ctx: &Ctx, legal: &[Action], plan: Option<&Plan>) -> Option<Action> {
    if !legal
        .iter()
        .any(|a| matches!(a, Action::PlayMonopoly { .. }))
    {
        return None;
    }
    let mut expect = [0.0f32; 5];
    for p in ctx.opponents() {
        if let Some(hand) = p.resources {
            for (e, &c) in expect.iter_mut().zip(hand.0.iter()) {
                *e += c as f32;
            }
            continue;
        }
        // Hidden hand: split its size by what the player produces.
        let (s, c, _) = masks(p);
        let mut prod = [0.0f32; 5];
        for v in bits64(s | c) {
            let k = if c & (1 << v) != 0 { 2.0 } else { 1.0 };
            for (acc, x) in prod.iter_mut().zip(ctx.eval.production[v as usize]) {
                *acc += k * x;
            }
        }
        let total: f32 = prod.iter().sum();
        if total > 0.0 {
            for (e, x) in expect.iter_mut().zip(prod) {
                *e += p.resource_count as f32 * x / total;
            }
        }
    }
    let need = plan.map(|p| p.cost).unwrap_or_default();
    let (best, value) = Resource::ALL
        .into_iter()
        .map(|r| {
            let wanted = need.get(r) > ctx.hand.get(r);
            (r, expect[r.index()] * if wanted { 1.0 } else { 0.5 })
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    let action = Action::PlayMonopoly { resource: best };
    (value >= 3.0 && legal.contains(&action)).then_some(action)
}

/// Road Building: two roads toward the settlement the plan heads for, or
/// two that lengthen the trail when the plan is Longest Road. When the plan
/// needs one road only, the second heads for another spot, lengthens the
/// trail, or else is the best other road ([`second_road`]): the rules allow
/// one (R36), but the second road is free.
pub fn road_building(ctx: &Ctx, legal: &[Action], plan: Option<&Plan>) -> Option<Action> {
    // Planning the roads is the costliest thing a turn does; without the
    // card in hand nothing it plans could be played.
    if !legal
        .iter()
        .any(|a| matches!(a, Action::PlayRoadBuilding { .. }))
    {
        return None;
    }
    let all = ctx.pieces_left()[0];
    let (first, second) = match plan.map(|p| p.goal) {
        Some(Goal::Settlement { roads: 1.., .. }) => {
            let first = EdgeId(next_road(ctx, 0, 4)?);
            let extra = 1u128 << first.0;
            let second = next_road(ctx, extra, 4)
                .map(EdgeId)
                .or_else(|| trail::lengthen(ctx, extra, all));
            (first, second)
        }
        Some(Goal::LongestRoad) => {
            let first = trail::lengthen(ctx, 0, all)?;
            (first, trail::lengthen(ctx, 1u128 << first.0, all))
        }
        _ => return None,
    };
    let second = second.or_else(|| second_road(ctx, legal, first));
    let one = Action::PlayRoadBuilding {
        edges: EdgeList::from_slice(&[first]),
    };
    let both = second.map(|e| Action::PlayRoadBuilding {
        edges: EdgeList::from_slice(&[first, e]),
    });
    both.into_iter().chain([one]).find(|a| legal.contains(a))
}

/// A second road for a Road Building whose plan needed only `first`: of the
/// roads it may build after `first`, the one that leaves the longest trail
/// (the last of those in the legal order on a tie, so the choice is
/// reproducible). Any road is worth more than none: it may count toward
/// Longest Road later, and it takes an edge from the others.
fn second_road(ctx: &Ctx, legal: &[Action], first: EdgeId) -> Option<EdgeId> {
    let roads = ctx.my_roads | 1u128 << first.0;
    let trail = longest_trail(roads, ctx.opp_buildings);
    legal
        .iter()
        .filter_map(|a| match a {
            Action::PlayRoadBuilding { edges } if edges.len() == 2 => {
                let mut it = edges.iter();
                (it.next() == Some(first)).then(|| it.next()).flatten()
            }
            _ => None,
        })
        .max_by_key(|e| trail_with(roads, ctx.opp_buildings, trail, e.0))
}
