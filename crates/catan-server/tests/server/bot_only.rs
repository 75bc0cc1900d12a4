//! Games of bots alone are bounded: they end at the turn limit (drawn when
//! nobody won), and they pause while nobody is connected instead of being
//! played out, and written to the log, for nobody.

use crate::common;

use common::*;
use serde_json::json;
use std::time::Duration;
use uuid::Uuid;

/// Actions the journal holds for a lobby.
fn logged(srv: &Server, lobby: &Lobby) -> usize {
    let id = Uuid::parse_str(&lobby.id).unwrap();
    srv.journal.record(id).map_or(0, |r| r.record.actions.len())
}

async fn bot_lobby(srv: &Server, options: serde_json::Value) -> Lobby {
    four_bots(
        srv.addr,
        json!({ "name": "Bots", "options": options }),
        "random",
    )
    .await
}

/// Random bots never reach 20 points in 30 turns: the turn limit ends the
/// game drawn, with `game_over` naming no winner and the lobby finished.
#[tokio::test]
async fn a_bot_game_at_the_turn_limit_ends_drawn() {
    let srv = start(test_config()).await;
    let lobby = bot_lobby(&srv, json!({ "vp_target": 20, "turn_limit": 30 })).await;
    let mut spec = Client::connect(srv.addr, &lobby.id, None).await;
    spec.until("welcome").await;
    start_game(srv.addr, &lobby).await;
    let over = spec.until("game_over").await;
    assert_eq!(over["winner"], serde_json::Value::Null, "{over}");
    assert_eq!(over["view"]["phase"], "finished");
    assert_eq!(over["view"]["turn"], 30);
    let drawn = spec
        .log
        .iter()
        .flat_map(|m| m["events"].as_array().cloned().unwrap_or_default())
        .any(|e| e["type"] == "game_drawn");
    assert!(drawn, "the last update carries game_drawn");
    let info = lobby_info(srv.addr, &lobby).await;
    assert_eq!(info["status"], "finished");
}

/// A lobby that does not choose a limit gets the server's.
#[tokio::test]
async fn lobbies_get_the_server_turn_limit() {
    let srv = start(catan_server::Config {
        turn_limit: 321,
        ..test_config()
    })
    .await;
    let lobby = create_lobby(srv.addr, json!({ "name": "x" })).await;
    let info = lobby_info(srv.addr, &lobby).await;
    assert_eq!(info["options"]["turn_limit"], 321);
    let (s, v) = http(
        srv.addr,
        "POST",
        "/api/lobbies",
        None,
        Some(json!({ "name": "y", "options": { "turn_limit": 5 } })),
    )
    .await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (400, Some("invalid_options"))
    );
}

/// Started with nobody connected, a game of bots waits; a spectator wakes
/// it; once the spectator leaves it waits again.
#[tokio::test]
async fn an_unwatched_bot_game_pauses() {
    let srv = start(test_config()).await;
    let lobby = bot_lobby(&srv, json!({ "vp_target": 20 })).await;
    start_game(srv.addr, &lobby).await;
    // Bots without delay would make hundreds of moves in this time.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(logged(&srv, &lobby), 0, "bots played for nobody");

    let mut spec = Client::connect(srv.addr, &lobby.id, None).await;
    spec.until("snapshot").await;
    while spec.version < 20 {
        spec.until("update").await;
    }
    spec.close().await;
    // Once the server saw the spectator go, the log stops growing.
    let path = format!("/api/lobbies/{}", lobby.id);
    loop {
        let (_, info) = http(srv.addr, "GET", &path, None, None).await;
        if info["spectators"] == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let after_leaving = logged(&srv, &lobby);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        logged(&srv, &lobby),
        after_leaving,
        "bots went on for nobody"
    );
}
