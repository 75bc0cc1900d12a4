//! Redaction (R46-R48): views and events show each viewer only what the
//! rules let them know.

use catan_core::playout::seat_to_act;
use catan_core::{Event, Game, GameOptions, Phase, Scenario, Seat, View, Viewer};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

/// Keys that must never appear in any view: deck order, RNG, seed.
const SECRET_KEYS: [&str; 5] = ["deck", "rng", "seed", "forced_dice", "state"];

fn keys_of(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.push(k.clone());
                keys_of(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| keys_of(x, out)),
        _ => {}
    }
}

fn viewers(game: &Game) -> Vec<Viewer> {
    let mut v: Vec<Viewer> = (0..game.n_players())
        .map(|s| Viewer::Seat(Seat(s as u8)))
        .collect();
    v.push(Viewer::Spectator);
    v
}

fn audit_view(game: &Game, viewer: Viewer) {
    let view = game.view(viewer);
    let json = serde_json::to_value(&view).expect("view serializes");
    let mut keys = Vec::new();
    keys_of(&json, &mut keys);
    for k in SECRET_KEYS {
        assert!(
            !keys.iter().any(|x| x == k),
            "R48: view for {viewer:?} has key {k}"
        );
    }
    let finished = game.phase() == Phase::Finished;
    for p in &view.players {
        let own = viewer == Viewer::Seat(p.seat);
        if !own {
            assert!(
                p.dev_cards.is_none() && p.dev_cards_new.is_none(),
                "R47: dev cards of {} leak to {viewer:?}",
                p.seat
            );
            if !game.options().open_hands {
                assert!(
                    p.resources.is_none(),
                    "R47: hand of {} leaks to {viewer:?}",
                    p.seat
                );
            }
            if !finished {
                assert!(
                    p.victory_points.is_none(),
                    "R47: hidden points of {} leak",
                    p.seat
                );
                assert!(p.revealed_vp_cards.is_none());
            }
        } else {
            assert_eq!(p.resources, Some(game.player(p.seat).hand));
            assert_eq!(p.dev_cards, Some(game.player(p.seat).dev));
        }
        // Public counts are always there (R46).
        assert_eq!(p.resource_count, game.player(p.seat).hand.total());
    }
}

fn audit_event(event: &Event, viewer: Viewer, open_hands: bool) {
    match event.redacted_for(viewer, open_hands) {
        Event::Stole {
            thief,
            victim,
            resource,
        } => {
            let involved = viewer == Viewer::Seat(thief) || viewer == Viewer::Seat(victim);
            assert_eq!(
                resource.is_some(),
                involved || open_hands,
                "R19c: steal seen by {viewer:?}"
            );
        }
        Event::DevCardBought { seat, card } => {
            assert_eq!(
                card.is_some(),
                viewer == Viewer::Seat(seat),
                "R31: drawn card seen by {viewer:?}"
            );
        }
        _ => {}
    }
}

/// Plays random games of three and four players (seeds `0..games`, open
/// hands in every fifth) to `max_turn`, calling `step` after each action
/// with the game and the action's events.
fn random_steps(games: u64, max_turn: u32, mut step: impl FnMut(&Game, &[Event], &GameOptions)) {
    for seed in 0..games {
        let options = GameOptions {
            players: 3 + (seed % 2) as u8,
            open_hands: seed.is_multiple_of(5),
            ..Default::default()
        };
        let (mut game, _) = Game::new(options, seed).expect("valid");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while game.phase() != Phase::Finished && game.turn() < max_turn {
            let seat = seat_to_act(&game);
            let legal = game.legal_actions(seat);
            let action = legal[rng.random_range(0..legal.len())];
            let events = game.apply(seat, action).expect("legal");
            step(&game, &events, &options);
        }
    }
}

#[test]
fn r46_r47_r48_views_and_events_over_random_games_hide_what_they_must() {
    random_steps(60, 600, |game, events, options| {
        for viewer in viewers(game) {
            for e in events {
                audit_event(e, viewer, options.open_hands);
            }
            if game.turn().is_multiple_of(7) || game.phase() == Phase::Finished {
                audit_view(game, viewer);
            }
        }
    });
}

/// A view written over another one (`Game::view_into`, which searches use
/// to save allocations) is exactly the view built afresh: nothing of the
/// view it overwrote stays, not a seat's hand shown to a spectator, not a
/// fourth player in a three-player game (R46-R47).
#[test]
fn r46_r47_a_view_written_over_another_keeps_nothing_of_it() {
    let mut scratch: Option<View> = None;
    random_steps(24, 300, |game, _, _| {
        // Seats in turn, then a spectator: every write follows one made
        // for another viewer (and across games, another player count).
        for viewer in viewers(game) {
            let out = scratch.get_or_insert_with(|| game.view(viewer));
            game.view_into(viewer, out);
            assert_eq!(*out, game.view(viewer), "turn {}, {viewer:?}", game.turn());
        }
    });
}

fn base_scenario(seat1_dev: &str, seed: u64) -> Value {
    json!({
        "options": { "players": 3, "board": "beginner" },
        "seed": seed,
        "dice": [[3, 4]],
        "start": {
            "skip_opening": true,
            "active": 0,
            "players": [
                { "settlements": [0, 18], "roads": [1, 20], "resources": { "wood": 1 } },
                { "settlements": [26, 33], "roads": [32, 39], "resources": { "brick": 1, "ore": 1 }, "dev_cards": [seat1_dev] },
                { "settlements": [10, 40], "roads": [16, 51], "resources": { "wheat": 2 } }
            ]
        },
        "actions": []
    })
}

fn build(v: &Value) -> Game {
    Scenario::parse(&v.to_string())
        .expect("parses")
        .build()
        .expect("builds")
}

fn view_json(game: &Game, viewer: Viewer) -> String {
    serde_json::to_string(&game.view(viewer)).expect("serializes")
}

#[test]
fn r47_games_differing_only_in_a_hidden_dev_card_look_identical_to_others() {
    let a = build(&base_scenario("knight", 3));
    let b = build(&base_scenario("victory_point", 3));
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(2)),
        Viewer::Spectator,
    ] {
        assert_eq!(
            view_json(&a, viewer),
            view_json(&b, viewer),
            "{viewer:?} can tell seat 1's card"
        );
    }
    assert_ne!(
        view_json(&a, Viewer::Seat(Seat(1))),
        view_json(&b, Viewer::Seat(Seat(1)))
    );
}

#[test]
fn r19c_r47_a_steal_is_known_only_to_thief_and_victim() {
    // Find two seeds whose steal takes different cards from seat 1.
    let mut by_card = std::collections::BTreeMap::new();
    for seed in 0..40 {
        let mut g = build(&base_scenario("knight", seed));
        g.apply(Seat(0), catan_core::Action::RollDice)
            .expect("roll");
        let events = g
            .apply(
                Seat(0),
                catan_core::Action::MoveRobber {
                    hex: catan_core::HexId(11),
                    victim: Some(Seat(1)),
                },
            )
            .expect("rob");
        let stolen = events.iter().find_map(|e| match e {
            Event::Stole { resource, .. } => *resource,
            _ => None,
        });
        by_card.entry(stolen).or_insert((g, events));
    }
    assert!(by_card.len() >= 2, "two different steals found");
    let mut it = by_card.into_values();
    let (ga, ea) = it.next().expect("first");
    let (gb, eb) = it.next().expect("second");
    for viewer in [Viewer::Seat(Seat(2)), Viewer::Spectator] {
        assert_eq!(
            view_json(&ga, viewer),
            view_json(&gb, viewer),
            "{viewer:?} can tell the stolen card"
        );
        let ra: Vec<Event> = ea.iter().map(|e| e.redacted_for(viewer, false)).collect();
        let rb: Vec<Event> = eb.iter().map(|e| e.redacted_for(viewer, false)).collect();
        assert_eq!(ra, rb, "{viewer:?} events reveal the stolen card");
    }
    for viewer in [Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1))] {
        assert_ne!(view_json(&ga, viewer), view_json(&gb, viewer));
    }
}

#[test]
fn v3_open_hands_shows_resources_but_not_development_cards() {
    let mut s = base_scenario("knight", 1);
    s["options"]["open_hands"] = json!(true);
    let g = build(&s);
    let v = g.view(Viewer::Spectator);
    assert_eq!(v.players[1].resources.map(|r| r.total()), Some(2));
    assert!(v.players[1].dev_cards.is_none());
}

#[test]
fn r48_finished_game_reveals_victory_point_cards_to_all() {
    let mut s = base_scenario("victory_point", 1);
    s["options"]["vp_target"] = json!(3);
    s["start"]["active"] = json!(1);
    let g = build(&s);
    assert_eq!(
        g.phase(),
        Phase::Finished,
        "R45: seat 1 starts its turn at the target"
    );
    let v = g.view(Viewer::Seat(Seat(0)));
    assert_eq!(v.players[1].revealed_vp_cards, Some(1));
    assert_eq!(v.players[1].victory_points, Some(3));
    assert!(
        v.players[1].resources.is_none(),
        "a finished game still hides hands outside a review"
    );
    let full = g.view(Viewer::Omniscient);
    assert!(
        full.players
            .iter()
            .all(|p| p.resources.is_some() && p.dev_cards.is_some())
    );
}

/// A view without its board (what a live update may send) says nothing
/// about the board, and reads back as the same view with the board put in;
/// a whole view always carries its board.
#[test]
fn a_view_without_its_board_is_the_view_less_the_board() {
    random_steps(3, 4, |game, _, _| {
        for viewer in viewers(game) {
            let whole = game.view(viewer);
            let text = serde_json::to_value(&whole).expect("serializes");
            assert!(
                text["board"]["hexes"]
                    .as_array()
                    .is_some_and(|h| h.len() == 19)
            );
            let lean = serde_json::to_value(game.view_without_board(viewer)).expect("serializes");
            assert!(lean.get("board").is_none(), "{lean}");
            let mut back: View = serde_json::from_value(lean).expect("reads back");
            assert!(back.board.is_empty());
            back.board = game.view(viewer).board;
            assert_eq!(back, whole);
        }
    });
}

/// The changes from one step's view to the next (what a protocol 3 update
/// carries) rebuild the next view exactly, both in Rust ([`View::apply`])
/// and applied to the JSON the way the page does (each named field
/// replaced; each named player's named fields replaced). They survive the
/// wire (a field changed to none stays apart from one unchanged), name only
/// what changed, and say nothing the new view does not say (R46-R47).
#[test]
fn r46_r47_changes_from_one_view_to_the_next_rebuild_it_and_say_nothing_more() {
    let mut last: Vec<(Viewer, View)> = Vec::new();
    let mut partial_players = 0;
    let mut to_none = 0;
    random_steps(12, 400, |game, _, _| {
        for viewer in viewers(game) {
            let new = game.view_without_board(viewer);
            let Some((_, old)) = last.iter_mut().find(|(v, _)| *v == viewer) else {
                last.push((viewer, new));
                continue;
            };
            // One step of a game to the next, or the last step of one game
            // to the first of the next (changes still rebuild it, unless
            // the games' options differ).
            let Some(changes) = new.changes_since(old) else {
                assert_ne!(old.options, new.options);
                *old = new;
                continue;
            };
            let mut rebuilt = old.clone();
            rebuilt.apply(&changes);
            assert_eq!(rebuilt, new);

            let wire = serde_json::to_value(&changes).expect("serializes");
            let back: catan_core::ViewChanges =
                serde_json::from_value(wire.clone()).expect("reads back");
            assert_eq!(back, changes, "{wire}");

            let old_json = serde_json::to_value(&*old).expect("serializes");
            let new_json = serde_json::to_value(&new).expect("serializes");
            let mut page = old_json.clone();
            for (key, value) in wire.as_object().expect("an object") {
                if key == "players" {
                    for (seat, fields) in value.as_object().expect("players by seat") {
                        let i: usize = seat.parse().expect("a seat number");
                        for (field, v) in fields.as_object().expect("fields") {
                            assert_ne!(&old_json["players"][i][field], v, "{field} unchanged");
                            assert_eq!(&new_json["players"][i][field], v);
                            page["players"][i][field] = v.clone();
                        }
                    }
                } else {
                    assert_ne!(&old_json[key], value, "{key} unchanged");
                    assert_eq!(&new_json[key], value, "{key} not the new view's");
                    to_none += usize::from(value.is_null());
                    page[key] = value.clone();
                }
            }
            assert_eq!(page, new_json);
            if changes.players.len() < new.players.len() {
                partial_players += 1;
            }
            *old = new;
        }
    });
    assert!(partial_players > 0, "some steps leave a player unchanged");
    assert!(
        to_none > 0,
        "some field went back to none (the dice, an opening)"
    );
}

/// Changes are only made between views of one game for one viewer: for
/// another viewer, other options or another number of players only a whole
/// view will do.
#[test]
fn changes_are_made_only_between_views_of_one_game_for_one_viewer() {
    let (game, _) = Game::new(GameOptions::default(), 7).expect("valid");
    let mine = game.view_without_board(Viewer::Seat(Seat(0)));
    let theirs = game.view_without_board(Viewer::Seat(Seat(1)));
    assert!(theirs.changes_since(&mine).is_none());
    let same = mine.changes_since(&mine).expect("one viewer");
    assert!(same.is_empty(), "{same:?}");
    let mut fewer = mine.clone();
    fewer.players.pop();
    assert!(mine.changes_since(&fewer).is_none());
    let mut other_options = mine.clone();
    other_options.options.vp_target += 1;
    assert!(mine.changes_since(&other_options).is_none());
    assert!(
        game.view(Viewer::Seat(Seat(0)))
            .changes_since(&mine)
            .is_none()
    );
}
