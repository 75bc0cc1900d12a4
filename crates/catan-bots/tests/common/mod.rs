//! Shared helpers for the bot tests: games driven to a chosen moment.

#![allow(dead_code, clippy::unwrap_used)]

use catan_bots::{Bot, BotKind, make_bot};
use catan_core::playout::seat_to_act;
use catan_core::{BoardMode, Game, GameOptions, Phase, Viewer};

/// Options for a 4-player game on `board`.
pub fn options(board: BoardMode) -> GameOptions {
    GameOptions {
        board,
        ..GameOptions::default()
    }
}

/// A game of `seed` played by heuristic bots until the first action phase.
pub fn to_first_action(seed: u64) -> Game {
    let (mut g, _) = Game::new(options(BoardMode::Random), seed).unwrap();
    let mut bots: Vec<Box<dyn Bot>> = (0..4).map(|s| make_bot(BotKind::Normal, s)).collect();
    while g.phase() != Phase::Action {
        let seat = seat_to_act(&g);
        let legal = g.legal_actions(seat);
        let a = bots[seat.index()]
            .choose(&g.view(Viewer::Seat(seat)), &legal)
            .unwrap();
        g.apply(seat, a).unwrap();
    }
    g
}
