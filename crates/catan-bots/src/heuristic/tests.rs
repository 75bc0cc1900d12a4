//! Decisions of the `normal` bot in positions built by hand: the late game
//! of a high target, where the board has no room left for it and Longest
//! Road is its only way to more points.

use super::HeuristicBot;
use crate::Bot;
use crate::ctx::Ctx;
use crate::plan::{self, Goal};
use crate::testkit::{blank, edge, path, roads, settle};
use catan_core::geometry::geo;
use catan_core::{Action, DevCard, Game, GameOptions, ResourceSet, Seat, Viewer};

/// A 15-point game where seat 1 holds Longest Road with a trail of `len`
/// roads from vertex 0; the corners on and beside that trail.
fn rival_trail(len: usize) -> (Game, u64) {
    let mut g = blank(GameOptions {
        vp_target: 15,
        ..GameOptions::default()
    });
    let theirs = path(0, len, 0);
    settle(&mut g, Seat(1), theirs[0]);
    roads(&mut g, Seat(1), &theirs);
    g.set_longest_road(Some(Seat(1)));
    let near = theirs.iter().fold(0u64, |m, &v| {
        m | 1 << v | geo().vertex_neighbour_mask[v as usize]
    });
    (g, near)
}

/// Seat 0 with every settlement and
/// city placed and the deck empty: one road of its own against seat 1's
/// trail of 6, which holds Longest Road. Taking the award needs six more
/// roads, more than the three the bot planned for before.
fn built_out() -> Game {
    let (mut g, near) = rival_trail(6);
    let start = (0..54u8).rev().find(|&v| near & 1 << v == 0).unwrap_or(53);
    let mine = path(start, 1, near);
    settle(&mut g, Seat(0), mine[0]);
    roads(&mut g, Seat(0), &mine);
    let me = g.player_mut(Seat(0));
    me.settlements_left = 0;
    me.cities_left = 0;
    g.set_deck(Vec::new());
    g
}

fn choose(g: &Game) -> Option<Action> {
    let view = g.view(Viewer::Seat(Seat(0)));
    let legal = g.legal_actions(Seat(0));
    HeuristicBot::new(1).choose(&view, &legal)
}

#[test]
fn r40_built_out_it_heads_for_longest_road_however_far() {
    let mut g = built_out();
    g.player_mut(Seat(0)).hand = ResourceSet::ROAD;
    let view = g.view(Viewer::Seat(Seat(0)));
    let ctx = Ctx::new(&view);
    // Before: no plan at all (the award was more than three roads away),
    // so the bot ended its turns holding the cards for a road.
    let (_, best) = plan::current(&ctx);
    assert_eq!(best.map(|p| p.goal), Some(Goal::LongestRoad));
    let a = choose(&g).expect("an action");
    assert!(matches!(a, Action::BuildRoad { .. }), "{a:?}");
    g.apply(Seat(0), a).unwrap();
    assert_eq!(g.players()[0].trail, 2, "the road lengthens the trail");
}

#[test]
fn r37_built_out_it_plays_road_building_for_longest_road() {
    let mut g = built_out();
    g.player_mut(Seat(0)).dev.0[DevCard::RoadBuilding.index()] = 1;
    // Before: Road Building was kept for settlements only, so with no spot
    // left the card stayed in the hand for the rest of the game.
    let a = choose(&g).expect("an action");
    let Action::PlayRoadBuilding { edges } = a else {
        panic!("expected Road Building, got {a:?}");
    };
    assert_eq!(edges.len(), 2, "{a:?}");
    g.apply(Seat(0), a).unwrap();
    assert_eq!(g.players()[0].trail, 3, "both roads lengthen the trail");
}

#[test]
fn r40_it_does_not_head_for_a_longest_road_it_cannot_take() {
    let mut g = built_out();
    g.player_mut(Seat(0)).hand = ResourceSet::ROAD;
    // Five roads left: 1 + 5 cannot beat 6.
    g.player_mut(Seat(0)).roads_left = 5;
    let view = g.view(Viewer::Seat(Seat(0)));
    let (plans, _) = plan::current(&Ctx::new(&view));
    assert!(
        plans.iter().all(|p| p.goal != Goal::LongestRoad),
        "{plans:?}"
    );
}

/// Seat 0 built out (no settlement or city left, the deck empty) with a
/// trail of 4 whose two ends are hemmed in by seat 2's roads, against seat
/// 1's trail of 4: the award needs 5, and only a branch off an inner
/// corner of the trail gets there, whose first road lengthens nothing.
fn hemmed_in() -> Game {
    let geo = geo();
    let (mut g, near) = rival_trail(4);
    // Far from seat 1, with room for a branch of two roads off each inner
    // corner, and both ends with a neighbour off the trail to hem in.
    let mine = (0..54u8)
        .rev()
        .filter(|&v| near & 1 << v == 0)
        .map(|v| path(v, 4, near))
        .find(|p| {
            let on = p.iter().fold(0u64, |m, &v| m | 1 << v);
            let off = |v: u8| geo.vertex_neighbour_mask[v as usize] & !on & !near;
            off(p[0]) != 0 && off(p[4]) != 0 && (1..4).all(|i| off(p[i]) != 0)
        })
        .expect("such a trail");
    settle(&mut g, Seat(0), mine[0]);
    roads(&mut g, Seat(0), &mine);
    let on = mine.iter().fold(0u64, |m, &v| m | 1 << v);
    for end in [mine[0], mine[4]] {
        for w in catan_core::geometry::bits64(geo.vertex_neighbour_mask[end as usize] & !on) {
            roads(&mut g, Seat(2), &[end, w]);
        }
    }
    let me = g.player_mut(Seat(0));
    me.settlements_left = 0;
    me.cities_left = 0;
    me.hand = ResourceSet::ROAD;
    // Few roads left, so the edges within reach are few enough to plan
    // over (as on the full board of a long game).
    me.roads_left = 3;
    g.set_deck(Vec::new());
    g
}

#[test]
fn r39_hemmed_in_it_takes_the_detour_no_single_road_shows() {
    let mut g = hemmed_in();
    let view = g.view(Viewer::Seat(Seat(0)));
    let ctx = Ctx::new(&view);
    assert_eq!(ctx.me_view().map(|p| p.longest_trail), Some(4));
    // No road lengthens the trail now (the rule before this planned only
    // such roads, and so built none here).
    assert_eq!(crate::trail::gain_with(&ctx, 0, 15), None);
    // The bot builds the first road of a branch, then the next: the trail
    // is 5 and beats seat 1's 4.
    for _ in 0..2 {
        let a = choose(&g).expect("an action");
        assert!(matches!(a, Action::BuildRoad { .. }), "{a:?}");
        g.apply(Seat(0), a).unwrap();
        g.player_mut(Seat(0)).hand = ResourceSet::ROAD;
    }
    assert_eq!(g.players()[0].trail, 5);
    assert_eq!(g.longest_road(), Some(Seat(0)));
}

/// Seat 0 one road away from the only free corner left, holding Road
/// Building: the card builds that road and a second one. Before, it built
/// the one road its plan needed and gave the second up (R36 allows "up to
/// 2"), a free road thrown away, and in Catanatron's engine, which always
/// asks for two, the bridge had no answer for the second.
#[test]
fn r36_road_building_builds_two_roads_when_the_plan_needs_one() {
    let mut g = blank(GameOptions::default());
    let mine = path(20, 1, 0);
    settle(&mut g, Seat(0), mine[0]);
    roads(&mut g, Seat(0), &mine);
    let geo = geo();
    let target = (0..54u8)
        .find(|&v| geo.vertex_neighbour_mask[mine[1] as usize] & 1 << v != 0 && v != mine[0])
        .expect("a corner beyond the road");
    // Every other corner taken or too close to a building: seat 1's
    // settlements on each corner still free, or, beside the target, on a
    // neighbour of it away from the target.
    g.player_mut(Seat(1)).settlements_left = 54;
    let near_target = geo.vertex_neighbour_mask[target as usize] | 1u64 << target;
    for v in 0..54u8 {
        let occupied = g.occupied_vertices();
        let blocked = (0..54u8)
            .filter(|&w| occupied & 1u64 << w != 0)
            .fold(occupied, |m, w| m | geo.vertex_neighbour_mask[w as usize]);
        if v == target || blocked & 1u64 << v != 0 {
            continue;
        }
        let at = if near_target & 1u64 << v == 0 {
            v
        } else {
            (0..54u8)
                .find(|&w| {
                    geo.vertex_neighbour_mask[v as usize] & 1u64 << w != 0
                        && (near_target | 1u64 << mine[1]) & 1u64 << w == 0
                })
                .expect("a corner beside it away from the target")
        };
        settle(&mut g, Seat(1), at);
    }
    g.player_mut(Seat(0)).dev.0[DevCard::RoadBuilding.index()] = 1;
    // No city left to build: the settlement is the plan.
    g.player_mut(Seat(0)).cities_left = 0;
    let view = g.view(Viewer::Seat(Seat(0)));
    let (_, best) = plan::current(&Ctx::new(&view));
    assert!(
        matches!(
            best.map(|p| p.goal),
            Some(Goal::Settlement { roads: 1, .. })
        ),
        "{best:?}"
    );
    let a = choose(&g).expect("an action");
    let Action::PlayRoadBuilding { edges } = a else {
        panic!("expected Road Building, got {a:?}");
    };
    let to_target = edge(mine[1], target);
    assert!(edges.iter().any(|e| e.0 == to_target), "{a:?}");
    assert_eq!(edges.len(), 2, "{a:?}");
    g.apply(Seat(0), a).unwrap();
    assert_eq!(g.players()[0].roads.count_ones(), 3);
}
