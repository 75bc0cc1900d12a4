//! The heuristic bot's individual decisions, on games set up to the moment.

// Tests may unwrap: a panic is the failure report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use catan_bots::board_eval::BoardEval;
use catan_bots::ctx::Ctx;
use catan_bots::{Bot, HeuristicBot, discard_pick, opening_value};
use catan_core::geometry::geo;
use catan_core::{
    Action, BoardMode, DevCard, Game, GameOptions, Phase, Resource, ResourceSet, Seat, SeatSet,
    Viewer,
};
use common::{options, to_first_action};

fn ask(g: &Game, seat: Seat) -> Action {
    let legal = g.legal_actions(seat);
    HeuristicBot::new(0)
        .choose(&g.view(Viewer::Seat(seat)), &legal)
        .unwrap()
}

fn pips_of(g: &Game, v: u8) -> f32 {
    BoardEval::new(g.board()).total_pips(v)
}

#[test]
fn r12_opening_picks_a_richer_spot_than_a_fixed_poor_one() {
    for seed in 0..5 {
        let (g, _) = Game::new(options(BoardMode::Beginner), seed).unwrap();
        let Action::BuildSettlement { vertex } = ask(&g, g.active()) else {
            panic!("the opening starts with a settlement");
        };
        // Vertex 0 touches only hex 0 (mountains, 10: 3 pips).
        assert!(
            pips_of(&g, vertex.0) >= 10.0,
            "picked {vertex} with few pips"
        );
        let view = g.view(Viewer::Seat(g.active()));
        let ctx = Ctx::new(&view);
        assert!(opening_value(&ctx, vertex.0) > opening_value(&ctx, 0));
        let best = (0..54u8).map(|v| pips_of(&g, v)).fold(0.0, f32::max);
        assert!(pips_of(&g, vertex.0) >= best - 3.0);
    }
}

#[test]
fn r12_opening_road_leaves_from_the_new_settlement() {
    let (mut g, _) = Game::new(options(BoardMode::Random), 3).unwrap();
    let seat = g.active();
    let a = ask(&g, seat);
    g.apply(seat, a).unwrap();
    let Action::BuildSettlement { vertex } = a else {
        panic!("settlement first")
    };
    let Action::BuildRoad { edge } = ask(&g, seat) else {
        panic!("then a road")
    };
    assert!(geo().edge_vertices[edge.index()].contains(&vertex.0));
}

/// A game in its first action phase, the active seat and the next seat.
fn trade_setup(seed: u64) -> (Game, Seat, Seat) {
    let mut g = to_first_action(seed);
    let active = g.active();
    let other = g.next_seat(active);
    g.player_mut(active).hand = ResourceSet([3, 3, 3, 3, 3]);
    (g, active, other)
}

fn offer(g: &mut Game, from: Seat, to: Seat, give: ResourceSet, get: ResourceSet) -> Action {
    let mut set = SeatSet(0);
    set.insert(to);
    g.apply(
        from,
        Action::OfferTrade {
            give,
            get,
            to: Some(set),
        },
    )
    .unwrap();
    let id = g.offers().last().unwrap().id;
    let taker_answer = ask(g, to);
    match taker_answer {
        Action::AcceptTrade { offer } | Action::DeclineTrade { offer } => assert_eq!(offer, id),
        other => panic!("an offer made to the bot must be answered, got {other:?}"),
    }
    taker_answer
}

#[test]
fn r27_accepts_an_offer_that_completes_a_city() {
    let (mut g, active, other) = trade_setup(1);
    g.player_mut(other).hand = ResourceSet([0, 0, 1, 2, 2]);
    let a = offer(
        &mut g,
        active,
        other,
        ResourceSet::of(Resource::Ore, 1),
        ResourceSet::of(Resource::Wool, 1),
    );
    assert!(matches!(a, Action::AcceptTrade { .. }), "{a:?}");
}

#[test]
fn r27_declines_an_offer_that_takes_what_it_needs() {
    let (mut g, active, other) = trade_setup(1);
    g.player_mut(other).hand = ResourceSet([0, 0, 1, 2, 2]);
    let a = offer(
        &mut g,
        active,
        other,
        ResourceSet::of(Resource::Brick, 1),
        ResourceSet::of(Resource::Wheat, 1),
    );
    assert!(matches!(a, Action::DeclineTrade { .. }), "{a:?}");
}

#[test]
fn r27_declines_to_help_a_player_about_to_win() {
    let (mut g, active, other) = trade_setup(1);
    g.player_mut(other).hand = ResourceSet([0, 0, 1, 2, 2]);
    // Two points shown, one from the target. (Two short counts as about to
    // win only for a player ahead of the bot: both show two points here.)
    g.set_options(GameOptions {
        vp_target: 3,
        ..g.options()
    });
    let a = offer(
        &mut g,
        active,
        other,
        ResourceSet::of(Resource::Ore, 1),
        ResourceSet::of(Resource::Wool, 1),
    );
    assert!(matches!(a, Action::DeclineTrade { .. }), "{a:?}");
}

#[test]
fn r27_repeats_its_answer_when_asked_again() {
    let (mut g, active, other) = trade_setup(2);
    g.player_mut(other).hand = ResourceSet([0, 0, 1, 2, 2]);
    let first = offer(
        &mut g,
        active,
        other,
        ResourceSet::of(Resource::Brick, 1),
        ResourceSet::of(Resource::Wheat, 1),
    );
    g.apply(other, first).unwrap();
    assert_eq!(ask(&g, other), first);
}

#[test]
fn r35_plays_a_knight_when_the_robber_blocks_it_and_never_robs_itself() {
    let mut g = to_first_action(4);
    let seat = g.active();
    g.set_phase(Phase::PreRoll);
    g.player_mut(seat).dev.0[DevCard::Knight.index()] = 1;
    let mine = g.player(seat).buildings();
    let blocked = (0..19u8)
        .find(|&h| {
            geo().hex_vertex_mask[h as usize] & mine != 0
                && g.board().hexes[h as usize].number.is_some()
        })
        .unwrap();
    g.set_robber(catan_core::HexId(blocked));
    match ask(&g, seat) {
        Action::PlayKnight { hex, .. } => {
            assert_eq!(
                geo().hex_vertex_mask[hex.index()] & mine,
                0,
                "robber onto own hex {hex}"
            );
        }
        other => panic!("expected a knight, got {other:?}"),
    }
}

#[test]
fn r19_robber_goes_to_an_opponent_hex_and_steals_from_someone() {
    for seed in 0..10 {
        let mut g = to_first_action(seed);
        let seat = g.active();
        g.set_phase(Phase::MoveRobber);
        for s in 0..g.n_players() {
            g.player_mut(Seat(s as u8)).hand = ResourceSet([1, 1, 1, 1, 1]);
        }
        let mine = g.player(seat).buildings();
        match ask(&g, seat) {
            Action::MoveRobber { hex, victim } => {
                let mask = geo().hex_vertex_mask[hex.index()];
                assert_eq!(mask & mine, 0, "seed {seed}: robber on own hex {hex}");
                assert!(victim.is_some(), "seed {seed}: no victim");
                assert!(g.board().hexes[hex.index()].number.is_some());
            }
            other => panic!("expected a robber move, got {other:?}"),
        }
    }
}

#[test]
fn r19_discards_exactly_the_owed_count_and_keeps_what_the_plan_needs() {
    let mut g = to_first_action(5);
    let seat = g.next_seat(g.active());
    g.player_mut(seat).hand = ResourceSet([6, 0, 1, 2, 3]);
    let view = g.view(Viewer::Seat(seat));
    let ctx = Ctx::new(&view);
    let drop = discard_pick(&ctx, ctx.hand, 6);
    assert_eq!(drop.total(), 6);
    assert!(ctx.hand.contains(&drop));
    // The six bricks are the surplus; wheat and ore (a city) stay.
    let mut kept = ctx.hand;
    kept.sub(&drop);
    assert!(
        kept.get(Resource::Wheat) == 2 && kept.get(Resource::Ore) == 3,
        "kept {kept}"
    );
}

#[test]
fn builds_a_city_when_it_can() {
    let mut g = to_first_action(6);
    let seat = g.active();
    g.player_mut(seat).hand = ResourceSet::CITY;
    let a = ask(&g, seat);
    assert!(matches!(a, Action::BuildCity { .. }), "{a:?}");
    let Action::BuildCity { vertex } = a else {
        unreachable!()
    };
    assert!(g.player(seat).settlements & (1 << vertex.0) != 0);
}
