//! A panic in one lobby's task stays in that lobby: the registry removes
//! exactly that actor (no zombie answering `lobby_not_found` and holding a
//! slot), its sockets are closed with 1011, other lobbies play on, and the
//! durable game comes back from its log on the next request.

use crate::harness;

use harness::*;
use serde_json::json;
use std::time::Duration;
use uuid::Uuid;

const BOOM: &str = "fault injection, please panic";

async fn a_panicking_lobby_is_removed_and_resumed(backend: Backend) {
    let db = TestDb::new(backend).await;
    let srv = start_in_process_with(&db, |c| c.panic_on_chat = Some(BOOM.into())).await;
    let (doomed, people) = started_lobby(srv.addr, &["Alice"], 3).await;
    let (calm, calm_people) = started_lobby(srv.addr, &["Carol"], 3).await;
    let (seat, token) = people[0].clone();
    let doomed_id = Uuid::parse_str(&doomed).unwrap();

    let alice = Player::connect(srv.addr, &doomed, Some((seat, &token))).await;
    let mut alice = alice.play(Some(6)).await;
    let before = (alice.version, alice.view.clone(), alice.legal.clone());
    let mut carol =
        Player::connect(srv.addr, &calm, Some((calm_people[0].0, &calm_people[0].1))).await;

    // The bug strikes in Alice's lobby.
    alice
        .send(json!({ "type": "chat", "id": "c1", "text": BOOM }))
        .await;
    assert_eq!(
        alice.closed_with().await,
        Some(1011),
        "sockets hear the lobby failed"
    );
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    // The supervisor notes the panic once the task has unwound.
    while srv.state.registry.get(doomed_id).is_some() || srv.state.registry.panics() == 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the failed actor stayed registered"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(srv.state.registry.panics(), 1);

    // Carol's lobby never noticed.
    let snap = carol.resync().await;
    assert_eq!(snap["version"].as_u64(), Some(carol.version));
    let target = carol.version + 3;
    let carol = carol.play(Some(target)).await;
    assert!(
        carol.refusals.iter().all(|c| c == "stale_version"),
        "{:?}",
        carol.refusals
    );

    // The next request for Alice's lobby brings the game back from its log.
    let (st, info) = http(
        srv.addr,
        "GET",
        &format!("/api/lobbies/{doomed}"),
        None,
        None,
    )
    .await;
    assert_eq!(st, 200, "{info}");
    assert_eq!(info["status"], "playing");
    let mut alice = Player::connect(srv.addr, &doomed, Some((seat, &token))).await;
    assert_eq!(alice.version, before.0);
    assert_eq!(alice.view, before.1);
    assert_eq!(alice.legal, before.2);
    let target = alice.version + 3;
    alice = alice.play(Some(target)).await;
    assert!(
        alice.refusals.iter().all(|c| c == "stale_version"),
        "{:?}",
        alice.refusals
    );
    assert_eq!(srv.state.registry.panics(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_lobby_is_removed_and_resumed_on_sqlite() {
    a_panicking_lobby_is_removed_and_resumed(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_lobby_is_removed_and_resumed_on_postgres() {
    a_panicking_lobby_is_removed_and_resumed(Backend::Postgres).await;
}

/// A lobby that fails before its game started has nothing to resume: it is
/// gone (`lobby_not_found`), and the slot it held is free again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_lobby_that_panics_frees_its_slot() {
    let db = TestDb::new(Backend::Sqlite).await;
    let srv = start_in_process_with(&db, |c| {
        c.panic_on_chat = Some(BOOM.into());
        c.max_lobbies_per_client = 1;
    })
    .await;
    let (st, v) = http(
        srv.addr,
        "POST",
        "/api/lobbies",
        None,
        Some(json!({ "name": "w" })),
    )
    .await;
    assert_eq!(st, 201, "{v}");
    let id = v["lobby"]["id"].as_str().unwrap().to_string();
    let (st, j) = http(
        srv.addr,
        "POST",
        &format!("/api/lobbies/{id}/join"),
        None,
        Some(json!({ "name": "Ann" })),
    )
    .await;
    assert_eq!(st, 200, "{j}");
    let token = j["token"].as_str().unwrap().to_string();
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/api/lobbies/{id}/ws", srv.addr))
            .await
            .unwrap();
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let hello = json!({ "type": "hello", "protocol": 1, "token": token });
    ws.send(Message::text(hello.to_string())).await.unwrap();
    let chat = json!({ "type": "chat", "id": "c", "text": BOOM });
    ws.send(Message::text(chat.to_string())).await.unwrap();
    let code = loop {
        match tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("socket stayed open")
        {
            Some(Ok(Message::Close(f))) => break f.map(|f| u16::from(f.code)),
            Some(Ok(_)) => {}
            _ => break None,
        }
    };
    assert_eq!(code, Some(1011));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (st, v) = http(srv.addr, "GET", &format!("/api/lobbies/{id}"), None, None).await;
        if st == 404 {
            assert_eq!(v["error"]["code"], "lobby_not_found");
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "zombie lobby: {st} {v}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The one lobby this client may hold is free again.
    let (st, v) = http(
        srv.addr,
        "POST",
        "/api/lobbies",
        None,
        Some(json!({ "name": "again" })),
    )
    .await;
    assert_eq!(st, 201, "{v}");
}
