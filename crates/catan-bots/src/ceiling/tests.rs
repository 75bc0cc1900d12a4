//! The ceiling against hand-built positions (one bound each) and against
//! real games (never below the points a player later reaches).

use super::*;
use crate::testkit::{blank, edge, path, roads, settle};
use catan_core::GameOptions;

/// Every vertex.
const ALL: u64 = (1u64 << 54) - 1;

#[test]
fn r22_two_neighbouring_free_corners_count_as_one_spot() {
    let mut g = blank(GameOptions::default());
    let p = path(0, 3, 0);
    settle(&mut g, Seat(0), p[0]);
    roads(&mut g, Seat(0), &p[..3]);
    // Only p[2] (on the road) and p[3] (one road further) are free, and
    // they are neighbours: one more settlement at most, not two.
    g.set_blocked_vertices(ALL & !(1 << p[2] | 1 << p[3]));
    // 2 spots (4 points with cities), both awards, 5 VP cards; counting
    // both corners gave 3 spots (6 points).
    assert_eq!(point_ceiling(&g, Seat(0)), 4 + 4 + 5);
}

#[test]
fn r22_spots_a_road_away_each_need_a_road_of_their_own() {
    let geo = geo();
    // A path of three roads whose second and fourth corners have a third
    // neighbour each, off the path: two spots a road away, in two places.
    let (p, x, y) = (0..54u8)
        .find_map(|start| {
            let p = path(start, 3, 0);
            let on = p.iter().fold(0u64, |m, &v| m | 1 << v);
            let off = |v: u8| bits64(geo.vertex_neighbour_mask[v as usize] & !on).next();
            let (x, y) = (off(p[1])?, off(p[3])?);
            Some((p, x, y))
        })
        .expect("such a path");
    let mut g = blank(GameOptions::default());
    settle(&mut g, Seat(0), p[0]);
    roads(&mut g, Seat(0), &p);
    g.set_blocked_vertices(ALL & !(1 << x | 1 << y));
    // With one road left only one of them: 2 spots (4 points), Largest
    // Army, 5 VP cards (Longest Road needs 5 and 3 + 1 is 4).
    g.player_mut(Seat(0)).roads_left = 1;
    assert_eq!(point_ceiling(&g, Seat(0)), 4 + 2 + 5);
    // With two, both: 3 spots (6 points).
    g.player_mut(Seat(0)).roads_left = 2;
    assert!(point_ceiling(&g, Seat(0)) >= 6 + 2 + 5);
}

/// Seat 0 with a trail of 2 and the free edges of the `free` roads
/// beyond it (every other edge taken), against seat 1's trail of 6
/// that nobody can cut (no free corner left).
fn trail_race(free: usize) -> Game {
    trail_race_along(free).0
}

/// [`trail_race`] and the vertices of seat 1's trail, in order.
fn trail_race_along(free: usize) -> (Game, Vec<u8>) {
    let mut g = blank(GameOptions::default());
    let mine = path(0, 2 + free, 0);
    settle(&mut g, Seat(0), mine[0]);
    roads(&mut g, Seat(0), &mine[..3]);
    let near = mine.iter().fold(0u64, |m, &v| {
        m | 1 << v | geo().vertex_neighbour_mask[v as usize]
    });
    let far = (0..54u8).rev().find(|&v| near & 1 << v == 0).unwrap_or(53);
    let theirs = path(far, 6, near);
    settle(&mut g, Seat(1), theirs[0]);
    roads(&mut g, Seat(1), &theirs);
    g.set_longest_road(Some(Seat(1)));
    g.set_blocked_vertices(ALL);
    let open: u128 = mine[2..]
        .windows(2)
        .fold(0, |m, w| m | 1u128 << edge(w[0], w[1]));
    g.set_occupied_edges((u128::MAX >> (128 - 72)) & !open);
    (g, theirs)
}

#[test]
fn r39_longest_road_counts_only_if_free_edges_can_make_the_trail() {
    // 1 settlement (2 points with a city), Largest Army, 5 VP cards.
    let base = 2 + 2 + 5;
    // 2 + 4 roads make 6, which does not beat 6, whatever the 13 roads left.
    let short = trail_race(4);
    assert_eq!(short.players()[0].roads_left, 13);
    assert_eq!(point_ceiling(&short, Seat(0)), base);
    // 2 + 5 make 7.
    assert_eq!(point_ceiling(&trail_race(5), Seat(0)), base + 2);
}

#[test]
fn r39_a_trail_is_cuttable_only_where_another_player_can_still_settle() {
    // Seat 1's trail of 6 beats seat 0's best of 6 (2 + 4 free roads) for
    // good while no corner on it can take a settlement: no Longest Road.
    let base = 2 + 2 + 5;
    let (mut g, theirs) = trail_race_along(4);
    // Seats 2 and 3 past their opening too (a player with nothing on the
    // board could settle anywhere), far from both trails and boxed in.
    let geo = geo();
    let blocked = g.blocked_vertices();
    for seat in [Seat(2), Seat(3)] {
        let near = g.occupied_vertices()
            | g.player(Seat(0)).road_vertices
            | g.player(Seat(1)).road_vertices;
        let around = bits64(near).fold(near, |m, v| m | geo.vertex_neighbour_mask[v as usize]);
        let v = (0..54u8)
            .find(|&v| around & 1 << v == 0 && geo.vertex_neighbour_mask[v as usize] & around == 0)
            .expect("a far corner");
        settle(&mut g, seat, v);
    }
    g.set_blocked_vertices(blocked | g.occupied_vertices());
    assert_eq!(point_ceiling(&g, Seat(0)), base);
    // A free corner on it that no other player's roads can reach cuts
    // nothing (the rule before counted any free corner on the trail).
    let mid = theirs[3];
    g.set_blocked_vertices(g.blocked_vertices() & !(1 << mid));
    assert_eq!(point_ceiling(&g, Seat(0)), base);
    // Seat 2's road reaching that corner can cut the trail there (R39: a
    // settlement breaks the trail), so seat 0's 6 could win the award.
    let on = theirs.iter().fold(0u64, |m, &v| m | 1 << v);
    let (x, y) = bits64(geo.vertex_neighbour_mask[mid as usize] & !on)
        .find_map(|x| {
            let y = bits64(geo.vertex_neighbour_mask[x as usize] & !on & !(1 << mid)).next()?;
            Some((x, y))
        })
        .expect("a corner off the trail two roads from its middle");
    let blocked = g.blocked_vertices();
    settle(&mut g, Seat(2), y);
    roads(&mut g, Seat(2), &[y, x, mid]);
    g.set_blocked_vertices(blocked | 1 << y | geo.vertex_neighbour_mask[y as usize]);
    assert_eq!(point_ceiling(&g, Seat(0)), base + 2);
}

#[test]
fn r43_the_ceiling_never_falls_below_the_points_later_reached() {
    use crate::{Bot, BotKind, make_bot};
    use catan_core::playout::seat_to_act;
    use catan_core::{Phase, Viewer};
    for seed in 0..4u64 {
        let options = GameOptions {
            vp_target: 12,
            ..GameOptions::default()
        };
        let (mut g, _) = Game::new(options, seed).unwrap();
        let mut bots: Vec<Box<dyn Bot>> = (0..4)
            .map(|s| make_bot(BotKind::Normal, seed * 4 + s))
            .collect();
        let mut ceilings: Vec<(u32, [u32; 4])> = Vec::new();
        let mut turn = u32::MAX;
        while g.phase() != Phase::Finished && g.turn() <= 300 {
            // Every fifth turn: the trail search is slow in a debug build.
            if g.turn() != turn && g.turn() % 5 == 0 {
                turn = g.turn();
                let c = [0, 1, 2, 3].map(|s| point_ceiling(&g, Seat(s)));
                ceilings.push((turn, c));
            }
            let seat = crate::arena::owes_answer(&g).unwrap_or_else(|| seat_to_act(&g));
            let legal = g.legal_actions(seat);
            let a = bots[seat.index()]
                .choose(&g.view(Viewer::Seat(seat)), &legal)
                .unwrap();
            if g.apply(seat, a).is_err() {
                g.apply(seat, legal[0]).unwrap();
            }
        }
        for s in 0..4u8 {
            let reached = g.victory_points(Seat(s)) as u32;
            for (t, c) in &ceilings {
                assert!(
                    c[s as usize] >= reached,
                    "seed {seed}: seat {s} reached {reached}, ceiling {} at turn {t}",
                    c[s as usize]
                );
            }
        }
    }
}

#[test]
fn r43_a_fresh_game_can_reach_the_highest_target() {
    let (g, _) = Game::new(GameOptions::default(), 1).unwrap();
    // 5 settlements + 4 cities, both awards, all 5 Victory Point cards.
    assert_eq!(point_ceiling(&g, Seat(0)), 5 + 8 + 4 + 5);
    assert!(!unwinnable(&g));
}

#[test]
fn r43_victory_point_cards_held_elsewhere_lower_the_ceiling() {
    let (mut g, _) = Game::new(
        GameOptions {
            vp_target: 20,
            ..GameOptions::default()
        },
        1,
    )
    .unwrap();
    for s in 1..4u8 {
        g.player_mut(Seat(s)).dev.0[DevCard::VictoryPoint.index()] = if s == 1 { 2 } else { 1 };
    }
    g.player_mut(Seat(0)).dev.0[DevCard::VictoryPoint.index()] = 1;
    // Nobody holds more than 2 of the 5 cards: at most 13 + 4 + 2 = 19.
    assert!(unwinnable(&g));
    // The cards alone say so, whatever the board.
    assert!(cards_rule_out(&g));
}

#[test]
fn r43_the_cards_alone_rule_out_only_what_no_hand_can_reach() {
    let target = |vp_target| {
        let (g, _) = Game::new(
            GameOptions {
                vp_target,
                ..GameOptions::default()
            },
            1,
        )
        .unwrap();
        g
    };
    // A fresh game: every card is still open to everyone.
    assert!(!cards_rule_out(&target(20)));
    // Seat 0 holds 3 cards: 13 + 4 + 3 = 20 stays open to it.
    let mut g = target(20);
    g.player_mut(Seat(0)).dev.0[DevCard::VictoryPoint.index()] = 3;
    g.player_mut(Seat(1)).dev.0[DevCard::VictoryPoint.index()] = 2;
    assert!(!cards_rule_out(&g));
    // Spread 2-1-1-1, 19 at most: out of reach at 20, not at 19.
    let spread = |vp_target| {
        let mut g = target(vp_target);
        for (s, n) in [2, 1, 1, 1].into_iter().enumerate() {
            g.player_mut(Seat(s as u8)).dev.0[DevCard::VictoryPoint.index()] = n;
        }
        g
    };
    assert!(cards_rule_out(&spread(20)));
    assert!(!cards_rule_out(&spread(19)));
}
