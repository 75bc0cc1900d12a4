//! Drives a game between bots: the loop shared by the tests and `catan bots`.
//!
//! Each step asks one seat: first any seat that still owes an answer to an
//! open offer made to it, else the seat the rules wait for
//! ([`seat_to_act`]). A refused or missing answer is replaced by a random
//! legal action and counted, so a faulty bot cannot stall the game.

use crate::Bot;
use catan_core::playout::seat_to_act;
use catan_core::{Action, Game, GameOptions, Phase, Seat, SetupError, Viewer};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Actions one turn may take before the game is called off (a bot looping on
/// offers, say).
const ACTIONS_PER_TURN: u32 = 2_000;

/// How one game between bots ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArenaResult {
    /// The winner, if the game finished.
    pub winner: Option<Seat>,
    /// The game's turn counter at the end.
    pub turns: u32,
    /// Actions applied.
    pub actions: u64,
    /// Decisions asked of each seat.
    pub decisions: Vec<u64>,
    /// Per seat: answers that were refused or missing and replaced by a
    /// random legal action.
    pub fallbacks: Vec<u64>,
}

impl ArenaResult {
    /// Whether someone won before the cap.
    pub fn finished(&self) -> bool {
        self.winner.is_some()
    }
}

/// Plays one game of `options` with `seed`, seat `i` played by `bots[i]`,
/// until someone wins or the turn counter passes `max_turns`.
pub fn arena(
    options: GameOptions,
    seed: u64,
    bots: &mut [Box<dyn Bot>],
    max_turns: u32,
) -> Result<ArenaResult, SetupError> {
    arena_game(options, seed, bots, max_turns).map(|(r, _)| r)
}

/// Like [`arena`], also returning the game as it ended.
pub fn arena_game(
    options: GameOptions,
    seed: u64,
    bots: &mut [Box<dyn Bot>],
    max_turns: u32,
) -> Result<(ArenaResult, Game), SetupError> {
    let (mut game, _) = Game::new(options, seed)?;
    let n = game.n_players();
    let mut res = ArenaResult {
        decisions: vec![0; n],
        fallbacks: vec![0; n],
        ..ArenaResult::default()
    };
    if bots.len() < n {
        return Ok((res, game));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xa4e4_a4e4_a4e4);
    let mut legal = Vec::new();
    let (mut turn, mut in_turn) = (game.turn(), 0u32);
    while game.phase() != Phase::Finished && game.turn() <= max_turns {
        if game.turn() != turn {
            (turn, in_turn) = (game.turn(), 0);
        }
        in_turn += 1;
        if in_turn > ACTIONS_PER_TURN {
            break;
        }
        let seat = owes_answer(&game).unwrap_or_else(|| seat_to_act(&game));
        game.legal_actions_into(seat, &mut legal);
        if legal.is_empty() {
            break;
        }
        let view = game.view(Viewer::Seat(seat));
        res.decisions[seat.index()] += 1;
        let choice = bots[seat.index()].choose(&view, &legal);
        let applied = match choice {
            Some(a) => game.apply(seat, a).is_ok(),
            None => false,
        };
        if !applied {
            res.fallbacks[seat.index()] += 1;
            let a: Action = legal[rng.random_range(0..legal.len())];
            if game.apply(seat, a).is_err() {
                break;
            }
        }
        res.actions += 1;
    }
    res.winner = game.winner();
    res.turns = game.turn();
    Ok((res, game))
}

/// A seat other than the active one that has not yet answered an open
/// (non-counter) offer made to it.
pub(crate) fn owes_answer(game: &Game) -> Option<Seat> {
    if game.phase() != Phase::Action {
        return None;
    }
    game.offers().iter().filter(|o| !o.counter).find_map(|o| {
        o.to.iter().find(|&s| {
            s != game.active()
                && s.index() < game.n_players()
                && !o.accepted.contains(s)
                && !o.declined.contains(s)
        })
    })
}
