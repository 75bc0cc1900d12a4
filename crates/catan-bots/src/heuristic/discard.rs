//! Discarding after a 7: exactly the owed count, keeping what the current
//! plan needs and dropping the largest surplus first.

use crate::ctx::Ctx;
use crate::network::weights;
use crate::plan;
use catan_core::{Action, ResourceSet};

/// The cards to discard from `hand` (exactly `owed`, or the whole hand if smaller).
pub fn pick(ctx: &Ctx, hand: ResourceSet, owed: u32) -> ResourceSet {
    let (_, best) = plan::current(ctx);
    let need = best.map_or(ResourceSet::EMPTY, |p| p.cost);
    let w = weights(ctx);
    let mut keep = hand;
    let mut drop = ResourceSet::EMPTY;
    for _ in 0..owed.min(hand.total()) {
        let choice = (0..5).filter(|&i| keep.0[i] > 0).max_by(|&a, &b| {
            let ka = key(keep.0[a], need.0[a], w[a]);
            let kb = key(keep.0[b], need.0[b], w[b]);
            ka.total_cmp(&kb)
        });
        let Some(i) = choice else { break };
        keep.0[i] -= 1;
        drop.0[i] += 1;
    }
    drop
}

/// Higher means "drop this type first": surplus over the plan's need, then
/// sheer count, and less valued types before more valued ones.
fn key(have: u8, need: u8, weight: f32) -> f32 {
    let surplus = have as f32 - need as f32;
    let base = if surplus > 0.0 {
        100.0 + surplus
    } else {
        have as f32
    };
    base - weight
}

/// Picks the discard action.
pub fn choose(ctx: &Ctx, legal: &[Action]) -> Option<Action> {
    let owed = ctx.view.discards_owed.get(ctx.me.index()).copied()? as u32;
    let cards = pick(ctx, ctx.hand, owed);
    let action = Action::Discard { cards };
    if legal.contains(&action) {
        Some(action)
    } else {
        legal
            .iter()
            .find(|a| matches!(a, Action::Discard { .. }))
            .copied()
    }
}
