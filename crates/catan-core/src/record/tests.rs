//! Round trips of recorded random games: JSON, replay, verification, and
//! rejection of tampered records.

#![allow(clippy::unwrap_used)]

use super::*;
use crate::playout::Playout;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Plays a random game to its end and records it the way the server does.
fn recorded_game(seed: u64) -> (GameRecord, Game) {
    let options = GameOptions::default();
    let (mut game, opener) = Game::new(options, seed).unwrap();
    let mut actions = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    Playout::new().run(&mut game, &mut rng, 2000, |_, seat, action, events| {
        let seq = actions.len() as u64 + 1;
        actions.push(RecordedAction::new(
            seq,
            seat,
            *action,
            events,
            format!("2025-01-01T00:00:{:02}Z", seq % 60),
            seq % 7 == 3,
        ));
    });
    let salt = "00112233445566778899aabbccddeeff".to_string();
    let record = GameRecord {
        format: FORMAT_VERSION,
        game_id: format!("test-{seed}"),
        created: "2025-01-01T00:00:00Z".into(),
        rules_version: RULES_VERSION.into(),
        options,
        seats: (0..4)
            .map(|i| SeatRecord {
                name: format!("player {i}"),
                bot: (i % 2 == 1).then(|| "random".to_string()),
            })
            .collect(),
        seed_commitment: commitment(seed, &salt),
        seed: Some(SeedReveal { seed, salt }),
        status: GameRecord::status_of(&game),
        result: Some(GameResult::from_game(&game)),
        opener: OpenerRoll::from_event(&opener),
        actions,
    };
    (record, game)
}

/// A finished random game with at least one roll, draw and steal.
fn finished_game() -> (GameRecord, Game) {
    for seed in 1.. {
        let (r, g) = recorded_game(seed);
        let has = |f: fn(&Outcome) -> bool| r.actions.iter().any(|a| f(&a.outcome));
        if r.status == GameStatus::Finished
            && has(|o| o.dice.is_some())
            && has(|o| o.card.is_some())
            && has(|o| o.stolen.is_some())
        {
            return (r, g);
        }
    }
    unreachable!()
}

fn first_seq(r: &GameRecord, f: fn(&Outcome) -> bool) -> usize {
    r.actions.iter().position(|a| f(&a.outcome)).unwrap()
}

#[test]
fn record_survives_json_and_replays_to_the_same_final_state() {
    let (record, game) = finished_game();
    let json = record.to_json_pretty();
    let back = GameRecord::from_json(&json).unwrap();
    assert_eq!(back, record);
    let replayed = replay(&back).unwrap();
    assert_eq!(replayed, game);
    assert_eq!(replayed.check_state(), game.check_state());
}

#[test]
fn seed_is_written_as_a_decimal_string_and_read_from_either_form() {
    let (record, _) = recorded_game(u64::MAX - 1);
    let v: serde_json::Value = serde_json::from_str(&record.to_json_pretty()).unwrap();
    assert_eq!(
        v["seed"]["seed"],
        serde_json::json!((u64::MAX - 1).to_string())
    );
    let mut v2 = v.clone();
    v2["seed"]["seed"] = serde_json::json!(7u64);
    let r: GameRecord = serde_json::from_value(v2).unwrap();
    assert_eq!(r.seed.unwrap().seed, 7);
}

#[test]
fn verify_accepts_an_honest_record() {
    let (record, game) = finished_game();
    let report = verify(&record).unwrap();
    assert_eq!(report.actions, record.actions.len());
    assert!(report.finished);
    assert!(report.opener_checked);
    assert_eq!(report.winner, game.winner);
    assert!(report.dice_rolls > 0 && report.cards_drawn > 0 && report.steals > 0);
}

#[test]
fn verify_rejects_one_altered_dice_roll_naming_its_seq() {
    let (mut record, _) = finished_game();
    let i = first_seq(&record, |o| o.dice.is_some());
    let d = record.actions[i].outcome.dice.unwrap();
    record.actions[i].outcome.dice = Some([d[0] % 6 + 1, d[1]]);
    let err = verify(&record).unwrap_err();
    assert!(
        matches!(err, VerifyError::OutcomeMismatch(OutcomeMismatch { seq, what: "dice roll", .. }) if seq == i as u64 + 1)
    );
    assert!(err.to_string().contains(&format!("seq {}", i + 1)), "{err}");
}

#[test]
fn verify_rejects_an_altered_drawn_card() {
    let (mut record, _) = finished_game();
    let i = first_seq(&record, |o| o.card.is_some());
    let c = record.actions[i].outcome.card.unwrap();
    let other = crate::resource::DevCard::ALL
        .into_iter()
        .find(|&x| x != c)
        .unwrap();
    record.actions[i].outcome.card = Some(other);
    let err = verify(&record).unwrap_err();
    assert!(
        matches!(err, VerifyError::OutcomeMismatch(OutcomeMismatch { seq, what: "drawn card", .. }) if seq == i as u64 + 1),
        "{err}"
    );
}

#[test]
fn verify_rejects_an_altered_stolen_card() {
    let (mut record, _) = finished_game();
    let i = first_seq(&record, |o| o.stolen.is_some());
    let r = record.actions[i].outcome.stolen.unwrap();
    let other = Resource::ALL.into_iter().find(|&x| x != r).unwrap();
    record.actions[i].outcome.stolen = Some(other);
    let err = verify(&record).unwrap_err();
    assert!(
        matches!(err, VerifyError::OutcomeMismatch(OutcomeMismatch { seq, what: "stolen card", .. }) if seq == i as u64 + 1),
        "{err}"
    );
}

#[test]
fn verify_rejects_a_missing_outcome() {
    let (mut record, _) = finished_game();
    let i = first_seq(&record, |o| o.dice.is_some());
    record.actions[i].outcome = Outcome::default();
    assert!(matches!(
        verify(&record),
        Err(VerifyError::OutcomeMismatch(OutcomeMismatch {
            what: "dice roll",
            ..
        }))
    ));
}

#[test]
fn verify_rejects_an_altered_commitment() {
    let (mut record, _) = finished_game();
    record.seed_commitment = commitment(1, "other");
    assert!(matches!(
        verify(&record),
        Err(VerifyError::CommitmentMismatch { .. })
    ));
}

#[test]
fn verify_rejects_a_salt_that_does_not_match_the_commitment() {
    let (mut record, _) = finished_game();
    if let Some(s) = record.seed.as_mut() {
        s.salt.push('0');
    }
    assert!(matches!(
        verify(&record),
        Err(VerifyError::CommitmentMismatch { .. })
    ));
}

#[test]
fn verify_rejects_a_different_seed_with_a_matching_commitment() {
    // A forger who recomputes the commitment still fails: the outcomes no
    // longer match the seed (or an action becomes illegal).
    let (mut record, _) = finished_game();
    let salt = "x".to_string();
    record.seed = Some(SeedReveal {
        seed: 999_999,
        salt,
    });
    record.seed_commitment = commitment(999_999, "x");
    assert!(verify(&record).is_err());
}

#[test]
fn verify_rejects_a_wrong_winner() {
    let (mut record, _) = finished_game();
    if let Some(r) = record.result.as_mut() {
        r.winner = r.winner.map(|s| Seat((s.0 + 1) % 4));
    }
    assert!(matches!(
        verify(&record),
        Err(VerifyError::ResultMismatch { .. })
    ));
}

#[test]
fn verify_rejects_a_finished_status_on_an_unfinished_game() {
    let (mut record, _) = finished_game();
    record.actions.truncate(record.actions.len() / 2);
    record.result = None;
    assert!(matches!(
        verify(&record),
        Err(VerifyError::StatusMismatch { .. })
    ));
    record.status = GameStatus::Abandoned;
    assert!(verify(&record).is_ok());
}

#[test]
fn replay_refuses_a_gap_in_the_sequence() {
    let (mut record, _) = finished_game();
    record.actions.remove(5);
    assert_eq!(
        replay(&record).unwrap_err(),
        ReplayError::Sequence { index: 5, seq: 7 }
    );
}

#[test]
fn replay_reports_an_illegal_action_with_its_seq() {
    let (mut record, _) = finished_game();
    record.actions[0].seat = Seat(9);
    assert!(matches!(
        replay(&record),
        Err(ReplayError::Refused { seq: 1, .. })
    ));
}

#[test]
fn replay_needs_the_revealed_seed() {
    let (mut record, _) = finished_game();
    record.seed = None;
    assert_eq!(replay(&record).unwrap_err(), ReplayError::SeedNotRevealed);
    record.seed = Some(SeedReveal {
        seed: 1,
        salt: String::new(),
    });
    record.rules_version = "0".into();
    assert!(matches!(
        replay(&record),
        Err(ReplayError::RulesVersion { .. })
    ));
}

#[test]
fn stepper_stops_at_the_requested_position() {
    let (record, _) = finished_game();
    let mut full = Replay::new(&record).unwrap();
    full.run_to(10).unwrap();
    assert_eq!(full.position(), 10);
    let (mut game, _) = Game::new(record.options, record.seed.as_ref().unwrap().seed).unwrap();
    for a in &record.actions[..10] {
        game.apply(a.seat, a.action).unwrap();
    }
    assert_eq!(full.game(), &game);
    let step = full.step().unwrap().unwrap();
    assert_eq!(step.recorded.seq, 11);
    assert_eq!(step.outcome, record.actions[10].outcome);
}

#[test]
fn outcome_is_taken_from_the_unredacted_events() {
    use crate::event::Event;
    let events = [
        Event::DiceRolled {
            seat: Seat(0),
            dice: [3, 4],
        },
        Event::Stole {
            thief: Seat(0),
            victim: Seat(1),
            resource: Some(Resource::Ore),
        },
    ];
    let o = Outcome::from_events(&events);
    assert_eq!(o.dice, Some([3, 4]));
    assert_eq!(o.stolen, Some(Resource::Ore));
    assert_eq!(o.card, None);
    assert_eq!(serde_json::to_string(&Outcome::default()).unwrap(), "{}");
}
