//! The `hard` bot: determinized Monte-Carlo search over the engine.
//!
//! For a decision with real alternatives it draws games consistent with its
//! own view ([`crate::determinize`]), and in each one tries every candidate
//! action followed by a playout in which every seat plays the `normal`
//! (heuristic) policy, to the end of the game or a horizon where a value
//! estimate from the points takes over. All candidates are tried on the same
//! drawn game with the same dice (common random numbers), so their
//! differences are measured rather than drowned in luck. The candidate with
//! the best mean result is played.
//!
//! It stops at its think budget (wall time) or its playout cap, whichever
//! comes first; with no wall-time limit it is fully determined by its seed
//! and the view (the tests rely on that). Decisions with one sensible answer
//! (a lone legal action, a forced roll) take no search at all.

use crate::arena::owes_answer;
use crate::determinize::sample_game;
use crate::{Bot, HeuristicBot};
use catan_core::playout::seat_to_act;
use catan_core::{Action, Game, Phase, PhaseName, Seat, View, Viewer};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// How much the search may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Wall-time budget per decision (`None`: only the playout cap counts).
    pub budget: Option<Duration>,
    /// Most playouts per decision (over all candidates).
    pub max_playouts: u32,
    /// Turns a playout runs before the points decide its value.
    pub horizon_turns: u32,
    /// Most candidate actions compared in one decision.
    pub max_candidates: usize,
}

impl Default for SearchConfig {
    /// The server's default: at most 0.8 s and 1,200 playouts a decision.
    fn default() -> Self {
        SearchConfig {
            budget: Some(Duration::from_millis(800)),
            max_playouts: 1200,
            horizon_turns: 24,
            max_candidates: 20,
        }
    }
}

/// The search bot (see the module docs).
pub struct SearchBot {
    rng: ChaCha8Rng,
    config: SearchConfig,
    /// Proposes the heuristic's move (a candidate, and the answer when
    /// searching is pointless).
    guide: HeuristicBot,
    /// Playout policies, one per seat, reused between playouts.
    policies: Vec<HeuristicBot>,
    /// Player offers made in the current turn (at most [`OFFERS_PER_TURN`]).
    offers: (u32, u32),
}

/// Player offers the bot makes in one turn at most.
pub const OFFERS_PER_TURN: u32 = 2;

impl SearchBot {
    /// A search bot with its own seed and budget.
    pub fn new(seed: u64, config: SearchConfig) -> SearchBot {
        SearchBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            config,
            guide: HeuristicBot::new(seed ^ 0x5eed),
            policies: (0..4).map(|i| HeuristicBot::new(seed ^ i)).collect(),
            offers: (0, 0),
        }
    }

    /// The actions worth comparing: the guide's choice first, then the other
    /// distinct legal actions, thinned at random beyond the cap.
    fn candidates(&mut self, view: &View, legal: &[Action], guide: Option<Action>) -> Vec<Action> {
        let mut out: Vec<Action> = Vec::new();
        if let Some(g) = guide {
            out.push(g.normalized());
        }
        let mut rest: Vec<Action> = legal
            .iter()
            .map(|a| a.normalized())
            .filter(|a| !out.contains(a))
            .collect();
        rest.dedup();
        rest.shuffle(&mut self.rng);
        // Big families (discards, road pairs) get a few representatives.
        let family_cap = if view.phase == PhaseName::Discard {
            6
        } else {
            4
        };
        let mut road_pairs = 0;
        for a in rest {
            if out.len() >= self.config.max_candidates {
                break;
            }
            let big = matches!(a, Action::PlayRoadBuilding { .. } | Action::Discard { .. });
            if big {
                road_pairs += 1;
                if road_pairs > family_cap {
                    continue;
                }
            }
            if !out.contains(&a) {
                out.push(a);
            }
        }
        out
    }

    /// Picks among `cands` (the guide's choice first) by playouts: every
    /// drawn game is played on after each live candidate, and a candidate is
    /// dropped once it is clearly worse than the best. The guide's choice
    /// stands unless another beats it by a clear margin in paired
    /// comparisons (the winner's curse of many noisy candidates otherwise
    /// makes search worse than its guide).
    fn pick(&mut self, view: &View, me: Seat, cands: &[Action]) -> usize {
        let start = Instant::now();
        let k = cands.len();
        // Per candidate: sum and sum of squares of its difference to the guide.
        let mut diff = vec![(0.0f64, 0.0f64); k];
        let mut live = vec![true; k];
        let mut rounds = 0u32;
        let mut playouts = 0u32;
        loop {
            let n_live = live.iter().filter(|&&l| l).count() as u32;
            if n_live <= 1 || playouts + n_live > self.config.max_playouts {
                break;
            }
            if rounds > 0 && self.config.budget.is_some_and(|b| start.elapsed() >= b) {
                break;
            }
            let Ok(base) = sample_game(view, &mut self.rng) else {
                break;
            };
            let mut values = vec![0.0f64; k];
            let mut cut = false;
            for i in (0..k).filter(|&i| live[i]) {
                // The budget is checked before every playout: one that runs
                // out mid-round drops the round (its comparisons would be
                // unpaired), so a decision overruns by one playout at most.
                if rounds > 0 && self.config.budget.is_some_and(|b| start.elapsed() >= b) {
                    cut = true;
                    break;
                }
                let mut g = base.clone();
                values[i] = if g.apply(me, cands[i]).is_ok() {
                    self.playout(&mut g, me)
                } else {
                    // Refused in this sample (a trade the drawn hands cannot
                    // pay): worth nothing here.
                    0.0
                };
            }
            if cut {
                break;
            }
            playouts += n_live;
            rounds += 1;
            for i in (1..k).filter(|&i| live[i]) {
                let d = values[i] - values[0];
                diff[i].0 += d;
                diff[i].1 += d * d;
            }
            if rounds >= 6 && rounds.is_multiple_of(3) {
                let stats: Vec<(f64, f64)> = diff.iter().map(|&d| mean_se(d, rounds)).collect();
                let best = (0..k)
                    .filter(|&i| live[i])
                    .max_by(|&a, &b| stats[a].0.total_cmp(&stats[b].0))
                    .unwrap_or(0);
                for i in 1..k {
                    // Clearly below the guide, and below the best so far.
                    if live[i] && stats[i].0 + 2.0 * stats[i].1 < 0.0 && stats[i].0 < stats[best].0
                    {
                        live[i] = false;
                    }
                }
            }
        }
        let mut best = 0;
        let mut best_mean = 0.0;
        for i in (1..k).filter(|&i| live[i]) {
            let (m, se) = mean_se(diff[i], rounds);
            if m > best_mean && m > 2.0 * se && m > 0.01 {
                best = i;
                best_mean = m;
            }
        }
        best
    }

    /// Plays `game` on with the heuristic policy for every seat; the value
    /// for `me`: 1 for a win, 0 for a loss, a points-based estimate at the
    /// horizon.
    fn playout(&mut self, game: &mut Game, me: Seat) -> f64 {
        let end = game.turn + self.config.horizon_turns;
        let mut legal = Vec::new();
        let mut steps = 0u32;
        while game.phase != Phase::Finished && game.turn < end && steps < 4000 {
            steps += 1;
            let seat = owes_answer(game).unwrap_or_else(|| seat_to_act(game));
            game.legal_actions_into(seat, &mut legal);
            if legal.is_empty() {
                break;
            }
            let view = game.view(Viewer::Seat(seat));
            let choice = self.policies[seat.index() % 4].choose(&view, &legal);
            let ok = choice.is_some_and(|a| game.apply(seat, a).is_ok());
            if !ok {
                let a = legal[self.rng.random_range(0..legal.len())];
                if game.apply(seat, a).is_err() {
                    break;
                }
            }
        }
        value(game, me)
    }
}

/// Mean and standard error of a difference from its sum and sum of squares.
fn mean_se((sum, sq): (f64, f64), n: u32) -> (f64, f64) {
    if n < 2 {
        return (0.0, f64::INFINITY);
    }
    let n = n as f64;
    let mean = sum / n;
    let var = ((sq - sum * sum / n) / (n - 1.0)).max(0.0);
    (mean, (var / n).sqrt())
}

/// A game's worth to `me`: the result if it is over, else a share of the
/// win chance by points (a softmax with one point worth a factor of e).
pub fn value(game: &Game, me: Seat) -> f64 {
    if let Some(w) = game.winner {
        return if w == me { 1.0 } else { 0.0 };
    }
    let n = game.n_players();
    let pts: Vec<f64> = (0..n)
        .map(|s| game.victory_points(Seat(s as u8)) as f64)
        .collect();
    let top = pts.iter().cloned().fold(f64::MIN, f64::max);
    let exp: Vec<f64> = pts.iter().map(|p| (p - top).exp()).collect();
    exp[me.index()] / exp.iter().sum::<f64>()
}

impl Bot for SearchBot {
    fn thinks_long(&self) -> bool {
        true
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Option<Action> {
        if legal.is_empty() {
            return None;
        }
        let Viewer::Seat(me) = view.viewer else {
            return self.guide.choose(view, legal);
        };
        if self.offers.0 != view.turn {
            self.offers = (view.turn, 0);
        }
        let mut guide = self.guide.choose(view, legal);
        if matches!(guide, Some(Action::OfferTrade { .. })) && self.offers.1 >= OFFERS_PER_TURN {
            guide = None;
        }
        let cands = self.candidates(view, legal, guide);
        let choice = if cands.len() <= 1 {
            cands.first().copied()
        } else {
            Some(cands[self.pick(view, me, &cands)])
        };
        if matches!(choice, Some(Action::OfferTrade { .. })) {
            self.offers.1 += 1;
        }
        choice.or_else(|| legal.first().copied())
    }
}
