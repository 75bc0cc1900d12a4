//! Fitting [`crate::eval::FITTED`]: who wins from a position, learnt from
//! self-play games of `normal` bots.
//!
//! [`self_play`] records every seat's [`features`] at the start of each
//! turn of games between four `normal` bots, labelled with the winner;
//! [`fit`] finds the weights of a conditional logit (a seat's chance to win
//! is the softmax of `weights · features` over the seats, the same form
//! [`crate::eval::value`] uses) by Newton's method on the log-likelihood.
//! `catan fit-eval` runs both and prints the weights to check in.

use crate::arena::owes_answer;
use crate::eval::{Eval, N_FEATURES, features};
use crate::{Bot, HeuristicBot};
use catan_core::playout::seat_to_act;
use catan_core::{Game, GameOptions, Phase, Seat, Viewer};

/// Every seat's features at one turn's start, and who won that game.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Features per seat.
    pub seats: Vec<[f64; N_FEATURES]>,
    /// The winner's seat index.
    pub winner: usize,
    /// The hand-set position value's share for each seat (to compare with).
    pub position: Vec<f64>,
}

/// Plays `games` games of four `normal` bots (seeds `seed`, `seed + 1`, ...)
/// and returns one sample per turn after the opening of every finished game.
pub fn self_play(games: u64, seed: u64) -> Vec<Sample> {
    let mut out = Vec::new();
    for i in 0..games {
        let s = seed + i;
        let Ok((mut game, _)) = Game::new(GameOptions::default(), s) else {
            continue;
        };
        let n = game.n_players();
        let mut bots: Vec<HeuristicBot> = (0..n as u64).map(|k| HeuristicBot::new(s ^ k)).collect();
        let mut legal = Vec::new();
        let mut turn = game.turn();
        let mut rows: Vec<(Vec<[f64; N_FEATURES]>, Vec<f64>)> = Vec::new();
        let mut steps = 0u32;
        while game.phase() != Phase::Finished && game.turn() <= 1000 && steps < 400_000 {
            steps += 1;
            if game.turn() != turn && game.phase() == Phase::PreRoll {
                turn = game.turn();
                let seats = (0..n).map(|k| features(&game, Seat(k as u8))).collect();
                let position = (0..n)
                    .map(|k| crate::eval::value(&game, Seat(k as u8), Eval::Position))
                    .collect();
                rows.push((seats, position));
            }
            let seat = owes_answer(&game).unwrap_or_else(|| seat_to_act(&game));
            game.legal_actions_into(seat, &mut legal);
            let Some(&first) = legal.first() else {
                break;
            };
            let view = game.view(Viewer::Seat(seat));
            let choice = bots[seat.index()].choose(&view, &legal);
            if choice.is_none_or(|a| game.apply(seat, a).is_err())
                && game.apply(seat, first).is_err()
            {
                break;
            }
        }
        if let Some(w) = game.winner() {
            out.extend(rows.into_iter().map(|(seats, position)| Sample {
                seats,
                winner: w.index(),
                position,
            }));
        }
    }
    out
}

/// Each seat's chance to win under `weights` (a softmax of the scores).
pub fn shares(weights: &[f64; N_FEATURES], seats: &[[f64; N_FEATURES]]) -> Vec<f64> {
    let scores: Vec<f64> = seats
        .iter()
        .map(|f| f.iter().zip(weights).map(|(x, w)| x * w).sum())
        .collect();
    let top = scores.iter().cloned().fold(f64::MIN, f64::max);
    let exp: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
    let sum: f64 = exp.iter().sum();
    exp.into_iter().map(|e| e / sum).collect()
}

/// Mean log-likelihood of the winners under `weights`.
pub fn log_likelihood(weights: &[f64; N_FEATURES], samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| shares(weights, &s.seats)[s.winner].max(1e-12).ln())
        .sum();
    total / samples.len().max(1) as f64
}

/// Mean log-likelihood of the winners under the hand-set position value.
pub fn position_log_likelihood(samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| s.position[s.winner].max(1e-12).ln())
        .sum();
    total / samples.len().max(1) as f64
}

/// The maximum-likelihood weights (a small ridge keeps Newton's steps
/// defined when a feature hardly varies), after `iterations` steps.
// Index loops read as the matrix algebra they do.
#[allow(clippy::needless_range_loop)]
pub fn fit(samples: &[Sample], iterations: u32) -> [f64; N_FEATURES] {
    const RIDGE: f64 = 1e-3;
    let mut w = [0.0f64; N_FEATURES];
    for _ in 0..iterations {
        let mut grad = [0.0f64; N_FEATURES];
        let mut hess = [[0.0f64; N_FEATURES]; N_FEATURES];
        for s in samples {
            let p = shares(&w, &s.seats);
            let mut mean = [0.0f64; N_FEATURES];
            for (f, &pk) in s.seats.iter().zip(&p) {
                for j in 0..N_FEATURES {
                    mean[j] += pk * f[j];
                }
            }
            for j in 0..N_FEATURES {
                grad[j] += s.seats[s.winner][j] - mean[j];
            }
            for (f, &pk) in s.seats.iter().zip(&p) {
                for a in 0..N_FEATURES {
                    for b in 0..N_FEATURES {
                        hess[a][b] += pk * (f[a] - mean[a]) * (f[b] - mean[b]);
                    }
                }
            }
        }
        let n = samples.len().max(1) as f64;
        for j in 0..N_FEATURES {
            grad[j] = grad[j] / n - RIDGE * w[j];
            for k in 0..N_FEATURES {
                hess[j][k] /= n;
            }
            hess[j][j] += RIDGE;
        }
        let Some(step) = solve(hess, grad) else {
            break;
        };
        for j in 0..N_FEATURES {
            w[j] += step[j];
        }
    }
    w
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
#[allow(clippy::needless_range_loop)]
fn solve(
    mut a: [[f64; N_FEATURES]; N_FEATURES],
    mut b: [f64; N_FEATURES],
) -> Option<[f64; N_FEATURES]> {
    let n = N_FEATURES;
    for c in 0..n {
        let piv = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[piv][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, piv);
        b.swap(c, piv);
        for r in c + 1..n {
            let f = a[r][c] / a[c][c];
            for k in c..n {
                a[r][k] -= f * a[c][k];
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = [0.0f64; N_FEATURES];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    // Tests may unwrap: a panic is the failure report.
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_fit_finds_that_the_points_leader_wins() {
        // Synthetic: the seat with more of feature 0 wins; the others are
        // noise. The fitted weight of feature 0 must be the largest and
        // the likelihood better than the uniform 1/4.
        let mut samples = Vec::new();
        for i in 0..400u64 {
            let seats: Vec<[f64; N_FEATURES]> = (0..4u64)
                .map(|k| {
                    let mut f = [0.0; N_FEATURES];
                    f[0] = ((i * 7 + k * 13) % 10) as f64;
                    f[1] = ((i * 3 + k * 5) % 4) as f64;
                    f
                })
                .collect();
            let winner = (0..4)
                .max_by(|&a, &b| seats[a][0].total_cmp(&seats[b][0]))
                .unwrap();
            samples.push(Sample {
                seats,
                winner,
                position: vec![0.25; 4],
            });
        }
        let w = fit(&samples, 20);
        assert!(w[0] > 0.5 && w[0] > w[1].abs(), "{w:?}");
        assert!(log_likelihood(&w, &samples) > position_log_likelihood(&samples));
    }

    #[test]
    fn self_play_labels_every_turn_with_the_winner() {
        let samples = self_play(2, 77);
        assert!(samples.len() > 20);
        assert!(samples.iter().all(|s| s.seats.len() == 4 && s.winner < 4));
    }
}
