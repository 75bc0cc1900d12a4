//! What a playout that stopped at its horizon is worth to the searcher.
//!
//! Both estimates turn per-seat scores into a share of the win chance with a
//! softmax (one score point worth a factor of e). [`Eval::Points`] scores by
//! victory points alone; [`Eval::Position`] adds what the points do not show
//! yet: production (expected cards a roll, the robber's hex left out),
//! cards in hand and unplayed development cards, so that a playout which
//! ends just before a build still tells a strong position from a weak one.
//! [`Eval::Fitted`] scores by [`features`] with weights fitted to the
//! winners of self-play games of `normal` bots ([`crate::fit`], `catan
//! fit-eval`), instead of weights set by hand.

use crate::board_eval::pips;
use catan_core::geometry::{NONE, geo};
use catan_core::{DevCard, Game, Seat};

/// How a playout is valued at its horizon.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Eval {
    /// Victory points only.
    Points,
    /// Points, production, hand and development cards (the default).
    #[default]
    Position,
    /// [`features`] weighed by [`FITTED`].
    Fitted,
}

impl Eval {
    /// Every evaluation, in the order the flag's help lists them.
    pub const ALL: [Eval; 3] = [Eval::Points, Eval::Position, Eval::Fitted];

    /// The name a command-line flag gives this evaluation.
    pub fn name(self) -> &'static str {
        match self {
            Eval::Points => "points",
            Eval::Position => "position",
            Eval::Fitted => "fitted",
        }
    }
}

impl std::fmt::Display for Eval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Eval {
    type Err = String;

    fn from_str(s: &str) -> Result<Eval, String> {
        Eval::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| format!("unknown evaluation {s:?} (points, position, fitted)"))
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
    let p = game.player(seat);
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
            if h == NONE || h == game.robber().0 {
                continue;
            }
            pips_sum += mult * pips(game.board().hexes[h as usize].number) as u32;
        }
    }
    pips_sum as f64 / 36.0
}

/// Number of [`features`].
pub const N_FEATURES: usize = 9;

/// Names of the [`features`], in order (for the fitting tool's output).
pub const FEATURE_NAMES: [&str; N_FEATURES] = [
    "victory points",
    "expected cards a roll",
    "cards in hand up to 7",
    "cards in hand over 7",
    "unplayed development cards other than points",
    "knights played",
    "longest trail",
    "resource types produced",
    "harbours",
];

/// Weights of [`features`] for [`Eval::Fitted`], fitted by
/// `catan fit-eval --games 4000 --seed 1000000` (a conditional logit on
/// who won, over every turn's position of 4,000 games of four `normal`
/// bots; see docs/BOTS.md).
pub const FITTED: [f64; N_FEATURES] = [
    0.5279,  // victory points
    1.7551,  // expected cards a roll
    0.0948,  // cards in hand up to 7
    0.0967,  // cards in hand over 7
    0.2570,  // unplayed development cards other than points
    0.0807,  // knights played
    -0.0366, // longest trail
    0.5557,  // resource types produced
    0.2095,  // harbours
];

/// What a seat's position has that may win it the game; [`Eval::Fitted`]
/// weighs these.
pub fn features(game: &Game, seat: Seat) -> [f64; N_FEATURES] {
    let p = game.player(seat);
    let g = geo();
    let mut types = 0u8;
    for v in 0..54u8 {
        if (p.settlements | p.cities) & (1u64 << v) == 0 {
            continue;
        }
        for &h in &g.vertex_hexes[v as usize] {
            if h == NONE {
                continue;
            }
            let hex = &game.board().hexes[h as usize];
            if let (Some(r), Some(_)) = (hex.terrain.resource(), hex.number) {
                types |= 1 << (r as u8);
            }
        }
    }
    let hand = p.hand.total() as f64;
    let vp_cards = p.dev.get(DevCard::VictoryPoint) as f64;
    [
        game.victory_points(seat) as f64,
        cards_a_roll(game, seat),
        hand.min(7.0),
        (hand - 7.0).max(0.0),
        p.dev.total() as f64 - vp_cards,
        p.played.get(DevCard::Knight) as f64,
        p.trail as f64,
        types.count_ones() as f64,
        p.harbours.count_ones() as f64,
    ]
}

/// A seat's score under `eval`.
fn score(game: &Game, seat: Seat, eval: Eval) -> f64 {
    let vp = game.victory_points(seat) as f64;
    match eval {
        Eval::Points => vp,
        Eval::Position => {
            let p = game.player(seat);
            vp + PER_CARD_A_ROLL * cards_a_roll(game, seat)
                + PER_CARD * p.hand.total().min(7) as f64
                + PER_DEV_CARD * p.dev.0.iter().map(|&c| c as f64).sum::<f64>()
        }
        Eval::Fitted => features(game, seat)
            .iter()
            .zip(FITTED)
            .map(|(f, w)| f * w)
            .sum(),
    }
}

/// A game's worth to `me`: the result if it is over, else `me`'s share of a
/// softmax over the seats' scores.
pub fn value(game: &Game, me: Seat, eval: Eval) -> f64 {
    if let Some(w) = game.winner() {
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
