//! Opening placement: settlements on the richest, best-mixed corners (the
//! second one complementing the first, through [`spot_value`]'s bonus for
//! new types) and each road pointing at the best spot it opens up.

use super::best;
use crate::ctx::Ctx;
use crate::network::{FAR, reach_from, spot_value};
use catan_core::Action;
use catan_core::geometry::{bits64, geo};

/// Picks the opening settlement or road.
pub fn choose(ctx: &Ctx, legal: &[Action]) -> Option<Action> {
    if ctx.view.opening_settlement.is_some() {
        road(ctx, legal)
    } else {
        settlement(ctx, legal)
    }
}

/// The legal settlement with the highest opening value.
fn settlement(ctx: &Ctx, legal: &[Action]) -> Option<Action> {
    best(legal, |a| match a {
        Action::BuildSettlement { vertex } => Some(opening_value(ctx, vertex.0)),
        _ => None,
    })
}

/// A corner's opening worth: its own value plus a little for the best spot
/// it leaves within two roads (somewhere to expand to).
pub fn opening_value(ctx: &Ctx, v: u8) -> f32 {
    let own = spot_value(ctx, v);
    let g = geo();
    let mut near = 0.0f32;
    let blocked = (1u64 << v) | g.vertex_neighbour_mask[v as usize];
    let r = reach_from(ctx, 1u64 << v, 0, 2);
    for w in bits64(ctx.free_spots & !blocked) {
        if r.dist[w as usize] == 2 {
            near = near.max(spot_value(ctx, w));
        }
    }
    own + 0.15 * near
}

/// The legal road whose far end leads to the best free spot.
fn road(ctx: &Ctx, legal: &[Action]) -> Option<Action> {
    best(legal, |a| road_value(ctx, a))
}

/// An opening road's worth: the best free spot its far end leads to,
/// discounted per road still needed (`None` for other actions).
pub fn road_value(ctx: &Ctx, a: &Action) -> Option<f32> {
    let Action::BuildRoad { edge } = a else {
        return None;
    };
    let g = geo();
    let from = ctx.view.opening_settlement?.0;
    let [x, y] = *g.edge_vertices.get(edge.index())?;
    let far = if x == from { y } else { x };
    let r = reach_from(ctx, 1u64 << far, 1u128 << edge.0, 2);
    let mut key = 0.0f32;
    for w in bits64(ctx.free_spots) {
        let d = r.dist[w as usize];
        if d != FAR {
            key = key.max(spot_value(ctx, w) * 0.72f32.powi(d as i32 + 1));
        }
    }
    Some(key)
}
