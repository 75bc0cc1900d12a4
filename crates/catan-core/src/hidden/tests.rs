//! A copy built from a view, or redealt, shows its seat the same game; a
//! redeal that a seat could tell apart is refused.

#![allow(clippy::unwrap_used)]

use super::*;
use crate::options::GameOptions;
use crate::playout::Playout;
use crate::resource::Resource;

/// A game some way in, played by random legal moves.
fn midgame(seed: u64, turns: u32) -> Game {
    let (mut g, _) = Game::new(GameOptions::default(), seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    Playout::new().run(&mut g, &mut rng, turns, |_, _, _, _| {});
    g
}

/// The game's own hidden part, with a new seed.
fn true_deal(g: &Game, seed: u64) -> HiddenDeal {
    HiddenDeal {
        hands: g.players.iter().map(|p| p.hand).collect(),
        dev_cards: g.players.iter().map(|p| p.dev).collect(),
        deck: g.deck.clone(),
        seed,
    }
}

#[test]
fn a_game_from_a_view_with_the_true_deal_shows_the_seat_the_same_game() {
    for seed in 0..20 {
        let g = midgame(seed, 2 + seed as u32 % 30);
        if g.phase == Phase::Finished {
            continue;
        }
        for s in 0..4u8 {
            let viewer = Viewer::Seat(Seat(s));
            let view = g.view(viewer);
            let copy = Game::from_view(&view, true_deal(&g, seed)).unwrap();
            let mut seen = copy.view(viewer);
            // The copy's board is given, not generated from a mode.
            seen.options.board = view.options.board;
            assert_eq!(seen, view, "seed {seed} seat {s}");
            assert_eq!(copy.players, g.players, "seed {seed} seat {s}");
            assert_eq!(copy.deck, g.deck);
            assert_eq!(copy.legal_actions(Seat(s)), g.legal_actions(Seat(s)));
        }
    }
}

#[test]
fn a_game_from_a_view_refuses_spectators_finished_games_and_short_deals() {
    let g = midgame(3, 10);
    let deal = true_deal(&g, 0);
    assert!(Game::from_view(&g.view(Viewer::Spectator), deal.clone()).is_err());
    let mut short = deal.clone();
    short.hands.pop();
    assert!(Game::from_view(&g.view(Viewer::Seat(Seat(0))), short).is_err());
    let mut over = g.view(Viewer::Seat(Seat(0)));
    over.phase = PhaseName::Finished;
    assert!(Game::from_view(&over, deal).is_err());
}

#[test]
fn a_redeal_changes_only_what_the_seat_cannot_see() {
    let me = Seat(0);
    // Two other hands of as many cards, but different ones, swap them.
    let (g, a, b) = (0..100)
        .find_map(|seed| {
            let g = midgame(seed, 25);
            let (a, b) = (1..4)
                .flat_map(|a| (a + 1..4).map(move |b| (a, b)))
                .find(|&(a, b)| {
                    g.players[a].hand.total() == g.players[b].hand.total()
                        && g.players[a].hand != g.players[b].hand
                })?;
            Some((g, a, b))
        })
        .unwrap();
    let mut deal = true_deal(&g, 99);
    deal.hands.swap(a, b);
    deal.deck.reverse();
    let mut t = g.clone();
    t.redeal_hidden(me, deal).unwrap();
    assert_eq!(t.view(Viewer::Seat(me)), g.view(Viewer::Seat(me)));
    assert_eq!(t.players[a].hand, g.players[b].hand);
    assert_ne!(t.rng, g.rng, "the random state is reseeded");
}

#[test]
fn a_redeal_the_seat_could_tell_apart_is_refused_and_changes_nothing() {
    let g = midgame(7, 25);
    let me = Seat(0);
    let holder = (1..4).find(|&i| g.players[i].hand.total() > 0).unwrap();
    let mut cases = Vec::new();
    // One card fewer in a hand.
    let mut d = true_deal(&g, 1);
    let r = Resource::ALL
        .into_iter()
        .find(|&r| d.hands[holder].get(r) > 0)
        .unwrap();
    *d.hands[holder].get_mut(r) -= 1;
    cases.push(d);
    // A card of another type than the visible ones leave.
    let mut d = true_deal(&g, 1);
    *d.hands[holder].get_mut(r) -= 1;
    *d.hands[holder].get_mut(if r == Resource::Brick {
        Resource::Wool
    } else {
        Resource::Brick
    }) += 1;
    cases.push(d);
    // A deck one card short.
    let mut d = true_deal(&g, 1);
    d.deck.pop();
    cases.push(d);
    for d in cases {
        let mut t = g.clone();
        assert!(t.redeal_hidden(me, d).is_err());
        assert_eq!(t, g);
    }
}
