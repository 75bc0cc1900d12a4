//! What a playout that stopped at its horizon is worth to the searcher.
//!
//! Both estimates turn per-seat scores into a share of the win chance with a
//! softmax (one score point worth a factor of e). [`Eval::Points`] scores by
//! victory points alone; [`Eval::Position`] adds what the points do not show
//! yet: production (expected cards a roll, the robber's hex left out),
//! cards in hand and unplayed development cards, so that a playout which
//! ends just before a build still tells a strong position from a weak one.

use crate::board_eval::pips;
use catan_core::geometry::{NONE, geo};
use catan_core::{Game, Seat};

/// How a playout is valued at its horizon.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Eval {
    /// Victory points only.
    Points,
    /// Points, production, hand and development cards (the default).
    #[default]
    Position,
}

impl std::str::FromStr for Eval {
    type Err = String;

    fn from_str(s: &str) -> Result<Eval, String> {
        match s {
            "points" => Ok(Eval::Points),
            "position" => Ok(Eval::Position),
            _ => Err(format!("unknown evaluation {s:?} (points, position)")),
        }
    }
}

/// Score points one expected card a roll is worth: over the turns a game
/// has left, a steady card a roll buys about a settlement and a half.
const PER_CARD_A_ROLL: f64 = 2.5;
/// Score points per card in hand (up to seven: more risk a 7).
const PER_CARD: f64 = 0.1;
/// Score points per unplayed development card.
const PER_DEV_CARD: f64 = 0.25;

/// Expected resource cards `seat` receives a roll (any player's roll).
pub fn cards_a_roll(game: &Game, seat: Seat) -> f64 {
    let p = &game.players[seat.index()];
    let g = geo();
    let mut pips_sum = 0u32;
    for v in 0..54u8 {
        let bit = 1u64 << v;
        let mult = if p.cities & bit != 0 {
            2
        } else if p.settlements & bit != 0 {
            1
        } else {
            continue;
        };
        for &h in &g.vertex_hexes[v as usize] {
            if h == NONE || h == game.robber.0 {
                continue;
            }
            pips_sum += mult * pips(game.board.hexes[h as usize].number) as u32;
        }
    }
    pips_sum as f64 / 36.0
}

/// A seat's score under `eval`.
fn score(game: &Game, seat: Seat, eval: Eval) -> f64 {
    let vp = game.victory_points(seat) as f64;
    match eval {
        Eval::Points => vp,
        Eval::Position => {
            let p = &game.players[seat.index()];
            vp + PER_CARD_A_ROLL * cards_a_roll(game, seat)
                + PER_CARD * p.hand.total().min(7) as f64
                + PER_DEV_CARD * p.dev.0.iter().map(|&c| c as f64).sum::<f64>()
        }
    }
}

/// A game's worth to `me`: the result if it is over, else `me`'s share of a
/// softmax over the seats' scores.
pub fn value(game: &Game, me: Seat, eval: Eval) -> f64 {
    if let Some(w) = game.winner {
        return if w == me { 1.0 } else { 0.0 };
    }
    let scores: Vec<f64> = (0..game.n_players())
        .map(|s| score(game, Seat(s as u8), eval))
        .collect();
    let top = scores.iter().cloned().fold(f64::MIN, f64::max);
    let exp: Vec<f64> = scores.iter().map(|p| (p - top).exp()).collect();
    exp[me.index()] / exp.iter().sum::<f64>()
}

#[cfg(test)]
mod tests {
    // Tests may unwrap: a panic is the failure report.
    #![allow(clippy::unwrap_used)]

    use super::*;
    use catan_core::GameOptions;
    use catan_core::playout::Playout;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn production_counts_for_the_position_value_only() {
        let (mut g, _) = Game::new(GameOptions::default(), 4).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        Playout::new().run(&mut g, &mut rng, 1, |_, _, _, _| {});
        // Just after the opening the points are level; the seat producing
        // most is worth more by position than by points.
        assert!((0..4).all(|s| g.victory_points(Seat(s)) == 2));
        let best = (0..4)
            .map(|s| Seat(s as u8))
            .max_by(|a, b| cards_a_roll(&g, *a).total_cmp(&cards_a_roll(&g, *b)))
            .unwrap();
        assert!(cards_a_roll(&g, best) > 0.0);
        let by_points = value(&g, best, Eval::Points);
        let by_position = value(&g, best, Eval::Position);
        assert!(by_position > by_points, "{by_position} <= {by_points}");
    }
}
