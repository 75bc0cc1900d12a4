//! The robber: block the hex that hurts the leader most, never one of the
//! bot's own hexes, and steal from the strongest player; play knights when the
//! robber sits on the bot or when a knight takes Largest Army.

use super::best_scored;
use crate::ctx::Ctx;
use catan_core::geometry::geo;
use catan_core::{Action, HexId, Seat};

/// How good moving the robber to `hex` and robbing `victim` is.
pub fn robber_score(ctx: &Ctx, hex: HexId, victim: Option<Seat>) -> f32 {
    let Some(&mask) = geo().hex_vertex_mask.get(hex.index()) else {
        return f32::MIN;
    };
    let pips = ctx.eval.hex_pips[hex.index()] as f32;
    let mine = mask & ctx.my_buildings();
    let mut s = 0.0;
    if mine != 0 {
        // Never block oneself while any other hex is open.
        s -= 100.0 + pips * (mine.count_ones() as f32);
    }
    for p in ctx.opponents() {
        let (st, ci, _) = crate::ctx::masks(p);
        let n = (st & mask).count_ones() + 2 * (ci & mask).count_ones();
        s += pips * n as f32 * (1.0 + 0.35 * ctx.points(p.seat) as f32);
    }
    if let Some(v) = victim {
        let cards = ctx
            .view
            .players
            .get(v.index())
            .map_or(0, |p| p.resource_count);
        s += 2.0 + 0.6 * ctx.points(v) as f32 + 0.25 * cards.min(8) as f32;
    }
    s
}

/// The best robber move among the legal `MoveRobber` or `PlayKnight` actions.
pub fn best_move(ctx: &Ctx, legal: &[Action]) -> Option<(Action, f32)> {
    best_scored(legal, |a| match *a {
        Action::MoveRobber { hex, victim } | Action::PlayKnight { hex, victim } => {
            Some(robber_score(ctx, hex, victim))
        }
        _ => None,
    })
}

/// Picks the robber move after a 7.
pub fn choose(ctx: &Ctx, legal: &[Action]) -> Option<Action> {
    best_move(ctx, legal).map(|(a, _)| a)
}

/// A knight worth playing now, if any: when the robber blocks one of the
/// bot's hexes, when it takes Largest Army, or to spend spare knights on a
/// strong target.
pub fn knight(ctx: &Ctx, legal: &[Action]) -> Option<Action> {
    let (action, score) = best_move(ctx, legal)?;
    let robber = ctx.view.robber;
    let blocked = geo()
        .hex_vertex_mask
        .get(robber.index())
        .is_some_and(|m| m & ctx.my_buildings() != 0)
        && ctx
            .eval
            .hex_pips
            .get(robber.index())
            .is_some_and(|&p| p > 0);
    let me = ctx.me_view()?;
    let mine = me.played_knights;
    let most_other = ctx.opponents().map(|p| p.played_knights).max().unwrap_or(0);
    let takes_army =
        ctx.view.largest_army != Some(ctx.me) && mine + 1 >= 3 && mine + 1 > most_other;
    let race = ctx.view.largest_army != Some(ctx.me) && mine + 2 > most_other;
    let worth = blocked || takes_army || (race && score > 8.0);
    (worth && score > 0.0).then_some(action)
}
