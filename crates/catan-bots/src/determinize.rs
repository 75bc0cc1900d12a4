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
//! state, because it never has it.

use catan_core::geometry::geo;
use catan_core::state::{BANK_EACH, CITIES, ROADS, SETTLEMENTS};
use catan_core::{
    BoardMode, DevCard, DevCards, Game, Phase, PhaseName, Player, Resource, ResourceSet, Seat,
    View, Viewer,
};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Why a view could not be turned into a game (a view from a spectator or a
/// finished game; never a seat's view of a running game).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotDeterminizable(pub &'static str);

/// A game consistent with `view`, its hidden parts drawn from `rng`.
pub fn sample_game<R: Rng>(view: &View, rng: &mut R) -> Result<Game, NotDeterminizable> {
    let Viewer::Seat(me) = view.viewer else {
        return Err(NotDeterminizable("only a seat's view can be sampled"));
    };
    let n = view.players.len();
    let mut options = view.options;
    // The board is given; the mode only matters when generating one.
    options.board = BoardMode::Random;
    let mut game = Game::blank(
        options,
        view.board.clone(),
        ChaCha8Rng::seed_from_u64(rng.random()),
    )
    .map_err(|_| NotDeterminizable("the view's options or board are not playable"))?;
    if n != game.n_players() || me.index() >= n {
        return Err(NotDeterminizable(
            "the view's seats do not match its options",
        ));
    }
    game.robber = view.robber;
    game.active = view.active;
    game.turn = view.turn;
    game.dice = view.dice;
    game.dice_counts = view.dice_counts.clone();
    game.bank = view.bank;
    game.longest_road = view.longest_road;
    game.largest_army = view.largest_army;
    game.dev_played = view.dev_card_played;
    game.discards = view.discards_owed.clone();
    game.offers = view.offers.clone();
    game.next_offer = view.offers.iter().map(|o| o.id.0 + 1).max().unwrap_or(0);
    game.winner = view.winner;
    game.phase = phase(view, n)?;
    if let Phase::Opening { step, .. } = game.phase {
        // The snake order's first placer, from who places at this step.
        let k = if (step as usize) < n {
            step as usize
        } else {
            2 * n - 1 - step as usize
        };
        game.opener = Seat(((view.active.index() + n - k % n) % n) as u8);
    }
    let g = geo();
    for (i, pv) in view.players.iter().enumerate() {
        let mut p = Player::new();
        for v in pv.settlements.iter().filter(|v| v.is_valid()) {
            p.settlements |= 1u64 << v.0;
        }
        for v in pv.cities.iter().filter(|v| v.is_valid()) {
            p.cities |= 1u64 << v.0;
        }
        for e in pv.roads.iter().filter(|e| e.is_valid()) {
            p.add_road(e.0);
            game.occupied_edges |= 1u128 << e.0;
        }
        for v in catan_core::geometry::bits64(p.buildings()) {
            game.occupied_vertices |= 1u64 << v;
            game.blocked_vertices |= (1u64 << v) | g.vertex_neighbour_mask[v as usize];
            p.harbours |= game.vertex_harbour[v as usize];
        }
        let [r, s, c] = pv.pieces_left;
        p.roads_left = r.min(ROADS);
        p.settlements_left = s.min(SETTLEMENTS);
        p.cities_left = c.min(CITIES);
        p.played = pv.played;
        p.trail = pv.longest_trail;
        if let Some(hand) = pv.resources {
            p.hand = hand;
        }
        if i == me.index() {
            p.dev = pv.dev_cards.unwrap_or_default();
            p.dev_new = pv.dev_cards_new.unwrap_or_default();
        }
        game.players[i] = p;
    }
    deal_resources(&mut game, view, me, rng);
    deal_development(&mut game, view, me, rng);
    Ok(game)
}

/// The engine phase the view's phase name stands for.
fn phase(view: &View, n: usize) -> Result<Phase, NotDeterminizable> {
    Ok(match view.phase {
        PhaseName::Opening => {
            let placed: usize = view
                .players
                .iter()
                .map(|p| p.settlements.len() + p.cities.len())
                .sum();
            let step = placed - usize::from(view.opening_settlement.is_some());
            if step >= 2 * n {
                return Err(NotDeterminizable("an opening with every settlement placed"));
            }
            Phase::Opening {
                step: step as u8,
                settlement: view.opening_settlement,
            }
        }
        PhaseName::PreRoll => Phase::PreRoll,
        PhaseName::Discard => Phase::Discard,
        PhaseName::MoveRobber => Phase::MoveRobber,
        PhaseName::Action => Phase::Action,
        PhaseName::Finished => return Err(NotDeterminizable("the game is over")),
    })
}

/// Gives each hand the view hides as many cards as it holds, dealt from the
/// cards that are in no visible hand and not in the bank.
fn deal_resources<R: Rng>(game: &mut Game, view: &View, _me: Seat, rng: &mut R) {
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
    for (i, pv) in view.players.iter().enumerate() {
        if pv.resources.is_some() {
            continue;
        }
        let mut hand = ResourceSet::EMPTY;
        for _ in 0..pv.resource_count {
            // A view whose counts exceed the unseen cards is not from a real
            // game; the hand then gets fewer cards rather than invented ones.
            if let Some(r) = pool.pop() {
                *hand.get_mut(r) += 1;
            }
        }
        game.players[i].hand = hand;
    }
}

/// Deals the unknown development cards: the 25 of the deck less those played
/// and the seat's own go to the other hands (their counts are public) and the
/// rest, shuffled, form the deck.
fn deal_development<R: Rng>(game: &mut Game, view: &View, me: Seat, rng: &mut R) {
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
    for (i, pv) in view.players.iter().enumerate() {
        if i == me.index() {
            continue;
        }
        let mut dev = DevCards::default();
        for _ in 0..pv.dev_card_count {
            if let Some(c) = pool.pop() {
                dev.0[c.index()] += 1;
            }
        }
        game.players[i].dev = dev;
    }
    pool.truncate(view.deck_size);
    game.deck = pool;
}

#[cfg(test)]
mod tests {
    use super::*;
    use catan_core::playout::Playout;
    use catan_core::{GameOptions, Viewer};

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
            if g.phase == Phase::Finished {
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
            assert_eq!(s.players[0].hand, g.players[0].hand);
            assert_eq!(s.players[0].dev, g.players[0].dev);
            let mut total = s.bank;
            for p in &s.players {
                total.add(&p.hand);
            }
            assert_eq!(total, ResourceSet([BANK_EACH; 5]), "every card somewhere");
            let dev_total: u32 = s.deck.len() as u32
                + s.players
                    .iter()
                    .map(|p| p.dev.total() + p.played.total())
                    .sum::<u32>();
            assert_eq!(dev_total, 25);
            hands.insert(format!(
                "{:?}",
                s.players[1..].iter().map(|p| p.hand).collect::<Vec<_>>()
            ));
        }
        assert!(hands.len() > 1, "other hands are drawn, not copied");
    }
}
