//! Writing the hidden part of a game: the cards in hands a seat cannot see,
//! the development deck's order and the random state (R46-R48).
//!
//! A bot that searches ahead plays copies of the game, and may only know
//! what its seat sees. Its copies are therefore built from the seat's
//! [`View`] with the hidden part drawn by the bot ([`Game::from_view`]), or
//! made from a game it holds by redealing the hidden part
//! ([`Game::redeal_hidden`]). These are the only ways to write cards into a
//! game from outside the crate besides scenarios; nothing outside reads the
//! deck or the random state back.

use crate::event::Viewer;
use crate::game::SetupError;
use crate::geometry::{bits64, geo};
use crate::ids::Seat;
use crate::options::BoardMode;
use crate::resource::{DevCard, DevCards, ResourceSet};
use crate::state::{CITIES, Game, Phase, PhaseName, Player, ROADS, SETTLEMENTS};
use crate::view::View;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The hidden part of a game, as one seat's copy of it is to hold it.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct HiddenDeal {
    /// Resource cards by seat. Only the hands the seat cannot see are
    /// taken; the others stay what the seat sees.
    pub hands: Vec<ResourceSet>,
    /// Unplayed development cards by seat. The seat's own entry is not
    /// taken: the seat knows its cards.
    pub dev_cards: Vec<DevCards>,
    /// The development deck, top card last.
    pub deck: Vec<DevCard>,
    /// Seed of the copy's random state (its future rolls and steals).
    pub seed: u64,
}

impl Game {
    /// A game that looks to `view`'s seat as `view` shows, with the hidden
    /// part from `deal`: the board, every piece, the bank, the seat's own
    /// cards, each player's played cards, the turn and its step come from
    /// the view; hands the view hides, the other seats' development cards,
    /// the deck and the random state from `deal`.
    ///
    /// The deal is taken as given: a caller that wants a copy the seat
    /// cannot tell from the real game deals each hidden hand as many cards
    /// as the view counts, from the cards that can be in it. Refuses a view
    /// that is not a seat's, a finished game, and a deal or view whose
    /// seats do not match the view's options.
    pub fn from_view(view: &View, deal: HiddenDeal) -> Result<Game, SetupError> {
        let Viewer::Seat(me) = view.viewer else {
            return Err(SetupError("only a seat's view can be played".into()));
        };
        let n = view.players.len();
        let mut options = view.options;
        // The board is given; the mode only matters when generating one.
        options.board = BoardMode::Random;
        let mut game = Game::blank(
            options,
            view.board.clone(),
            ChaCha8Rng::seed_from_u64(deal.seed),
        )?;
        if n != game.n_players() || me.index() >= n {
            return Err(SetupError(
                "the view's seats do not match its options".into(),
            ));
        }
        if deal.hands.len() != n || deal.dev_cards.len() != n {
            return Err(SetupError(format!(
                "the deal has {} hands and {} development hands for {n} seats",
                deal.hands.len(),
                deal.dev_cards.len()
            )));
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
        // Ids of closed offers are not in the view; past the open ones is
        // enough for new offers not to collide.
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
            for v in bits64(p.buildings()) {
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
            p.hand = pv.resources.unwrap_or(deal.hands[i]);
            if i == me.index() {
                p.dev = pv.dev_cards.unwrap_or_default();
                p.dev_new = pv.dev_cards_new.unwrap_or_default();
            } else {
                p.dev = deal.dev_cards[i];
            }
            game.players[i] = p;
        }
        game.deck = deal.deck;
        Ok(game)
    }

    /// Replaces what `seat` cannot see with `deal`: the hands it cannot see
    /// (every other hand, unless hands are open), the other seats'
    /// development cards, the deck and the random state. The seat's view
    /// stays the same, and so does the game's record of what was played.
    ///
    /// Refuses, changing nothing, a deal the seat could tell apart: one
    /// that changes how many cards a player holds, how many development
    /// cards a player holds or bought this turn, or the deck's size, or
    /// that puts cards in hidden places that the bank, the seat's own
    /// cards and the played ones show are not there.
    pub fn redeal_hidden(&mut self, seat: Seat, deal: HiddenDeal) -> Result<(), SetupError> {
        let n = self.n_players();
        if seat.index() >= n || deal.hands.len() != n || deal.dev_cards.len() != n {
            return Err(SetupError(format!(
                "a deal for {seat} of a {n}-player game has {} hands and {} development hands",
                deal.hands.len(),
                deal.dev_cards.len()
            )));
        }
        let hidden_hand = |i: usize| i != seat.index() && !self.options.open_hands;
        let mut old_hands = ResourceSet::EMPTY;
        let mut new_hands = ResourceSet::EMPTY;
        let mut old_dev = deck_cards(&self.deck);
        let mut new_dev = deck_cards(&deal.deck);
        for (i, p) in self.players.iter().enumerate() {
            let (hand, dev) = (deal.hands[i], deal.dev_cards[i]);
            if hidden_hand(i) {
                if hand.total() != p.hand.total() {
                    return Err(SetupError(format!(
                        "seat {i} holds {} cards, not {}",
                        p.hand.total(),
                        hand.total()
                    )));
                }
                old_hands.add(&p.hand);
                new_hands.add(&hand);
            }
            if i != seat.index() {
                let bought_ok = DevCard::ALL.iter().all(|&c| p.dev_new.get(c) <= dev.get(c));
                if dev.total() != p.dev.total() || !bought_ok {
                    return Err(SetupError(format!(
                        "seat {i}'s development cards differ in number or lack those bought this turn"
                    )));
                }
                add_cards(&mut old_dev, &p.dev);
                add_cards(&mut new_dev, &dev);
            }
        }
        if old_hands != new_hands {
            return Err(SetupError(format!(
                "the hidden hands hold {new_hands}, where the visible cards leave {old_hands}"
            )));
        }
        if deal.deck.len() != self.deck.len() || old_dev != new_dev {
            return Err(SetupError(
                "the deck and hidden development cards are not the ones left unseen".into(),
            ));
        }
        for (i, p) in self.players.iter_mut().enumerate() {
            if hidden_hand(i) {
                p.hand = deal.hands[i];
            }
            if i != seat.index() {
                p.dev = deal.dev_cards[i];
            }
        }
        self.deck = deal.deck;
        self.rng = ChaCha8Rng::seed_from_u64(deal.seed);
        Ok(())
    }
}

/// The engine phase a view's phase name stands for.
fn phase(view: &View, n: usize) -> Result<Phase, SetupError> {
    Ok(match view.phase {
        PhaseName::Opening => {
            let placed: usize = view
                .players
                .iter()
                .map(|p| p.settlements.len() + p.cities.len())
                .sum();
            let step = placed.saturating_sub(usize::from(view.opening_settlement.is_some()));
            if step >= 2 * n {
                return Err(SetupError("an opening with every settlement placed".into()));
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
        PhaseName::Finished => return Err(SetupError("the game is over".into())),
    })
}

/// The cards of `deck`, by type.
fn deck_cards(deck: &[DevCard]) -> [u32; 5] {
    let mut r = [0u32; 5];
    for c in deck {
        r[c.index()] += 1;
    }
    r
}

/// Adds `cards` to the counts `to`.
fn add_cards(to: &mut [u32; 5], cards: &DevCards) {
    for c in DevCard::ALL {
        to[c.index()] += u32::from(cards.get(c));
    }
}

#[cfg(test)]
mod tests;
