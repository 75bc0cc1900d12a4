//! The turn limit, a safeguard beyond the rules (RULES.md has none): a game
//! with `turn_limit` ends drawn, without a winner, when that turn would
//! begin; a win before it is still a win (R44), and no limit means none.

use catan_core::playout::Playout;
use catan_core::{Event, Game, GameOptions, Phase};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn options(limit: Option<u32>) -> GameOptions {
    GameOptions {
        turn_limit: limit,
        // A target random players never reach: only the limit can end it.
        vp_target: 20,
        ..GameOptions::default()
    }
}

#[test]
fn a_game_at_its_turn_limit_ends_drawn() {
    for seed in 0..20 {
        let (mut game, _) = Game::new(options(Some(30)), seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut last = Vec::new();
        Playout::new().run(&mut game, &mut rng, 10_000, |_, _, _, events| {
            last = events.to_vec();
        });
        assert_eq!(game.phase(), Phase::Finished, "seed {seed}");
        assert_eq!(game.winner(), None, "seed {seed}");
        assert_eq!(game.turn(), 30, "seed {seed}");
        assert!(
            matches!(last.last(), Some(Event::GameDrawn { turn: 30, .. })),
            "seed {seed}: {last:?}"
        );
        assert!(
            game.legal_actions(game.active()).is_empty(),
            "nothing after the end"
        );
    }
}

#[test]
fn without_a_limit_the_game_goes_on() {
    let (mut game, _) = Game::new(options(None), 7).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    Playout::new().run(&mut game, &mut rng, 60, |_, _, _, _| {});
    assert!(game.turn() > 30);
    assert_ne!(game.phase(), Phase::Finished);
}

#[test]
fn r44_a_win_before_the_limit_is_a_win() {
    let opts = GameOptions {
        turn_limit: Some(10_000),
        vp_target: 3,
        ..GameOptions::default()
    };
    let (mut game, _) = Game::new(opts, 3).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    Playout::new().run(&mut game, &mut rng, 10_000, |_, _, _, _| {});
    assert_eq!(game.phase(), Phase::Finished);
    assert!(game.winner().is_some());
}

#[test]
fn limits_out_of_range_are_refused() {
    for bad in [0, 9, 10_001] {
        assert!(options(Some(bad)).validate().is_err(), "{bad}");
    }
    assert!(options(Some(10)).validate().is_ok());
    // An unset limit is not written, so records without one read the same.
    let text = serde_json::to_string(&options(None)).unwrap();
    assert!(!text.contains("turn_limit"), "{text}");
}
