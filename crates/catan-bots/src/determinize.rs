//! Determinization: a full [`Game`] built from one seat's [`View`], with the
//! hidden information (other hands, other development cards, the deck order,
//! the dice) drawn at random but consistently with everything the view shows.
//!
//! What the view pins down is kept exactly: the board, every piece, the bank,
//! the seat's own cards, the number of cards each player holds, the cards
//! played. Unknown resource cards are dealt from what must be in other hands
//! (each type's 19 cards less the bank's and the seat's own); unknown
//! development cards from the deck's 25 less every card played and the seat's
//! own. A search that plays many such games never reads the true hidden
//! state, because it never has it. This module draws the hidden part; the
//! engine writes it into a game ([`Game::from_view`]).

use catan_core::state::BANK_EACH;
use catan_core::{
    DevCard, DevCards, Game, HiddenDeal, PhaseName, Resource, ResourceSet, Seat, View, Viewer,
};
use rand::Rng;
use rand::seq::SliceRandom;

/// Why a view could not be turned into a game (a view from a spectator or a
/// finished game; never a seat's view of a running game).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotDeterminizable(pub &'static str);

/// A game consistent with `view`, its hidden parts drawn from `rng`. The
/// drawing is done here; the engine builds the game from the view and the
/// drawn [`HiddenDeal`] ([`Game::from_view`]).
pub fn sample_game<R: Rng>(view: &View, rng: &mut R) -> Result<Game, NotDeterminizable> {
    let Viewer::Seat(me) = view.viewer else {
        return Err(NotDeterminizable("only a seat's view can be sampled"));
    };
    // The game's seed, then the hands, then the development cards: the
    // order of the draws fixes which samples a bot's seed gives.
    let seed = rng.random();
    if view.phase == PhaseName::Finished {
        return Err(NotDeterminizable("the game is over"));
    }
    let hands = deal_resources(view, rng);
    let (dev_cards, deck) = deal_development(view, me, rng);
    let deal = HiddenDeal {
        hands,
        dev_cards,
        deck,
        seed,
    };
    Game::from_view(view, deal)
        .map_err(|_| NotDeterminizable("the view's options, board or seats are not playable"))
}

/// A hand for each seat: for each hand the view hides, as many cards as it
/// holds, dealt from the cards that are in no visible hand and not in the
/// bank (the hands the view shows get nothing: the view's are used).
fn deal_resources<R: Rng>(view: &View, rng: &mut R) -> Vec<ResourceSet> {
    let mut unseen = ResourceSet([BANK_EACH; 5]);
    unseen.sub(&view.bank);
    for pv in &view.players {
        if let Some(h) = pv.resources {
            unseen.sub(&h);
        }
    }
    let mut pool: Vec<Resource> = Vec::with_capacity(unseen.total() as usize);
    for (r, k) in unseen.iter() {
        pool.extend(std::iter::repeat_n(r, k as usize));
    }
    pool.shuffle(rng);
    let mut hands = vec![ResourceSet::EMPTY; view.players.len()];
    for (hand, pv) in hands.iter_mut().zip(&view.players) {
        if pv.resources.is_some() {
            continue;
        }
        for _ in 0..pv.resource_count {
            // A view whose counts exceed the unseen cards is not from a real
            // game; the hand then gets fewer cards rather than invented ones.
            if let Some(r) = pool.pop() {
                *hand.get_mut(r) += 1;
            }
        }
    }
    hands
}

/// Deals the unknown development cards: the 25 of the deck less those played
/// and the seat's own go to the other hands (their counts are public) and the
/// rest, shuffled, form the deck. Returns the hands by seat (the seat's own
/// empty: the view's are used) and the deck.
fn deal_development<R: Rng>(view: &View, me: Seat, rng: &mut R) -> (Vec<DevCards>, Vec<DevCard>) {
    let mut unseen = DevCard::DECK_COUNTS;
    let mut take = |cards: &DevCards| {
        for c in DevCard::ALL {
            unseen[c.index()] = unseen[c.index()].saturating_sub(cards.get(c));
        }
    };
    for pv in &view.players {
        take(&pv.played);
    }
    if let Some(mine) = view.players.get(me.index()).and_then(|p| p.dev_cards) {
        take(&mine);
    }
    let mut pool: Vec<DevCard> = Vec::with_capacity(25);
    for c in DevCard::ALL {
        pool.extend(std::iter::repeat_n(c, unseen[c.index()] as usize));
    }
    pool.shuffle(rng);
    let mut hands = vec![DevCards::default(); view.players.len()];
    for (i, (dev, pv)) in hands.iter_mut().zip(&view.players).enumerate() {
        if i == me.index() {
            continue;
        }
        for _ in 0..pv.dev_card_count {
            if let Some(c) = pool.pop() {
                dev.0[c.index()] += 1;
            }
        }
    }
    pool.truncate(view.deck_size);
    (hands, pool)
}

#[cfg(test)]
mod tests {
    use super::*;
    use catan_core::playout::Playout;
    use catan_core::{GameOptions, Phase, Viewer};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// A game some way in, played by random legal moves.
    fn midgame(seed: u64, turns: u32) -> Game {
        let (mut g, _) = Game::new(GameOptions::default(), seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        Playout::new().run(&mut g, &mut rng, turns, |_, _, _, _| {});
        g
    }

    #[test]
    fn a_sample_shows_the_seat_exactly_what_the_real_game_shows() {
        for seed in 0..40 {
            let g = midgame(seed, 3 + (seed as u32 % 40));
            if g.phase() == Phase::Finished {
                continue;
            }
            for s in 0..4u8 {
                let viewer = Viewer::Seat(Seat(s));
                let view = g.view(viewer);
                let mut rng = ChaCha8Rng::seed_from_u64(seed * 7 + s as u64);
                let sample = sample_game(&view, &mut rng).unwrap();
                let mut seen = sample.view(viewer);
                // The board mode is not part of what can be played.
                seen.options.board = view.options.board;
                assert_eq!(seen, view, "seed {seed} seat {s}");
                // The engine agrees on what the seat may do.
                assert_eq!(
                    sample.legal_actions(Seat(s)),
                    g.legal_actions(Seat(s)),
                    "seed {seed} seat {s}"
                );
            }
        }
    }

    #[test]
    fn samples_vary_only_what_the_seat_cannot_see() {
        let g = midgame(5, 30);
        let me = Seat(0);
        let view = g.view(Viewer::Seat(me));
        let mut hands = std::collections::HashSet::new();
        for k in 0..30 {
            let s = sample_game(&view, &mut ChaCha8Rng::seed_from_u64(k)).unwrap();
            assert_eq!(s.players()[0].hand, g.players()[0].hand);
            assert_eq!(s.players()[0].dev, g.players()[0].dev);
            let mut total = s.bank();
            for p in s.players() {
                total.add(&p.hand);
            }
            assert_eq!(total, ResourceSet([BANK_EACH; 5]), "every card somewhere");
            let dev_total: u32 = s.deck_size() as u32
                + s.players()
                    .iter()
                    .map(|p| p.dev.total() + p.played.total())
                    .sum::<u32>();
            assert_eq!(dev_total, 25);
            hands.insert(format!(
                "{:?}",
                s.players()[1..].iter().map(|p| p.hand).collect::<Vec<_>>()
            ));
        }
        assert!(hands.len() > 1, "other hands are drawn, not copied");
    }
}
