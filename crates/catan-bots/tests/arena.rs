//! Whole games through the arena: bots stay legal, games end, the heuristic
//! beats random play.

// Tests may unwrap: a panic is the failure report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use catan_bots::{Bot, BotKind, arena, make_bot};
use catan_core::{Action, BoardMode, GameOptions, View};
use common::options;

/// Wraps a bot and checks every answer it gives against the rules it can see.
struct Checked {
    inner: Box<dyn Bot>,
}

impl Bot for Checked {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Option<Action> {
        let a = self.inner.choose(view, legal);
        let a = a.expect("a bot with legal actions must answer");
        assert!(
            legal.contains(&a) || matches!(a, Action::OfferTrade { .. }),
            "{a:?} is not among the legal actions"
        );
        if let Action::Discard { cards } = a {
            let me = match view.viewer {
                catan_core::Viewer::Seat(s) => s.index(),
                _ => unreachable!(),
            };
            assert_eq!(
                cards.total(),
                view.discards_owed[me] as u32,
                "R19 discard exactly half"
            );
        }
        Some(a)
    }
}

fn lineup(hero: usize, n: usize, seed: u64, kind: BotKind) -> Vec<Box<dyn Bot>> {
    (0..n)
        .map(|s| -> Box<dyn Bot> {
            let k = if s == hero { BotKind::Normal } else { kind };
            Box::new(Checked {
                inner: make_bot(k, seed * 10 + s as u64),
            })
        })
        .collect()
}

#[test]
fn bots_only_return_legal_actions_under_every_variant() {
    let variants = [
        GameOptions::default(),
        GameOptions {
            players: 3,
            ..GameOptions::default()
        },
        GameOptions {
            friendly_robber: true,
            open_hands: true,
            ..GameOptions::default()
        },
        GameOptions {
            classic_phases: true,
            board: BoardMode::Official,
            ..GameOptions::default()
        },
    ];
    for (i, opts) in variants.into_iter().enumerate() {
        for seed in 0..12u64 {
            let n = opts.players as usize;
            let mut bots = lineup(seed as usize % n, n, seed, BotKind::Random);
            let r = arena(opts, seed + 100 * i as u64, &mut bots, 1000).unwrap();
            assert!(
                r.fallbacks.iter().all(|&f| f == 0),
                "variant {i} seed {seed}: refused answers {:?}",
                r.fallbacks
            );
        }
    }
}

#[test]
fn four_heuristic_bots_finish_their_games() {
    for seed in 0..25u64 {
        let mut bots = lineup(0, 4, seed, BotKind::Normal);
        let r = arena(options(BoardMode::Random), seed, &mut bots, 1000).unwrap();
        assert!(r.finished(), "seed {seed} ran to {} turns", r.turns);
        assert!(r.turns < 400, "seed {seed} took {} turns", r.turns);
        assert_eq!(r.fallbacks, vec![0; 4]);
    }
}

#[test]
fn heuristic_beats_three_random_bots_most_of_the_time() {
    // Deterministic: every bot and the game are seeded.
    let mut wins = 0;
    for seed in 0..100u64 {
        let hero = (seed % 4) as usize;
        let mut bots: Vec<Box<dyn Bot>> = (0..4)
            .map(|s| {
                let k = if s == hero {
                    BotKind::Normal
                } else {
                    BotKind::Random
                };
                make_bot(k, seed * 10 + s as u64)
            })
            .collect();
        let r = arena(options(BoardMode::Random), seed, &mut bots, 1000).unwrap();
        wins += (r.winner.map(|w| w.index()) == Some(hero)) as u32;
    }
    assert!(wins >= 60, "heuristic won {wins} of 100");
}

#[test]
fn arena_replaces_refused_answers_and_counts_them() {
    /// Always asks for something the engine refuses.
    struct Stubborn;
    impl Bot for Stubborn {
        fn choose(&mut self, _: &View, _: &[Action]) -> Option<Action> {
            Some(Action::BuyDevelopmentCard)
        }
    }
    let mut bots: Vec<Box<dyn Bot>> = vec![
        Box::new(Stubborn),
        make_bot(BotKind::Random, 1),
        make_bot(BotKind::Random, 2),
        make_bot(BotKind::Random, 3),
    ];
    let r = arena(options(BoardMode::Random), 7, &mut bots, 30).unwrap();
    assert!(r.fallbacks[0] > 0);
    assert_eq!(r.fallbacks[1..], [0, 0, 0]);
    assert!(r.turns > 30, "the cap ends the game, not the refusals");
}
