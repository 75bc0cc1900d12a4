//! The bot's road network: how many new roads each vertex is away from it,
//! which free settlement spot is worth heading for, and which edge to build
//! next on the way there.

use crate::ctx::Ctx;
use catan_core::HarbourKind;
use catan_core::geometry::{NONE, bits64, bits128, geo};

/// Marker for an unreachable vertex.
pub const FAR: u8 = u8::MAX;

/// Road distances from the bot's network.
pub struct Reach {
    /// New roads needed to touch each vertex ([`FAR`] if beyond the limit).
    pub dist: [u8; 54],
    /// The first new road on a shortest way to each vertex ([`NONE`] at distance 0).
    pub first_edge: [u8; 54],
}

/// Breadth-first search from the bot's buildings and road ends (plus
/// `extra_roads`, for planning several roads), up to `limit` new roads.
/// Roads cannot pass other players' roads or grow out of their buildings.
pub fn reach(ctx: &Ctx, extra_roads: u128, limit: u8) -> Reach {
    let g = geo();
    let roads = ctx.my_roads | extra_roads;
    let mut touched = 0u64;
    for e in bits128(roads) {
        touched |= g.edge_vertex_mask[e as usize];
    }
    let start = ctx.my_buildings() | (touched & !ctx.opp_buildings);
    reach_from(ctx, start, extra_roads, limit)
}

/// Like [`reach`] but from the vertices in `start` only.
pub fn reach_from(ctx: &Ctx, start: u64, extra_roads: u128, limit: u8) -> Reach {
    let g = geo();
    let mut dist = [FAR; 54];
    let mut first_edge = [NONE; 54];
    let blocked_edges = ctx.all_roads | extra_roads;
    let mut queue = [0u8; 54];
    let (mut head, mut tail) = (0, 0);
    for v in bits64(start) {
        dist[v as usize] = 0;
        queue[tail] = v;
        tail += 1;
    }
    while head < tail {
        let v = queue[head];
        head += 1;
        let d = dist[v as usize];
        if d >= limit || (ctx.opp_buildings & (1 << v) != 0) {
            continue;
        }
        for &e in g.vertex_edges[v as usize].iter().filter(|&&e| e != NONE) {
            if blocked_edges & (1u128 << e) != 0 {
                continue;
            }
            let [a, b] = g.edge_vertices[e as usize];
            let w = if a == v { b } else { a };
            if dist[w as usize] == FAR {
                dist[w as usize] = d + 1;
                first_edge[w as usize] = if d == 0 { e } else { first_edge[v as usize] };
                queue[tail] = w;
                tail += 1;
            }
        }
    }
    Reach { dist, first_edge }
}

/// Resource weights: brick and wood matter most early, wheat and ore later.
pub fn weights(ctx: &Ctx) -> [f32; 5] {
    let buildings = (ctx.my_settlements.count_ones() + 2 * ctx.my_cities.count_ones()) as f32;
    if ctx.opening() || buildings < 4.0 {
        [1.15, 1.15, 0.8, 1.0, 0.85]
    } else {
        [0.95, 0.95, 0.8, 1.1, 1.1]
    }
}

/// How much the bot would gain from a settlement on `v`: weighted pips, a
/// bonus for types it does not produce yet, and harbour value.
pub fn spot_value(ctx: &Ctx, v: u8) -> f32 {
    let prod = &ctx.eval.production[v as usize];
    let w = weights(ctx);
    let mut s = 0.0;
    for r in 0..5 {
        let fresh = if ctx.my_production[r] < 0.5 {
            1.35
        } else {
            1.0
        };
        s += prod[r] * w[r] * fresh;
    }
    // A third settlement type in one spot is worth more than its pips.
    let kinds = prod.iter().filter(|&&p| p > 0.0).count();
    s += 0.4 * kinds as f32;
    match ctx.eval.harbour[v as usize] {
        Some(HarbourKind::Special(r)) => {
            s += 0.3 * (ctx.my_production[r.index()] + prod[r.index()]);
        }
        Some(HarbourKind::Generic) => s += 1.2,
        None => {}
    }
    s
}

/// The best free spot within `limit` roads: `(vertex, distance, value)`,
/// discounting distance because each road costs cards and time.
pub fn best_spot(ctx: &Ctx, r: &Reach, limit: u8) -> Option<(u8, u8, f32)> {
    let mut best: Option<(u8, u8, f32)> = None;
    let mut key = f32::MIN;
    for v in bits64(ctx.free_spots) {
        let d = r.dist[v as usize];
        if d > limit {
            continue;
        }
        let val = spot_value(ctx, v);
        let k = val * 0.72f32.powi(d as i32);
        if k > key {
            key = k;
            best = Some((v, d, val));
        }
    }
    best
}

/// The next road toward the best spot at distance 1 or more, if any.
pub fn next_road(ctx: &Ctx, extra_roads: u128, limit: u8) -> Option<u8> {
    let r = reach(ctx, extra_roads, limit);
    let mut best: Option<u8> = None;
    let mut key = f32::MIN;
    for v in bits64(ctx.free_spots) {
        let d = r.dist[v as usize];
        if d == 0 || d > limit {
            continue;
        }
        let k = spot_value(ctx, v) * 0.72f32.powi(d as i32);
        if k > key {
            key = k;
            best = Some(r.first_edge[v as usize]);
        }
    }
    best.filter(|&e| e != NONE)
}

/// How far (in new roads) road building looks for a settlement spot.
pub const ROAD_SEARCH: u8 = 4;
