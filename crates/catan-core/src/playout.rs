//! Random legal play: the engine's benchmark driver and the invariant tests'
//! source of games. Pure: the caller supplies the RNG.

use crate::action::Action;
use crate::event::Event;
use crate::ids::Seat;
use crate::resource::ResourceSet;
use crate::state::{Game, Phase};
use rand::Rng;

/// Which seat must act now: the active seat, or during discards the first
/// seat that still owes.
pub fn seat_to_act(game: &Game) -> Seat {
    if game.phase == Phase::Discard
        && let Some(i) = game.discards.iter().position(|&d| d > 0)
    {
        return Seat(i as u8);
    }
    game.active
}

/// A random discard of exactly the owed number of cards.
fn random_discard<R: Rng>(game: &Game, seat: Seat, rng: &mut R) -> Action {
    let mut hand = game.players[seat.index()].hand;
    let mut cards = ResourceSet::EMPTY;
    for _ in 0..game.discards[seat.index()] {
        let k = rng.random_range(0..hand.total().max(1));
        if let Some(r) = hand.nth_card(k) {
            *hand.get_mut(r) -= 1;
            *cards.get_mut(r) += 1;
        }
    }
    Action::Discard { cards }
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
