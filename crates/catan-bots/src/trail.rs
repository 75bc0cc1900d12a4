//! Longest Road as a goal: which road lengthens the bot's longest trail, and
//! what taking the award is worth (R39-R40).

use crate::ctx::Ctx;
use catan_core::EdgeId;
use catan_core::geometry::{NONE, bits64, bits128, geo};
use catan_core::rules::awards::longest_trail;

/// The trail the bot must beat for the award: 5, or one more than the
/// longest of anyone else's.
fn needed(ctx: &Ctx) -> u8 {
    let best_other = ctx
        .view
        .players
        .iter()
        .filter(|p| p.seat != ctx.me)
        .map(|p| p.longest_trail)
        .max()
        .unwrap_or(0);
    5.max(best_other + 1)
}

/// A free edge that lengthens the bot's longest trail, if taking the award
/// is within reach (at most three more roads): `(edge, new length)`.
pub fn gain(ctx: &Ctx) -> Option<(EdgeId, u8)> {
    let me = ctx.me_view()?;
    let need = needed(ctx);
    let roads_left = ctx.pieces_left()[0];
    if me.longest_trail + roads_left.min(3) < need {
        return None;
    }
    let g = geo();
    let mut touched = 0u64;
    for e in bits128(ctx.my_roads) {
        touched |= g.edge_vertex_mask[e as usize];
    }
    let ends = (touched & !ctx.opp_buildings) | ctx.my_buildings();
    let mut best: Option<(EdgeId, u8)> = None;
    for v in bits64(ends) {
        for &e in g.vertex_edges[v as usize].iter().filter(|&&e| e != NONE) {
            if ctx.all_roads & (1u128 << e) != 0 {
                continue;
            }
            let len = longest_trail(ctx.my_roads | 1u128 << e, ctx.opp_buildings);
            if len > me.longest_trail && best.is_none_or(|(_, l)| len > l) {
                best = Some((EdgeId(e), len));
            }
        }
    }
    best
}

/// What heading for Longest Road is worth in plan units (a settlement is
/// about 1): two points, discounted by the roads still missing.
pub fn award_value(ctx: &Ctx) -> f32 {
    let have = ctx.me_view().map_or(0, |p| p.longest_trail);
    let missing = needed(ctx).saturating_sub(have).max(1);
    1.6 * 0.75f32.powi(missing as i32 - 1)
}
