//! A running game nobody is connected to is unloaded from memory after the
//! lobby idle time (it does not hold a lobby slot for ever), and comes back
//! from its log, unchanged, as soon as someone asks for it.

#[path = "common/persist.rs"]
mod harness;

use harness::*;
use serde_json::json;
use std::time::Duration;
use uuid::Uuid;

/// A started lobby with one person (Alice) and three bots; her seat and token.
async fn alice_and_three_bots(addr: std::net::SocketAddr) -> (String, u8, String) {
    let (st, v) = http(
        addr,
        "POST",
        "/api/lobbies",
        None,
        Some(json!({ "name": "Unload", "bot_delay_ms": 0 })),
    )
    .await;
    assert_eq!(st, 201, "{v}");
    let lobby = v["lobby"]["id"].as_str().unwrap().to_string();
    let host = v["host_token"].as_str().unwrap().to_string();
    let (st, v) = http(
        addr,
        "POST",
        &format!("/api/lobbies/{lobby}/join"),
        None,
        Some(json!({ "name": "Alice" })),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    let seat = v["seat"].as_u64().unwrap() as u8;
    let token = v["token"].as_str().unwrap().to_string();
    for _ in 0..3 {
        let path = format!("/api/lobbies/{lobby}/bots");
        let (st, v) = http(addr, "POST", &path, Some(&host), Some(json!({}))).await;
        assert_eq!(st, 200, "{v}");
    }
    let path = format!("/api/lobbies/{lobby}/start");
    let (st, v) = http(addr, "POST", &path, Some(&host), None).await;
    assert_eq!(st, 200, "{v}");
    (lobby, seat, token)
}

async fn idle_game_is_unloaded_and_resumed_on_demand(backend: Backend) {
    let db = TestDb::new(backend).await;
    let srv = start_in_process_with(&db, |c| c.lobby_idle_ms = 300).await;
    let (lobby, seat, token) = alice_and_three_bots(srv.addr).await;
    let id = Uuid::parse_str(&lobby).unwrap();

    // Alice plays a little (the bots answer at once), stops when the game
    // waits for her, and leaves: nobody is connected any more.
    let alice = Player::connect(srv.addr, &lobby, Some((seat, &token))).await;
    let alice = alice.play(Some(10)).await;
    let before = (alice.version, alice.view.clone(), alice.legal.clone());
    assert!(!before.2.is_empty(), "the game waits for Alice");
    drop(alice);

    // Nobody connected and the idle time passed: the lobby leaves memory.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while srv.state.registry.get(id).is_some() {
        assert!(tokio::time::Instant::now() < deadline, "never unloaded");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (st, list) = http(srv.addr, "GET", "/api/lobbies", None, None).await;
    assert_eq!(st, 200);
    assert!(
        !list.to_string().contains(&lobby),
        "an unloaded game is not listed: {list}"
    );

    // Alice comes back by her link: the same position, her seat, her moves.
    let (st, info) = http(
        srv.addr,
        "GET",
        &format!("/api/lobbies/{lobby}"),
        None,
        None,
    )
    .await;
    assert_eq!(st, 200, "{info}");
    assert_eq!(info["status"], "playing");
    let mut alice = Player::connect(srv.addr, &lobby, Some((seat, &token))).await;
    assert!(srv.state.registry.get(id).is_some(), "resumed into memory");
    // The game was waiting for Alice: it comes back exactly as she left it.
    assert_eq!(alice.version, before.0);
    assert_eq!(alice.view, before.1);
    assert_eq!(alice.legal, before.2);
    // And it plays on from there.
    let target = alice.version + 3;
    alice = alice.play(Some(target)).await;
    assert!(alice.version >= target || alice.over.is_some());
    // A bot may move between Alice's look and her action (stale_version,
    // which she retries); nothing else may be refused.
    assert!(
        alice.refusals.iter().all(|c| c == "stale_version"),
        "{:?}",
        alice.refusals
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_game_is_unloaded_and_resumed_on_demand_on_postgres() {
    idle_game_is_unloaded_and_resumed_on_demand(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_game_is_unloaded_and_resumed_on_demand_on_sqlite() {
    idle_game_is_unloaded_and_resumed_on_demand(Backend::Sqlite).await;
}
