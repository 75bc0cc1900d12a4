//! Longest Road as a goal: which road lengthens the bot's longest trail, and
//! what taking the award is worth (R39-R40). Near the award one road at a
//! time will do; once the board has no room left for the bot, the award can
//! be many roads away, and it plans the whole trail ([`TrailSearch`]).

use crate::ctx::Ctx;
use crate::network::reach;
use crate::trail_search::TrailSearch;
use catan_core::EdgeId;
use catan_core::geometry::{NONE, bits64, bits128, geo};
use catan_core::rules::awards::{longest_trail, trail_with};

/// The trail the bot must beat for the award: 5, or one more than the
/// longest of anyone else's.
fn needed(ctx: &Ctx) -> u8 {
    let best_other = ctx.opponents().map(|p| p.longest_trail).max().unwrap_or(0);
    5.max(best_other + 1)
}

/// Most new roads the bot plans for Longest Road while it still has other
/// things to build.
pub const NEAR_ROADS: u8 = 3;

/// A free edge that lengthens the bot's longest trail now, if taking the
/// award is within `horizon` more roads: `(edge, new length)`; `extra`
/// roads count as the bot's (a Road Building's first road).
pub fn gain_with(ctx: &Ctx, extra: u128, horizon: u8) -> Option<(EdgeId, u8)> {
    let need = needed(ctx);
    let roads = ctx.my_roads | extra;
    let trail = if extra == 0 {
        ctx.me_view()?.longest_trail
    } else {
        longest_trail(roads, ctx.opp_buildings)
    };
    let roads_left = ctx.pieces_left()[0].saturating_sub(extra.count_ones() as u8);
    if trail + roads_left.min(horizon) < need {
        return None;
    }
    let g = geo();
    let mut touched = 0u64;
    for e in bits128(roads) {
        touched |= g.edge_vertex_mask[e as usize];
    }
    let ends = (touched & !ctx.opp_buildings) | ctx.my_buildings();
    let mut best: Option<(EdgeId, u8)> = None;
    for v in bits64(ends) {
        for &e in g.vertex_edges[v as usize].iter().filter(|&&e| e != NONE) {
            if (ctx.all_roads | extra) & (1u128 << e) != 0 {
                continue;
            }
            let len = trail_with(roads, ctx.opp_buildings, trail, e);
            if len > trail && best.is_none_or(|(_, l)| len > l) {
                best = Some((EdgeId(e), len));
            }
        }
    }
    best
}

/// Most edges the bot plans a whole trail over; past it, one road at a time.
const PLAN_EDGES: u32 = 36;

/// The next road toward Longest Road within `horizon` new roads (`extra`
/// counted as built: a Road Building's first road). It plans the trail with
/// the fewest new roads that beats everyone else's and builds a road of it
/// (`None` when no such trail exists: the award may take a detour that no
/// single road shows); when the board is too open to plan, any road that
/// lengthens the trail now.
pub fn lengthen(ctx: &Ctx, extra: u128, horizon: u8) -> Option<EdgeId> {
    if let Some(planned) = plan_trail(ctx, extra, horizon) {
        return planned;
    }
    gain_with(ctx, extra, horizon).map(|(e, _)| e)
}

/// The planned road of [`lengthen`]: `Some(None)` when no trail within
/// `horizon` new roads takes the award, `None` when there were too many
/// edges to search.
fn plan_trail(ctx: &Ctx, extra: u128, horizon: u8) -> Option<Option<EdgeId>> {
    let g = geo();
    let roads = ctx.my_roads | extra;
    let taken = ctx.all_roads | extra;
    let budget = ctx.pieces_left()[0]
        .saturating_sub(extra.count_ones() as u8)
        .min(horizon);
    let r = reach(ctx, extra, budget);
    let mut edges = roads;
    for e in 0..72u8 {
        let buildable = g.edge_vertices[e as usize]
            .iter()
            .any(|&v| r.dist[v as usize] < budget && ctx.opp_buildings & (1 << v) == 0);
        if taken & (1u128 << e) == 0 && buildable {
            edges |= 1u128 << e;
        }
    }
    if edges.count_ones() > PLAN_EDGES {
        return None;
    }
    let need = needed(ctx);
    let trail = longest_trail(roads, ctx.opp_buildings);
    let found = (need.saturating_sub(trail).max(1)..=budget).find_map(|b| {
        TrailSearch {
            edges,
            own: roads,
            blocked: ctx.opp_buildings,
            budget: b,
            goal: need,
        }
        .find()
    });
    let Some(found) = found else {
        return Some(None);
    };
    // A new road of the trail that touches the network, else the first
    // road toward the trail's nearest new road.
    let fresh = found & !roads;
    let now = bits128(fresh).find(|&e| {
        g.edge_vertices[e as usize]
            .iter()
            .any(|&v| r.dist[v as usize] == 0 && ctx.opp_buildings & (1 << v) == 0)
    });
    let toward = || {
        bits128(fresh)
            .flat_map(|e| g.edge_vertices[e as usize])
            .filter(|&v| r.dist[v as usize] != crate::network::FAR)
            .min_by_key(|&v| r.dist[v as usize])
            .map(|v| r.first_edge[v as usize])
            .filter(|&e| e != NONE)
    };
    Some(now.or_else(toward).map(EdgeId))
}

/// What heading for Longest Road is worth in plan units (a settlement is
/// about 1): two points, discounted by the roads still missing.
pub fn award_value(ctx: &Ctx) -> f32 {
    let have = ctx.me_view().map_or(0, |p| p.longest_trail);
    let missing = needed(ctx).saturating_sub(have).max(1);
    1.6 * 0.75f32.powi(missing as i32 - 1)
}
