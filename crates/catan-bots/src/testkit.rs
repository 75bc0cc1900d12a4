//! Positions built by hand for the unit tests: pieces put straight on the
//! board (no opening, no costs), so that a test can show the one situation
//! a decision is about. The writes go through catan-core's `test-support`
//! setters, which only test builds have.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use catan_core::geometry::geo;
use catan_core::rules::awards::longest_trail;
use catan_core::{Game, GameOptions, Phase, Seat};

/// A fresh game of `options` (seed 1) in the action phase of turn 40, seat
/// 0 to act, nothing on the board.
pub fn blank(options: GameOptions) -> Game {
    let (mut g, _) = Game::new(options, 1).unwrap();
    g.set_phase(Phase::Action);
    g.set_turn(40);
    g.set_active(Seat(0));
    g.set_dice(Some([3, 4]));
    g
}

/// The edge between two neighbouring vertices.
pub fn edge(a: u8, b: u8) -> u8 {
    let g = geo();
    (0..72u8)
        .find(|&e| {
            let [x, y] = g.edge_vertices[e as usize];
            (x, y) == (a, b) || (y, x) == (a, b)
        })
        .expect("neighbours")
}

/// A path of `n` + 1 vertices from `from`, each step to the lowest
/// neighbour not yet on the path and not in `avoid`.
pub fn path(from: u8, n: usize, avoid: u64) -> Vec<u8> {
    let g = geo();
    let mut vs = vec![from];
    let mut seen = avoid | 1u64 << from;
    while vs.len() <= n {
        let v = *vs.last().unwrap();
        let w = g.vertex_neighbour_mask[v as usize] & !seen;
        assert!(w != 0, "the path from {from} runs into a dead end");
        let next = w.trailing_zeros() as u8;
        seen |= 1u64 << next;
        vs.push(next);
    }
    vs
}

/// A settlement of `seat` on `v` (distance rule marks included).
pub fn settle(g: &mut Game, seat: Seat, v: u8) {
    let bit = 1u64 << v;
    let p = g.player_mut(seat);
    p.settlements |= bit;
    p.settlements_left -= 1;
    g.set_occupied_vertices(g.occupied_vertices() | bit);
    g.set_blocked_vertices(g.blocked_vertices() | bit | geo().vertex_neighbour_mask[v as usize]);
}

/// Roads of `seat` along the vertices of `vs`.
pub fn roads(g: &mut Game, seat: Seat, vs: &[u8]) {
    for w in vs.windows(2) {
        let e = edge(w[0], w[1]);
        let p = g.player_mut(seat);
        p.add_road(e);
        p.roads_left -= 1;
        g.set_occupied_edges(g.occupied_edges() | 1u128 << e);
    }
    recount(g);
}

/// Every player's longest trail, as the engine keeps it.
pub fn recount(g: &mut Game) {
    for i in 0..g.n_players() {
        let seat = Seat(i as u8);
        let blocked = g.occupied_vertices() & !g.player(seat).buildings();
        g.player_mut(seat).trail = longest_trail(g.player(seat).roads, blocked);
    }
}
