//! Protocol golden tests: every example in docs/PROTOCOL.md is a file in
//! tests/golden/, and each one deserializes into the protocol types and
//! serializes back to exactly the same JSON.
//!
//! `UPDATE_GOLDEN=1 cargo test -p catan-protocol --test golden` regenerates the
//! files from a real game and rewrites the examples in docs/PROTOCOL.md.

use catan_core::playout::Playout;
use catan_core::{BoardMode, Game, GameOptions, Phase, Seat, Viewer};
use catan_protocol::{
    ClientMsg, Code, HistoryStep, LobbyInfo, PROTOCOL_VERSION, SeatPresence, ServerMsg,
    ServerMsgKind, Token,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use strum::IntoEnumIterator;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn protocol_md() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/PROTOCOL.md")
}

/// Object entries with `type` first (as on the wire), then by key.
fn entries(m: &serde_json::Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut e: Vec<(&String, &Value)> = m.iter().collect();
    e.sort_by_key(|(k, _)| (k.as_str() != "type", k.as_str()));
    e
}

/// One-line JSON with `type` first.
fn compact(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let items: Vec<String> = entries(m)
                .into_iter()
                .map(|(k, x)| format!("{}:{}", Value::String(k.clone()), compact(x)))
                .collect();
            format!("{{{}}}", items.join(","))
        }
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(compact).collect();
            format!("[{}]", items.join(","))
        }
        _ => v.to_string(),
    }
}

/// Pretty JSON that keeps short values on one line, for readable docs.
fn doc_format(v: &Value, indent: usize) -> String {
    let one_line = compact(v);
    if indent + one_line.len() <= 96 {
        return one_line;
    }
    let pad = " ".repeat(indent + 2);
    let end = " ".repeat(indent);
    match v {
        Value::Object(m) => {
            let items: Vec<String> = entries(m)
                .into_iter()
                .map(|(k, x)| {
                    let key = Value::String(k.clone());
                    format!("{pad}{key}: {}", doc_format(x, indent + 2))
                })
                .collect();
            format!("{{\n{}\n{end}}}", items.join(",\n"))
        }
        Value::Array(a) => {
            let items: Vec<String> = a
                .iter()
                .map(|x| format!("{pad}{}", doc_format(x, indent + 2)))
                .collect();
            format!("[\n{}\n{end}]", items.join(",\n"))
        }
        _ => one_line,
    }
}

const LOBBY_ID: &str = "0b7d4c1e-8f3a-4d2b-9c5e-6a1f2e3d4c5b";

/// Built from JSON so that fields added later with defaults keep this
/// example valid.
fn lobby_info(status: &str, version: u64) -> LobbyInfo {
    serde_json::from_value(json!({
        "id": LOBBY_ID,
        "name": "Friday night",
        "public": true,
        "status": status,
        "options": GameOptions { players: 3, board: BoardMode::Beginner, ..GameOptions::default() },
        "turn_timer": { "enabled": true, "seconds": 90 },
        "bot_delay_ms": 800,
        "bot_offer_wait_ms": 15000,
        "seats": [
            { "seat": 0, "kind": "human", "name": "Ann", "bot": null, "connected": true },
            { "seat": 1, "kind": "human", "name": "Bob", "bot": null, "connected": false },
            { "seat": 2, "kind": "bot", "name": "Bot 3", "bot": "normal", "connected": true }
        ],
        "seats_taken": 3,
        "spectators": 1,
        "version": version
    }))
    .unwrap()
}

/// The examples, built from a real beginner-board game.
fn examples() -> Vec<(&'static str, Value)> {
    let opts = GameOptions {
        players: 3,
        board: BoardMode::Beginner,
        ..GameOptions::default()
    };
    let (mut game, opened) = Game::new(opts, 7).unwrap();
    let opener = game.active();
    let me = Viewer::Seat(opener);
    let settle = game.legal_actions(opener)[10];
    let before = game.view_without_board(me);
    let events = game.apply(opener, settle).unwrap();
    let update = |view, changes| ServerMsg::Update {
        version: 1,
        seat: Some(opener),
        stand_in: false,
        events: events.iter().map(|e| e.redacted_for(me, false)).collect(),
        view,
        changes,
        legal: game.legal_actions(opener),
        // The lobby above runs a 90 s turn timer: a new step has all of it.
        step_time_left_ms: Some(90_000),
    };
    // As protocol 3 sends it: what changed since version 0.
    let update_changes = update(None, game.view_without_board(me).changes_since(&before));
    assert!(matches!(
        &update_changes,
        ServerMsg::Update {
            changes: Some(_),
            ..
        }
    ));
    // As protocol 2 sends it: the whole view, the board left out (the
    // snapshot's).
    let update_whole = update(Some(game.view_without_board(me)), None);
    // A spectator's history of the same game: its steps redacted for it.
    let history = ServerMsg::History {
        version: 1,
        since: None,
        steps: vec![
            HistoryStep {
                version: 0,
                seat: None,
                stand_in: false,
                events: vec![opened],
            },
            HistoryStep {
                version: 1,
                seat: Some(opener),
                stand_in: false,
                events: events
                    .iter()
                    .map(|e| e.redacted_for(Viewer::Spectator, false))
                    .collect(),
            },
        ],
    };
    let snapshot = ServerMsg::Snapshot {
        version: 1,
        view: game.view(me),
        legal: game.legal_actions(opener),
        // Connected half a minute into the step.
        step_time_left_ms: Some(61_250),
    };

    let road = game.legal_actions(opener)[0];
    // The same game to a target of 3 (the target plays no part in the set
    // up), played on to its end.
    let short = GameOptions {
        vp_target: 3,
        ..opts
    };
    let (mut finished, _) = Game::new(short, 7).unwrap();
    finished.apply(opener, settle).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    Playout::new().run(&mut finished, &mut rng, 500, |_, _, _, _| {});
    assert_eq!(finished.phase(), Phase::Finished);
    let over: ServerMsg = serde_json::from_value(json!({
        "type": "game_over",
        "version": 61,
        "winner": finished.winner(),
        "view": finished.view(Viewer::Omniscient),
    }))
    .unwrap();
    let client = |m: ClientMsg| serde_json::to_value(m).unwrap();
    let server = |m: ServerMsg| serde_json::to_value(m).unwrap();
    vec![
        (
            "client_hello",
            client(ClientMsg::Hello {
                protocol: PROTOCOL_VERSION,
                token: Some(Token::from_client("<seat token from join>")),
                since: None,
            }),
        ),
        (
            "client_action",
            client(ClientMsg::Action {
                id: "a17".into(),
                version: 1,
                seat: Some(opener),
                action: road,
            }),
        ),
        (
            "client_chat",
            client(ClientMsg::Chat {
                id: "c3".into(),
                text: "good luck!".into(),
            }),
        ),
        (
            "client_resync",
            client(ClientMsg::Resync { id: "s1".into() }),
        ),
        (
            "client_test_bot_offer",
            client(ClientMsg::TestBotOffer {
                id: "t1".into(),
                bot: Seat(2),
                to: Seat(0),
            }),
        ),
        (
            "server_welcome",
            server(ServerMsg::Welcome {
                protocol: PROTOCOL_VERSION,
                lobby_id: LOBBY_ID.parse().unwrap(),
                you: me,
            }),
        ),
        (
            "server_lobby",
            server(ServerMsg::Lobby {
                lobby: lobby_info("playing", 1),
            }),
        ),
        ("server_history", server(history)),
        ("server_snapshot", server(snapshot)),
        ("server_update", server(update_changes)),
        ("server_update_whole", server(update_whole)),
        (
            "server_accepted",
            server(ServerMsg::Accepted {
                id: "a17".into(),
                version: 2,
            }),
        ),
        (
            "server_rejected",
            server(ServerMsg::Rejected {
                id: Some("a18".into()),
                code: Code::StaleVersion,
                message: "the game is at version 3, not 2; apply the latest update and retry"
                    .into(),
            }),
        ),
        (
            "server_chat",
            server(ServerMsg::Chat {
                seat: Seat(0),
                name: "Ann".into(),
                text: "good luck!".into(),
            }),
        ),
        (
            "server_presence",
            server(ServerMsg::Presence {
                seats: vec![
                    SeatPresence {
                        seat: Seat(0),
                        connected: true,
                    },
                    SeatPresence {
                        seat: Seat(1),
                        connected: false,
                    },
                    SeatPresence {
                        seat: Seat(2),
                        connected: true,
                    },
                ],
                spectators: 1,
            }),
        ),
        ("server_game_over", server(over)),
    ]
}

fn marker(name: &str) -> String {
    format!("<!-- golden: {name}.json -->\n```json\n")
}

/// Replaces the example after each marker in the protocol document.
fn rewrite_doc(doc: &str, files: &[(String, String)]) -> String {
    let mut out = doc.to_string();
    for (name, text) in files {
        let m = marker(name);
        let Some(start) = out.find(&m) else {
            panic!("docs/PROTOCOL.md lacks a marker for {name}");
        };
        let body = start + m.len();
        let end = body + out[body..].find("\n```").unwrap();
        out.replace_range(body..end, text.trim_end());
    }
    out
}

#[test]
fn golden_examples_round_trip_and_match_the_docs() {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let mut files = Vec::new();
        for (name, v) in examples() {
            let text = doc_format(&v, 0) + "\n";
            std::fs::write(golden_dir().join(format!("{name}.json")), &text).unwrap();
            files.push((name.to_string(), text));
        }
        let doc = std::fs::read_to_string(protocol_md()).unwrap();
        std::fs::write(protocol_md(), rewrite_doc(&doc, &files)).unwrap();
    }
    let doc = std::fs::read_to_string(protocol_md()).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(golden_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    // One example of every message type, client and server.
    let expected: Vec<String> = examples()
        .into_iter()
        .map(|(n, _)| format!("{n}.json"))
        .collect();
    let mut expected_sorted = expected.clone();
    expected_sorted.sort();
    assert_eq!(names, expected_sorted);
    for name in names {
        let text = std::fs::read_to_string(golden_dir().join(&name)).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        let back = if name.starts_with("client_") {
            let m: ClientMsg = serde_json::from_value(v.clone()).unwrap();
            serde_json::to_value(m).unwrap()
        } else {
            let m: ServerMsg = serde_json::from_value(v.clone()).unwrap();
            serde_json::to_value(m).unwrap()
        };
        assert_eq!(back, v, "{name} does not round-trip");
        let stem = name.trim_end_matches(".json");
        let shown = format!("{}{}\n```", marker(stem), text.trim_end());
        assert!(
            doc.contains(&shown),
            "docs/PROTOCOL.md does not show {name} as in the file"
        );
    }
}

#[test]
fn every_message_type_has_an_example() {
    let names: Vec<&str> = examples().iter().map(|(n, _)| *n).collect();
    for t in catan_protocol::CLIENT_TYPES {
        assert!(names.contains(&format!("client_{t}").as_str()), "{t}");
    }
    for t in ServerMsgKind::iter() {
        let t = t.as_str();
        assert!(names.contains(&format!("server_{t}").as_str()), "{t}");
    }
}
