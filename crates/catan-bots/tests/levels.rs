//! Every difficulty level: legal answers in whole seeded games, and no
//! cheating (a bot's choice depends only on what its seat may see).

// Tests may unwrap: a panic is the failure report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use catan_bots::{Bot, BotKind, SearchBot, SearchConfig, arena, make_bot};
use catan_core::playout::Playout;
use catan_core::{
    Action, BoardMode, DevCard, DevCards, Game, GameOptions, HiddenDeal, Phase, ResourceSet, Seat,
    View, Viewer,
};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// A search small enough for debug builds, and without a wall-time budget
/// so that it is determined by its seed. It searches every decision, not
/// only the opening and robber ones the server's default searches, so that
/// each decision these tests compare goes through the drawn games.
fn small_search() -> SearchConfig {
    SearchConfig {
        budget: None,
        max_playouts: 40,
        horizon_turns: 6,
        max_candidates: 8,
        key_only: false,
        key_boost: 1,
        opening_boost: 1,
        ..SearchConfig::default()
    }
}

fn level(kind: BotKind, seed: u64) -> Box<dyn Bot> {
    match kind {
        BotKind::Hard => Box::new(SearchBot::new(seed, small_search())),
        k => make_bot(k, seed),
    }
}

/// Checks every answer of the wrapped bot against the legal list it got.
struct Checked {
    inner: Box<dyn Bot>,
    answers: u64,
}

impl Bot for Checked {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Option<Action> {
        let a = self
            .inner
            .choose(view, legal)
            .expect("a bot with legal actions must answer");
        assert!(
            legal.contains(&a) || matches!(a, Action::OfferTrade { .. }),
            "{a:?} is not among the legal actions"
        );
        self.answers += 1;
        Some(a)
    }
}

#[test]
fn every_level_answers_legally_in_whole_games() {
    let variants = [
        GameOptions::default(),
        GameOptions {
            players: 3,
            vp_target: 6,
            ..GameOptions::default()
        },
        GameOptions {
            friendly_robber: true,
            open_hands: true,
            vp_target: 7,
            ..GameOptions::default()
        },
        GameOptions {
            classic_phases: true,
            board: BoardMode::Official,
            vp_target: 8,
            ..GameOptions::default()
        },
    ];
    for kind in [
        BotKind::Random,
        BotKind::Easy,
        BotKind::Normal,
        BotKind::Hard,
    ] {
        // The search bot is slow in a debug build: fewer games.
        let seeds = if kind == BotKind::Hard { 1 } else { 8 };
        for (v, opts) in variants.iter().enumerate() {
            for seed in 0..seeds {
                let n = opts.players as usize;
                let mut bots: Vec<Box<dyn Bot>> = (0..n)
                    .map(|s| -> Box<dyn Bot> {
                        // The level under test in two seats, normal bots beside it.
                        let k = if s % 2 == 0 { kind } else { BotKind::Normal };
                        Box::new(Checked {
                            inner: level(k, seed * 10 + s as u64),
                            answers: 0,
                        })
                    })
                    .collect();
                let r = arena(*opts, seed + 100 * v as u64, &mut bots, 600).unwrap();
                assert_eq!(
                    r.fallbacks,
                    vec![0; n],
                    "{kind:?} variant {v} seed {seed}: refused answers"
                );
                assert!(r.finished(), "{kind:?} variant {v} seed {seed} unfinished");
            }
        }
    }
}

/// A game some way in, by random play.
fn midgame(seed: u64, turns: u32) -> Game {
    let (mut g, _) = Game::new(GameOptions::default(), seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    Playout::new().run(&mut g, &mut rng, turns, |_, _, _, _| {});
    g
}

/// `g` with everything `me` cannot see changed: the other hands' cards
/// redealt (same counts), the other players' development cards swapped with
/// the deck's where possible, the deck reshuffled and the dice reseeded.
/// The engine's [`Game::redeal_hidden`] checks that `me` cannot tell.
fn hidden_twin(g: &Game, me: Seat, seed: u64) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let others: Vec<usize> = (0..g.n_players()).filter(|&i| i != me.index()).collect();
    let mut hands: Vec<ResourceSet> = g.players().iter().map(|p| p.hand).collect();
    let mut cards = Vec::new();
    for &i in &others {
        for (r, k) in hands[i].iter() {
            cards.extend(std::iter::repeat_n(r, k as usize));
        }
    }
    cards.shuffle(&mut rng);
    for &i in &others {
        let n = hands[i].total();
        let mut hand = ResourceSet::EMPTY;
        for _ in 0..n {
            *hand.get_mut(cards.pop().unwrap()) += 1;
        }
        hands[i] = hand;
    }
    // The deck's cards are secret: they are the standard 25 less every card
    // held or played.
    let mut in_deck = DevCard::DECK_COUNTS;
    for p in g.players() {
        for c in DevCard::ALL {
            in_deck[c.index()] -= p.dev.get(c) + p.played.get(c);
        }
    }
    // Swap one unplayed card of another player with a different one of the deck.
    let mut dev: Vec<DevCards> = g.players().iter().map(|p| p.dev).collect();
    'swap: for &i in &others {
        for c in DevCard::ALL {
            let playable = dev[i].get(c) > g.players()[i].dev_new.get(c);
            if !playable {
                continue;
            }
            if let Some(d) = DevCard::ALL
                .into_iter()
                .find(|&d| d != c && in_deck[d.index()] > 0)
            {
                dev[i].0[c.index()] -= 1;
                dev[i].0[d.index()] += 1;
                in_deck[d.index()] -= 1;
                in_deck[c.index()] += 1;
                break 'swap;
            }
        }
    }
    let mut deck: Vec<DevCard> = DevCard::ALL
        .iter()
        .flat_map(|&c| std::iter::repeat_n(c, in_deck[c.index()] as usize))
        .collect();
    deck.shuffle(&mut rng);
    let mut t = g.clone();
    let deal = HiddenDeal {
        hands,
        dev_cards: dev,
        deck,
        seed: seed ^ 0xd1ce,
    };
    t.redeal_hidden(me, deal).unwrap();
    t
}

#[test]
fn r46_bots_choose_the_same_when_only_hidden_information_differs() {
    let mut compared = 0;
    for seed in 0..30u64 {
        let g = midgame(seed, 4 + seed as u32 % 30);
        if g.phase() == Phase::Finished {
            continue;
        }
        let me = catan_core::playout::seat_to_act(&g);
        let twin = hidden_twin(&g, me, seed + 1000);
        assert_ne!(
            serde_json::to_string(&g).unwrap(),
            serde_json::to_string(&twin).unwrap(),
            "the twin must differ in hidden state"
        );
        let (va, vb) = (g.view(Viewer::Seat(me)), twin.view(Viewer::Seat(me)));
        assert_eq!(va, vb, "the seat sees the same game");
        let (la, lb) = (g.legal_actions(me), twin.legal_actions(me));
        assert_eq!(la, lb);
        for kind in BotKind::ALL {
            let a = level(kind, seed).choose(&va, &la);
            let b = level(kind, seed).choose(&vb, &lb);
            assert_eq!(a, b, "{kind:?} seed {seed}: the choice leaked hidden state");
            compared += 1;
        }
    }
    assert!(compared >= 80, "{compared}");
}
