//! The `hard` bot: determinized Monte-Carlo search over the engine.
//!
//! For a decision with real alternatives it draws games consistent with its
//! own view ([`crate::determinize`]), and in each one tries every candidate
//! action followed by a playout in which every seat plays the `normal`
//! (heuristic) policy, to the end of the game or a horizon where a value
//! estimate of the position takes over ([`crate::eval`]). All candidates are tried on the same
//! drawn game with the same dice (common random numbers), so their
//! differences are measured rather than drowned in luck. The candidate with
//! the best mean result is played.
//!
//! It stops at its think budget (wall time) or its playout cap, whichever
//! comes first; with no wall-time limit it is fully determined by its seed
//! and the view (the tests rely on that). The deadline ([`crate::deadline`])
//! is a margin short of the budget and is checked before every playout and
//! every few steps inside one; a round cut short is dropped (its
//! comparisons would be unpaired), and with fewer than [`MIN_ROUNDS`]
//! complete rounds the `normal` move is played. Decisions with one sensible
//! answer (a lone legal action, a forced roll) take no search at all.

use crate::arena::owes_answer;
use crate::deadline::{Clock, WallClock, stop_at};
use crate::determinize::sample_game;
use crate::eval::Eval;
use crate::{Bot, HeuristicBot};
use catan_core::playout::seat_to_act;
use catan_core::{Action, Game, Phase, PhaseName, Seat, View, Viewer};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// The server's wall-time budget per decision, in milliseconds (its
/// `--bot-think-ms` default and [`SearchConfig::default`]'s): a second, the
/// most the issue allows. On a slow host 800 ms cut the longest opening
/// searches and changed 32 of 200 games against the search without a
/// budget, a second 11 (docs/BOTS.md, "A ninth round").
pub const SERVER_BUDGET_MS: u64 = 1000;

/// How much the search may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Wall-time budget per decision (`None`: only the playout cap counts).
    pub budget: Option<Duration>,
    /// Most playouts per decision (over all candidates).
    pub max_playouts: u32,
    /// Turns a playout runs before its position is valued.
    pub horizon_turns: u32,
    /// Most candidate actions compared in one decision.
    pub max_candidates: usize,
    /// How a playout stopped at the horizon is valued.
    pub eval: Eval,
    /// Standard errors by which another candidate must beat the guide's
    /// move (paired) to be played instead. With many candidates one of them
    /// beats a low bar by luck alone, so more candidates want a higher one.
    pub margin_z: f64,
    /// Take candidates in the heuristic's own order where it ranks the
    /// alternatives ([`crate::heuristic::rank`]), instead of at random.
    pub ranked: bool,
    /// Share of playout decisions (with alternatives) played at random, so
    /// that playouts measure more than the `normal` policy's own taste.
    pub epsilon: f64,
    /// Factor on `max_playouts` for the decisions that shape a game most:
    /// opening placements and robber moves (knights included).
    pub key_boost: u32,
    /// Search only those decisions (opening placements and robber moves);
    /// every other decision is the guide's move.
    pub key_only: bool,
    /// Turns a playout of an opening placement runs before its position is
    /// valued (0: `horizon_turns`). From the opening a short horizon values
    /// little beyond the spots' production, since nothing is built yet.
    pub opening_horizon: u32,
    /// Most candidates compared in an opening placement (0:
    /// `max_candidates`).
    pub opening_candidates: usize,
    /// Factor on `max_playouts` for opening placements (0: `key_boost`), so
    /// that longer opening playouts can be fewer and fit the same budget.
    pub opening_boost: u32,
    /// Turns a playout of a robber move (a knight's included) runs before
    /// its position is valued (0: `horizon_turns`).
    pub robber_horizon: u32,
    /// Standard errors by which a candidate must beat the guide's move in
    /// an opening placement (0: `margin_z`). Opening playouts run most of
    /// a game, so their differences are less biased than those of short
    /// playouts and may warrant a different bar.
    pub opening_margin_z: f64,
    /// Search every decision, not only the key ones, once some player's
    /// visible points are within this many of the target (0: never): near
    /// the end a single build or trade can decide the game.
    pub endgame_gap: u8,
    /// Turns a playout runs near the end ([`SearchConfig::endgame_gap`]),
    /// robber moves included (0: as elsewhere). Long enough, most
    /// playouts end the game, so they measure wins rather than a guess.
    pub endgame_horizon: u32,
    /// Factor on `max_playouts` near the end
    /// ([`SearchConfig::endgame_gap`]) for the decisions that are neither
    /// opening placements nor robber moves (0 or 1: none).
    /// Few decisions come so late and their playouts are short, so more
    /// of them cost little time, and more rounds let a better move than
    /// the guide's clear the bar.
    pub endgame_boost: u32,
}

impl Default for SearchConfig {
    /// The server's default: opening placements and robber moves
    /// (knights included) are searched, with at most 1 s a decision,
    /// and so is every decision once some player is within 2 points of
    /// the target, where 8-turn playouts mostly reach the end ("An eighth
    /// round"); every other decision is the `normal` move, since searching
    /// those added nothing measurable (docs/BOTS.md, "A fifth round";
    /// within 4 points of the target it lost games again). Robber
    /// moves get 2,400 playouts (200 times 12) of 8 turns; opening
    /// placements 1,200 (200 times 6) of 60 turns, most of a game, as
    /// longer opening playouts won more games ("A sixth round", "A
    /// seventh round"; the playouts got fast enough for that to fit). 8
    /// candidates in the heuristic's own order, playouts valued by
    /// position, a 3-standard-error bar (the best of the variants measured
    /// in docs/BOTS.md).
    fn default() -> Self {
        SearchConfig {
            budget: Some(Duration::from_millis(SERVER_BUDGET_MS)),
            max_playouts: 200,
            horizon_turns: 8,
            max_candidates: 8,
            eval: Eval::Position,
            margin_z: 3.0,
            ranked: true,
            epsilon: 0.0,
            key_boost: 12,
            key_only: true,
            opening_horizon: 60,
            opening_candidates: 0,
            opening_boost: 6,
            robber_horizon: 0,
            opening_margin_z: 0.0,
            endgame_gap: 2,
            endgame_horizon: 0,
            endgame_boost: 0,
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
    /// The clock the budget is kept by.
    clock: Box<dyn Clock>,
    /// When the current decision must stop searching (`None`: no budget).
    stop: Option<Duration>,
    /// What the last decision did.
    last: SearchStats,
    /// The view playouts write each step's seat view into (kept between
    /// playouts so that its lists are allocated once).
    scratch: Option<View>,
}

/// What one decision's search did (for tests and measurements).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Candidates compared (0 or 1: no search).
    pub candidates: usize,
    /// Complete rounds (one playout per live candidate on one drawn game).
    pub rounds: u32,
    /// Playouts in complete rounds.
    pub playouts: u32,
    /// Whether the deadline cut the search.
    pub cut: bool,
    /// Whether the answer is the guide's (`normal`) move.
    pub guide: bool,
}

/// Player offers the bot makes in one turn at most.
pub const OFFERS_PER_TURN: u32 = 2;

/// Complete rounds needed before the search may overrule its guide: fewer
/// paired comparisons say too little.
pub const MIN_ROUNDS: u32 = 4;

/// Playout steps between two looks at the clock.
const STEPS_PER_CHECK: u32 = 16;

impl SearchBot {
    /// A search bot with its own seed and budget.
    pub fn new(seed: u64, config: SearchConfig) -> SearchBot {
        SearchBot::with_clock(seed, config, Box::new(WallClock::default()))
    }

    /// A search bot that keeps its budget by `clock` (tests pass a clock
    /// they control).
    pub fn with_clock(seed: u64, config: SearchConfig, clock: Box<dyn Clock>) -> SearchBot {
        SearchBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            config,
            guide: HeuristicBot::new(seed ^ 0x5eed),
            policies: (0..4).map(|i| HeuristicBot::new(seed ^ i)).collect(),
            offers: (0, 0),
            clock,
            stop: None,
            last: SearchStats::default(),
            scratch: None,
        }
    }

    /// What the last decision's search did.
    pub fn last_stats(&self) -> SearchStats {
        self.last
    }

    /// Whether the current decision's deadline has passed.
    fn past_deadline(&self) -> bool {
        self.stop.is_some_and(|t| self.clock.now() >= t)
    }

    /// Most candidates compared in the decision `view` is at.
    fn max_candidates(&self, view: &View) -> usize {
        match self.config.opening_candidates {
            n if n > 0 && view.phase == PhaseName::Opening => n,
            _ => self.config.max_candidates,
        }
    }

    /// Turns a playout runs in the decision `view` is at (`robber`: one
    /// that moves the robber).
    fn horizon(&self, view: &View, robber: bool) -> u32 {
        let c = &self.config;
        match (c.opening_horizon, c.endgame_horizon, c.robber_horizon) {
            (n, _, _) if n > 0 && view.phase == PhaseName::Opening => n,
            (_, n, _) if n > 0 && self.endgame(view) => n,
            (_, _, n) if n > 0 && robber => n,
            _ => c.horizon_turns,
        }
    }

    /// Standard errors by which a candidate must beat the guide's move in
    /// the decision `view` is at.
    fn margin_z(&self, view: &View) -> f64 {
        match self.config.opening_margin_z {
            z if z > 0.0 && view.phase == PhaseName::Opening => z,
            _ => self.config.margin_z,
        }
    }

    /// Whether `view` is near enough the end for every decision to be
    /// searched ([`SearchConfig::endgame_gap`]).
    fn endgame(&self, view: &View) -> bool {
        let gap = self.config.endgame_gap;
        gap > 0
            && view
                .players
                .iter()
                .any(|p| p.visible_points.saturating_add(gap) >= view.options.vp_target)
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
        if self.config.ranked {
            // Ranked actions first, best first; the rest keep their random
            // order behind them (a stable sort).
            let scores = crate::heuristic::rank(view, &rest);
            let mut keyed: Vec<(Option<f32>, Action)> = scores.into_iter().zip(rest).collect();
            keyed.sort_by(|a, b| match (a.0, b.0) {
                (Some(x), Some(y)) => y.total_cmp(&x),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            });
            rest = keyed.into_iter().map(|(_, a)| a).collect();
        }
        // Big families (discards, road pairs) get a few representatives.
        let family_cap = if view.phase == PhaseName::Discard {
            6
        } else {
            4
        };
        let cap = self.max_candidates(view);
        let mut road_pairs = 0;
        for a in rest {
            if out.len() >= cap {
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
        let k = cands.len();
        let robber = cands
            .iter()
            .any(|a| matches!(a, Action::MoveRobber { .. } | Action::PlayKnight { .. }));
        let key = view.phase == PhaseName::Opening || robber;
        if self.config.key_only && !key && !self.endgame(view) {
            self.last = SearchStats {
                candidates: k,
                guide: true,
                ..SearchStats::default()
            };
            return 0;
        }
        let boost = match self.config.opening_boost {
            n if n > 0 && view.phase == PhaseName::Opening => n,
            _ if key => self.config.key_boost.max(1),
            _ if self.endgame(view) => self.config.endgame_boost.max(1),
            _ => 1,
        };
        let max_playouts = self.config.max_playouts.saturating_mul(boost);
        // Per candidate: sum and sum of squares of its difference to the guide.
        let horizon = self.horizon(view, robber);
        let mut diff = vec![(0.0f64, 0.0f64); k];
        let mut live = vec![true; k];
        let mut rounds = 0u32;
        let mut playouts = 0u32;
        let mut cut = false;
        'rounds: loop {
            let n_live = live.iter().filter(|&&l| l).count() as u32;
            if n_live <= 1 || playouts + n_live > max_playouts {
                break;
            }
            if self.past_deadline() {
                cut = true;
                break;
            }
            let Ok(base) = sample_game(view, &mut self.rng) else {
                break;
            };
            let mut values = vec![0.0f64; k];
            for i in (0..k).filter(|&i| live[i]) {
                if self.past_deadline() {
                    cut = true;
                    break 'rounds;
                }
                let mut g = base.clone();
                values[i] = if g.apply(me, cands[i]).is_ok() {
                    match self.playout(&mut g, me, horizon) {
                        Some(v) => v,
                        None => {
                            cut = true;
                            break 'rounds;
                        }
                    }
                } else {
                    // Refused in this sample (a trade the drawn hands cannot
                    // pay): worth nothing here.
                    0.0
                };
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
        let margin_z = self.margin_z(view);
        if rounds >= MIN_ROUNDS {
            for i in (1..k).filter(|&i| live[i]) {
                let (m, se) = mean_se(diff[i], rounds);
                if m > best_mean && m > margin_z * se && m > 0.01 {
                    best = i;
                    best_mean = m;
                }
            }
        }
        self.last = SearchStats {
            candidates: k,
            rounds,
            playouts,
            cut,
            guide: best == 0,
        };
        best
    }

    /// Plays `game` on with the heuristic policy for every seat for at most
    /// `horizon` turns; the value for `me`: 1 for a win, 0 for a loss, a
    /// points-based estimate at the horizon; `None` if the deadline passed
    /// before it ended.
    fn playout(&mut self, game: &mut Game, me: Seat, horizon: u32) -> Option<f64> {
        let end = game.turn().saturating_add(horizon);
        let mut legal = Vec::new();
        let mut steps = 0u32;
        let mut view = self
            .scratch
            .take()
            .unwrap_or_else(|| game.view(Viewer::Spectator));
        while game.phase() != Phase::Finished && game.turn() < end && steps < 4000 {
            steps += 1;
            if steps.is_multiple_of(STEPS_PER_CHECK) && self.past_deadline() {
                self.scratch = Some(view);
                return None;
            }
            let seat = owes_answer(game).unwrap_or_else(|| seat_to_act(game));
            game.legal_actions_into(seat, &mut legal);
            if legal.is_empty() {
                break;
            }
            if legal.len() == 1 && game.phase() != Phase::Action {
                // A forced step (most often the roll): outside the Action
                // phase the policy answers only with a legal action, so
                // this one, and the view it would read is not built.
                if game.apply(seat, legal[0]).is_err() {
                    break;
                }
                continue;
            }
            game.view_into(Viewer::Seat(seat), &mut view);
            if self.config.epsilon > 0.0
                && legal.len() > 1
                && self.rng.random_bool(self.config.epsilon.min(1.0))
            {
                // A slip, as the `easy` bot makes them: never accepting or
                // confirming a trade (that would hand cards away blindly).
                let slips: Vec<Action> = legal
                    .iter()
                    .copied()
                    .filter(|a| {
                        !matches!(a, Action::AcceptTrade { .. } | Action::ConfirmTrade { .. })
                    })
                    .collect();
                if let Some(&a) = slips.get(self.rng.random_range(0..slips.len().max(1)))
                    && game.apply(seat, a).is_ok()
                {
                    continue;
                }
            }
            let choice = self.policies[seat.index() % 4].choose(&view, &legal);
            let ok = choice.is_some_and(|a| game.apply(seat, a).is_ok());
            if !ok {
                let a = legal[self.rng.random_range(0..legal.len())];
                if game.apply(seat, a).is_err() {
                    break;
                }
            }
        }
        self.scratch = Some(view);
        Some(crate::eval::value(game, me, self.config.eval))
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

/// A game's worth to `me` by points (see [`crate::eval`]).
pub fn value(game: &Game, me: Seat) -> f64 {
    crate::eval::value(game, me, Eval::Points)
}

impl Bot for SearchBot {
    fn thinks_long(&self) -> bool {
        true
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Option<Action> {
        if legal.is_empty() {
            return None;
        }
        // The budget counts from here: the guide's own thinking is in it.
        self.stop = self.config.budget.map(|b| stop_at(self.clock.now(), b));
        self.last = SearchStats {
            guide: true,
            ..SearchStats::default()
        };
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

#[cfg(test)]
mod tests {
    // Tests may unwrap: a panic is the failure report.
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::deadline::{StepClock, margin};
    use catan_core::GameOptions;

    /// The first settlement of a fresh game: many real alternatives.
    fn opening(seed: u64) -> (View, Vec<Action>) {
        let (g, _) = Game::new(GameOptions::default(), seed).unwrap();
        let seat = seat_to_act(&g);
        let mut legal = Vec::new();
        g.legal_actions_into(seat, &mut legal);
        assert!(legal.len() > 20);
        (g.view(Viewer::Seat(seat)), legal)
    }

    /// A decision after the opening with several alternatives and no
    /// robber move among them, reached by seeded random play.
    fn ordinary_decision(seed: u64) -> (View, Vec<Action>) {
        ordinary_decision_to(seed, GameOptions::default().vp_target)
    }

    /// [`ordinary_decision`] in a game played to `vp_target` points.
    fn ordinary_decision_to(seed: u64, vp_target: u8) -> (View, Vec<Action>) {
        let options = GameOptions {
            vp_target,
            ..GameOptions::default()
        };
        let (mut g, _) = Game::new(options, seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut legal = Vec::new();
        for _ in 0..5000 {
            let seat = seat_to_act(&g);
            g.legal_actions_into(seat, &mut legal);
            let robber = legal
                .iter()
                .any(|a| matches!(a, Action::MoveRobber { .. } | Action::PlayKnight { .. }));
            let opening = matches!(g.phase(), Phase::Opening { .. });
            if !opening && legal.len() >= 3 && !robber {
                return (g.view(Viewer::Seat(seat)), legal);
            }
            let a = legal[rng.random_range(0..legal.len())];
            g.apply(seat, a).unwrap();
        }
        panic!("no ordinary decision in 5000 steps");
    }

    #[test]
    fn key_only_searches_openings_and_leaves_the_rest_to_the_guide() {
        let config = SearchConfig {
            budget: None,
            max_playouts: 40,
            key_only: true,
            ..SearchConfig::default()
        };
        let mut bot = SearchBot::new(3, config);
        let (view, legal) = ordinary_decision(5);
        let guide = bot.guide.choose(&view, &legal);
        assert_eq!(bot.choose(&view, &legal), guide);
        assert_eq!(
            bot.last_stats().playouts,
            0,
            "an ordinary decision is not searched"
        );
        // The same decision is searched without `key_only`.
        let mut searching = SearchBot::new(
            3,
            SearchConfig {
                key_only: false,
                ..config
            },
        );
        searching.choose(&view, &legal);
        assert!(searching.last_stats().playouts > 0);
        // An opening placement is searched with it.
        let (view, legal) = opening(21);
        bot.choose(&view, &legal);
        assert!(bot.last_stats().playouts > 0, "{:?}", bot.last_stats());
    }

    fn timed(budget_ms: u64, playouts: u32) -> SearchConfig {
        SearchConfig {
            budget: Some(Duration::from_millis(budget_ms)),
            max_playouts: playouts,
            horizon_turns: 8,
            max_candidates: 6,
            ..SearchConfig::default()
        }
    }

    #[test]
    fn a_budget_too_short_for_a_round_plays_the_normal_move() {
        // Every look at the clock costs 1 ms, so the 10 ms budget (8 ms
        // before the margin) ends inside the first round.
        let clock = StepClock::new(Duration::from_millis(1));
        let mut bot = SearchBot::with_clock(7, timed(10, 1000), Box::new(clock.clone()));
        let (view, legal) = opening(3);
        let choice = bot.choose(&view, &legal).unwrap();
        let stats = bot.last_stats();
        assert!(stats.candidates > 1, "{stats:?}");
        assert_eq!((stats.rounds, stats.cut, stats.guide), (0, true, true));
        let normal = HeuristicBot::new(7 ^ 0x5eed).choose(&view, &legal).unwrap();
        assert_eq!(choice, normal.normalized());
        assert!(clock.peek() <= Duration::from_millis(10));
    }

    #[test]
    fn the_deadline_cuts_any_round_a_margin_short_of_the_budget() {
        // 200 µs a look: a few rounds fit in 40 ms, the playout cap is far.
        let step = Duration::from_micros(200);
        let budget = Duration::from_millis(40);
        let clock = StepClock::new(step);
        let mut bot = SearchBot::with_clock(11, timed(40, 100_000), Box::new(clock.clone()));
        let (view, legal) = opening(5);
        bot.choose(&view, &legal).unwrap();
        let stats = bot.last_stats();
        assert!(stats.cut, "{stats:?}");
        assert!(stats.rounds >= 1, "{stats:?}");
        // The decision ends at the first look past its deadline.
        assert!(
            clock.peek() <= budget - margin(budget) + step,
            "{:?}",
            clock.peek()
        );
    }

    #[test]
    fn ranked_candidates_are_the_heuristics_runners_up() {
        let config = SearchConfig {
            ranked: true,
            ..SearchConfig::default()
        };
        let mut bot = SearchBot::new(17, config);
        let (view, legal) = opening(21);
        let guide = bot.guide.choose(&view, &legal);
        let cands = bot.candidates(&view, &legal, guide);
        assert_eq!(cands.len(), config.max_candidates);
        let score = |a: &Action| crate::heuristic::rank(&view, &[*a])[0].unwrap();
        // Best first after the guide's move, and no left-out spot better
        // than the worst one taken.
        let taken: Vec<f32> = cands[1..].iter().map(score).collect();
        assert!(taken.windows(2).all(|w| w[0] >= w[1]), "{taken:?}");
        let worst = taken.last().copied().unwrap();
        let left_out = legal.iter().filter(|a| !cands.contains(&a.normalized()));
        assert!(left_out.map(score).all(|s| s <= worst));
    }

    #[test]
    fn without_a_budget_the_playout_cap_ends_the_search() {
        let config = SearchConfig {
            budget: None,
            ..timed(0, 60)
        };
        let clock = StepClock::new(Duration::from_secs(1));
        let mut bot = SearchBot::with_clock(13, config, Box::new(clock));
        let (view, legal) = opening(9);
        bot.choose(&view, &legal).unwrap();
        let stats = bot.last_stats();
        assert!(!stats.cut, "{stats:?}");
        // An opening placement gets `opening_boost` times the playouts.
        assert!(
            stats.playouts <= 60 * config.opening_boost && stats.playouts > 60,
            "{stats:?}"
        );
        assert!(stats.rounds >= MIN_ROUNDS, "{stats:?}");
    }

    #[test]
    fn opening_settings_apply_to_opening_placements_only() {
        let config = SearchConfig {
            budget: None,
            opening_horizon: 30,
            opening_candidates: 12,
            ..SearchConfig::default()
        };
        let mut bot = SearchBot::new(19, config);
        let (view, legal) = opening(21);
        assert_eq!(bot.horizon(&view, false), 30);
        let guide = bot.guide.choose(&view, &legal);
        assert_eq!(bot.candidates(&view, &legal, guide).len(), 12);
        let (view, legal) = ordinary_decision(5);
        assert_eq!(bot.horizon(&view, false), config.horizon_turns);
        let guide = bot.guide.choose(&view, &legal);
        assert!(bot.candidates(&view, &legal, guide).len() <= config.max_candidates);
        // Unset (0), they fall back to the settings of every decision.
        let plain = SearchBot::new(
            19,
            SearchConfig {
                opening_horizon: 0,
                opening_candidates: 0,
                ..SearchConfig::default()
            },
        );
        let (view, _) = opening(21);
        assert_eq!(plain.horizon(&view, false), plain.config.horizon_turns);
        assert_eq!(plain.max_candidates(&view), plain.config.max_candidates);
    }

    #[test]
    fn the_robber_horizon_applies_to_robber_moves_only() {
        let config = SearchConfig {
            opening_horizon: 30,
            robber_horizon: 20,
            ..SearchConfig::default()
        };
        let bot = SearchBot::new(19, config);
        let (view, _) = ordinary_decision(5);
        assert_eq!(bot.horizon(&view, true), 20);
        assert_eq!(bot.horizon(&view, false), config.horizon_turns);
        // An opening placement keeps the opening's.
        let (view, _) = opening(21);
        assert_eq!(bot.horizon(&view, false), 30);
        // Unset (0), robber moves take the horizon of every decision.
        let plain = SearchBot::new(19, SearchConfig::default());
        let (view, _) = ordinary_decision(5);
        assert_eq!(plain.horizon(&view, true), plain.config.horizon_turns);
    }

    #[test]
    fn a_long_opening_horizon_still_answers_within_the_playout_cap() {
        let config = SearchConfig {
            budget: None,
            max_playouts: 10,
            opening_horizon: 40,
            ..SearchConfig::default()
        };
        let mut bot = SearchBot::new(23, config);
        let (view, legal) = opening(7);
        let a = bot.choose(&view, &legal).unwrap();
        assert!(legal.iter().any(|l| l.normalized() == a));
        let stats = bot.last_stats();
        assert!(
            !stats.cut && stats.playouts <= 10 * config.key_boost,
            "{stats:?}"
        );
        assert!(stats.rounds >= MIN_ROUNDS, "{stats:?}");
        // With its own boost an opening placement takes that many instead.
        let mut fewer = SearchBot::new(
            23,
            SearchConfig {
                opening_boost: 2,
                ..config
            },
        );
        fewer.choose(&view, &legal).unwrap();
        let stats = fewer.last_stats();
        assert!(stats.playouts <= 20 && stats.playouts > 10, "{stats:?}");
    }

    #[test]
    fn the_opening_margin_applies_to_opening_placements_only() {
        let bot = SearchBot::new(
            19,
            SearchConfig {
                margin_z: 3.0,
                opening_margin_z: 2.0,
                ..SearchConfig::default()
            },
        );
        let (view, _) = opening(21);
        assert_eq!(bot.margin_z(&view), 2.0);
        let (view, _) = ordinary_decision(5);
        assert_eq!(bot.margin_z(&view), 3.0);
        // Unset (0), openings take the margin of every decision.
        let plain = SearchBot::new(19, SearchConfig::default());
        let (view, _) = opening(21);
        assert_eq!(plain.margin_z(&view), plain.config.margin_z);
    }

    #[test]
    fn near_the_end_every_decision_is_searched() {
        let config = SearchConfig {
            budget: None,
            max_playouts: 40,
            key_only: true,
            endgame_gap: 1,
            ..SearchConfig::default()
        };
        // To 3 points, everybody is within one of the target after the
        // opening: an ordinary decision is searched.
        let (view, legal) = ordinary_decision_to(5, 3);
        assert!(view.players.iter().any(|p| p.visible_points >= 2));
        let mut bot = SearchBot::new(3, config);
        bot.choose(&view, &legal);
        assert!(bot.last_stats().playouts > 0, "{:?}", bot.last_stats());
        // Without the setting it is the guide's move, unsearched.
        let mut off = SearchBot::new(
            3,
            SearchConfig {
                endgame_gap: 0,
                ..config
            },
        );
        off.choose(&view, &legal);
        assert_eq!(off.last_stats().playouts, 0);
        // To 10 points, the same early decision is far from the end.
        let (view, legal) = ordinary_decision(5);
        assert!(view.players.iter().all(|p| p.visible_points + 1 < 10));
        bot.choose(&view, &legal);
        assert_eq!(bot.last_stats().playouts, 0);
    }

    #[test]
    fn the_endgame_boost_multiplies_the_playouts_near_the_end_only() {
        let config = SearchConfig {
            budget: None,
            max_playouts: 12,
            key_only: false,
            endgame_gap: 1,
            endgame_boost: 4,
            ..SearchConfig::default()
        };
        // Near the end: more than the cap without the boost (no candidate
        // is dropped before the sixth round, so at least five are played).
        let (view, legal) = ordinary_decision_to(5, 3);
        let mut bot = SearchBot::new(3, config);
        bot.choose(&view, &legal);
        let near = bot.last_stats();
        assert!(near.playouts > 12 && near.playouts <= 48, "{near:?}");
        // Far from the end, searched all the same (`key_only` is off): the
        // cap without the boost.
        let (view, legal) = ordinary_decision(5);
        bot.choose(&view, &legal);
        let far = bot.last_stats();
        assert!(far.playouts > 0 && far.playouts <= 12, "{far:?}");
    }

    #[test]
    fn the_endgame_horizon_applies_near_the_end_only() {
        let config = SearchConfig {
            endgame_gap: 1,
            endgame_horizon: 16,
            robber_horizon: 20,
            ..SearchConfig::default()
        };
        let bot = SearchBot::new(19, config);
        // Near the end, robber moves included.
        let (view, _) = ordinary_decision_to(5, 3);
        assert_eq!(bot.horizon(&view, false), 16);
        assert_eq!(bot.horizon(&view, true), 16);
        // Far from it, the horizons of every decision and of robber moves.
        let (view, _) = ordinary_decision(5);
        assert_eq!(bot.horizon(&view, false), config.horizon_turns);
        assert_eq!(bot.horizon(&view, true), 20);
        // Without an end-game gap there is no end game.
        let off = SearchBot::new(
            19,
            SearchConfig {
                endgame_gap: 0,
                ..config
            },
        );
        let (view, _) = ordinary_decision_to(5, 3);
        assert_eq!(off.horizon(&view, false), config.horizon_turns);
    }
}
