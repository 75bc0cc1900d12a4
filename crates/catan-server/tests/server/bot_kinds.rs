//! Difficulty levels over HTTP: the server lists the bot kinds, seats each
//! one per seat under its own name, reads the old name `heuristic` as
//! `normal`, and refuses an unknown kind without changing the lobby.

use crate::common;

use common::*;
use serde_json::json;

#[tokio::test]
async fn the_server_lists_and_seats_every_bot_kind() {
    let srv = start(test_config()).await;
    let (s, v) = http(srv.addr, "GET", "/api/bot-kinds", None, None).await;
    assert_eq!(s, 200, "{v}");
    let kinds: Vec<&str> = v["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["random", "easy", "normal", "hard"]);
    assert!(
        v["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .all(|k| k["description"].is_string())
    );
    assert_eq!(v["default"], "normal");

    let lobby = create_lobby(srv.addr, json!({ "name": "levels" })).await;
    for kind in ["easy", "heuristic", "hard"] {
        add_bot(srv.addr, &lobby, kind).await;
    }
    let path = format!("/api/lobbies/{}/bots", lobby.id);
    let (s, v) = http(
        srv.addr,
        "POST",
        &path,
        Some(&lobby.host),
        Some(json!({ "kind": "grandmaster" })),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    // The default kind when none is named.
    let (s, v) = http(srv.addr, "POST", &path, Some(&lobby.host), Some(json!({}))).await;
    assert_eq!(s, 200, "{v}");
    let seats: Vec<(String, String)> = v["lobby"]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["bot"].as_str().unwrap().to_string(),
                s["name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        seats,
        [
            ("easy".into(), "Easy bot 1".into()),
            ("normal".into(), "Bot 2".into()),
            ("hard".into(), "Hard bot 3".into()),
            ("normal".into(), "Bot 4".into()),
        ]
    );
}
