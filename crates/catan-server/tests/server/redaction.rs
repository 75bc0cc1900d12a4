//! Redaction audit (R46-R48): over several full games, every message each
//! seat and a spectator received is checked structurally for what that
//! viewer must not know.

use crate::common;

use common::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

/// Plays one seat with uniformly random legal actions until the game ends.
async fn play_randomly(mut c: Client, seed: u64) -> Client {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pending = false;
    loop {
        if !pending && !c.legal.is_empty() {
            let a = c.legal[rng.random_range(0..c.legal.len())].clone();
            c.act(a).await;
            pending = true;
        }
        let Some(m) = c.recv().await else {
            panic!("socket closed: {:?}", c.closed)
        };
        match m["type"].as_str().unwrap() {
            "accepted" => pending = false,
            "rejected" => {
                assert_eq!(m["code"], "stale_version", "{m}");
                pending = false;
            }
            "game_over" => return c,
            _ => {}
        }
    }
}

/// `viewer`: Some(seat) or None for a spectator. `tokens` must never appear;
/// the `seed` only in `game_over`, where the seed commitment is opened.
fn audit(msg: &Value, viewer: Option<u64>, tokens: &[String], seed: u64) {
    let text = msg.to_string();
    for s in tokens {
        assert!(
            !text.contains(s.as_str()),
            "a token leaked to {viewer:?}: {text:.200}"
        );
    }
    let final_reveal = msg["type"] == "game_over";
    if !final_reveal {
        assert!(
            !text.contains(&seed.to_string()),
            "the seed leaked to {viewer:?}"
        );
    }
    walk(msg, viewer, final_reveal, false);
    // A protocol 3 update names a player's changed fields under the seat
    // number, without the player's `seat` field `walk` reads.
    if let Some(players) = msg.pointer("/changes/players").and_then(Value::as_object) {
        let finished = msg["changes"]["phase"] == "finished";
        for (seat, fields) in players {
            let seat: u64 = seat.parse().expect("players keyed by seat");
            if Some(seat) == viewer {
                continue;
            }
            let mut hidden = vec!["resources", "dev_cards", "dev_cards_new"];
            if !finished {
                hidden.extend(["victory_points", "revealed_vp_cards"]);
            }
            for k in hidden {
                assert!(
                    fields.get(k).is_none_or(Value::is_null),
                    "{k} of seat {seat} shown to {viewer:?}"
                );
            }
        }
    }
}

/// `finished`: inside a view of a finished game, where points are public (R45).
fn walk(v: &Value, viewer: Option<u64>, final_reveal: bool, finished: bool) {
    match v {
        Value::Object(m) => {
            let finished = finished || m.get("phase").is_some_and(|p| p == "finished");
            for k in ["deck", "rng", "token", "host_token", "token_hash"] {
                assert!(!m.contains_key(k), "field {k} sent to {viewer:?}");
            }
            assert!(
                final_reveal || !m.contains_key("seed"),
                "seed sent to {viewer:?}"
            );
            // A player in a view (a player's changes, keyed by seat, are
            // audited in `audit`).
            if m.contains_key("resource_count") && m.contains_key("seat") && !final_reveal {
                let seat = m["seat"].as_u64().unwrap();
                if Some(seat) != viewer {
                    for k in ["resources", "dev_cards", "dev_cards_new"] {
                        assert!(m[k].is_null(), "{k} of seat {seat} shown to {viewer:?}");
                    }
                    if !finished {
                        for k in ["victory_points", "revealed_vp_cards"] {
                            assert!(m[k].is_null(), "{k} of seat {seat} shown to {viewer:?}");
                        }
                    }
                }
            }
            match m.get("type").and_then(|t| t.as_str()) {
                Some("stole") => {
                    let involved = [m["thief"].as_u64(), m["victim"].as_u64()];
                    if !involved.contains(&viewer) {
                        assert!(m["resource"].is_null(), "stolen card shown to {viewer:?}");
                    }
                }
                Some("dev_card_bought") if m["seat"].as_u64() != viewer => {
                    assert!(m["card"].is_null(), "bought card shown to {viewer:?}");
                }
                _ => {}
            }
            if let Some(Value::String(kind)) = m.get("kind")
                && kind == "omniscient"
            {
                assert!(final_reveal, "an omniscient view before the end");
            }
            for x in m.values() {
                walk(x, viewer, final_reveal, finished);
            }
        }
        Value::Array(a) => a
            .iter()
            .for_each(|x| walk(x, viewer, final_reveal, finished)),
        _ => {}
    }
}

#[tokio::test]
async fn r46_r48_no_viewer_learns_hidden_information() {
    let srv = start(test_config()).await;
    for game in 0..4u64 {
        let players = if game % 2 == 0 { 4 } else { 3 };
        let lobby = create_lobby(
            srv.addr,
            json!({ "name": format!("audit {game}"), "options": { "players": players, "vp_target": 8 } }),
        )
        .await;
        let mut secrets = vec![lobby.host.clone()];
        let mut clients = Vec::new();
        for i in 0..players {
            let (_, token) = join(srv.addr, &lobby, &format!("P{i}")).await;
            secrets.push(token.clone());
            let mut c = Client::connect(srv.addr, &lobby.id, Some(&token)).await;
            c.until("welcome").await;
            clients.push(c);
        }
        let mut spec = Client::connect(srv.addr, &lobby.id, None).await;
        spec.until("welcome").await;
        start_game(srv.addr, &lobby).await;
        let tasks: Vec<_> = clients
            .into_iter()
            .enumerate()
            .map(|(i, c)| tokio::spawn(play_randomly(c, game * 10 + i as u64)))
            .collect();
        let mut done = Vec::new();
        for t in tasks {
            done.push(t.await.unwrap());
        }
        spec.until("game_over").await;
        let seed = srv
            .journal
            .record(lobby.id.parse().unwrap())
            .unwrap()
            .record
            .seed
            .unwrap()
            .seed;
        let mut seen_hidden_event = false;
        for (i, c) in done.iter().enumerate() {
            for m in &c.log {
                audit(m, Some(i as u64), &secrets, seed);
            }
            // And each view as the client put it together from changes.
            for v in &c.views {
                walk(v, Some(i as u64), false, false);
            }
            seen_hidden_event |= c.raw.iter().any(|r| r.contains("\"stole\""));
        }
        for m in &spec.log {
            audit(m, None, &secrets, seed);
        }
        for v in &spec.views {
            walk(v, None, false, false);
        }
        assert!(spec.views.len() > 50);
        assert!(spec.log.len() > 50);
        assert!(
            seen_hidden_event,
            "the audit should see at least one robbery"
        );
    }
}
