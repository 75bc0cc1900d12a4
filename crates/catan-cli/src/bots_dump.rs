//! `catan bots --show-unfinished`: the final position of a game that ran out
//! of turns, one line per seat, so that one can see why bots stopped scoring
//! (pieces left, cards held, awards, the ceiling bound) without a replay.

use catan_bots::{point_ceiling, unwinnable};
use catan_core::geometry::bits64;
use catan_core::{DevCard, Game, Seat};

/// The lines describing `game`'s final position (game `i`, `seed`).
pub fn describe(i: u64, seed: u64, game: &Game) -> Vec<String> {
    let free = game.distance_ok_mask();
    let mut out = vec![format!(
        "game {i} (seed {seed}) unfinished at turn {} ({}): deck {} cards, bank {:?}, \
         free corners {}, longest road {:?}, largest army {:?}",
        game.turn(),
        if unwinnable(game) {
            "lost"
        } else {
            "not proved lost"
        },
        game.deck_size(),
        game.bank().0,
        bits64(free).count(),
        game.longest_road().map(|s| s.0),
        game.largest_army().map(|s| s.0),
    )];
    for (s, p) in game.players().iter().enumerate() {
        let seat = Seat(s as u8);
        out.push(format!(
            "  seat {s}: {} points (ceiling {}), pieces left r{} s{} c{}, hand {:?}, \
             cards {:?} (vp {}), knights {}, trail {}",
            game.victory_points(seat),
            point_ceiling(game, seat),
            p.roads_left,
            p.settlements_left,
            p.cities_left,
            p.hand.0,
            p.dev.0,
            p.dev.get(DevCard::VictoryPoint),
            p.knights(),
            p.trail,
        ));
    }
    out
}
