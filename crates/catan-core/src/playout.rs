//! Random legal play: the engine's benchmark driver and the invariant tests'
//! source of games. Pure: the caller supplies the RNG.

use crate::action::Action;
use crate::event::Event;
use crate::ids::Seat;
use crate::resource::ResourceSet;
use crate::state::{Game, Phase};
use rand::Rng;

/// Which seats the game waits for now: the seats owing discards (R19a), or
/// the active seat. Empty once the game is over.
pub fn seats_to_act(game: &Game) -> Vec<Seat> {
    match game.phase {
        Phase::Finished => Vec::new(),
        Phase::Discard => game
            .discards
            .iter()
            .enumerate()
            .filter(|(_, d)| **d > 0)
            .map(|(i, _)| Seat(i as u8))
            .collect(),
        _ => vec![game.active],
    }
}

/// The one seat a sequential player loop moves next: the first seat owing a
/// discard, else the active seat (also once the game is over).
pub fn seat_to_act(game: &Game) -> Seat {
    seats_to_act(game).first().copied().unwrap_or(game.active)
}

/// `n` cards drawn uniformly at random from `hand` (fewer if it holds fewer).
pub fn random_cards<R: Rng>(mut hand: ResourceSet, n: u32, rng: &mut R) -> ResourceSet {
    let mut out = ResourceSet::EMPTY;
    for _ in 0..n {
        let total = hand.total();
        if total == 0 {
            break;
        }
        let Some(r) = hand.nth_card(rng.random_range(0..total)) else {
            break;
        };
        *hand.get_mut(r) -= 1;
        *out.get_mut(r) += 1;
    }
    out
}

/// A random discard of exactly the owed number of cards.
fn random_discard<R: Rng>(game: &Game, seat: Seat, rng: &mut R) -> Action {
    let hand = game.players[seat.index()].hand;
    Action::Discard {
        cards: random_cards(hand, u32::from(game.discards[seat.index()]), rng),
    }
}

/// Summary of one random game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayoutStats {
    /// Actions applied.
    pub actions: u64,
    /// Turns played (the game's turn counter at the end).
    pub turns: u64,
    /// Whether someone won (false: the turn cap ended it).
    pub finished: bool,
}

/// Reusable buffers for allocation-free playouts.
#[derive(Default)]
pub struct Playout {
    legal: Vec<Action>,
    events: Vec<Event>,
}

impl Playout {
    /// Fresh buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Plays `game` to the end (or `max_turns`) with uniformly random legal
    /// actions; `observe` sees each applied action and its events.
    pub fn run<R: Rng>(
        &mut self,
        game: &mut Game,
        rng: &mut R,
        max_turns: u32,
        mut observe: impl FnMut(&Game, Seat, &Action, &[Event]),
    ) -> PlayoutStats {
        let mut stats = PlayoutStats::default();
        while game.phase != Phase::Finished && game.turn <= max_turns {
            let seat = seat_to_act(game);
            let action = if game.phase == Phase::Discard {
                // Listing every possible discard of a big hand is costly and
                // a uniformly random card-by-card choice is just as legal.
                random_discard(game, seat, rng)
            } else {
                game.legal_actions_into(seat, &mut self.legal);
                if self.legal.is_empty() {
                    break;
                }
                self.legal[rng.random_range(0..self.legal.len())]
            };
            self.events.clear();
            if game.apply_into(seat, action, &mut self.events).is_err() {
                break;
            }
            stats.actions += 1;
            observe(game, seat, &action, &self.events);
        }
        stats.turns = game.turn as u64;
        stats.finished = game.phase == Phase::Finished;
        stats
    }
}
