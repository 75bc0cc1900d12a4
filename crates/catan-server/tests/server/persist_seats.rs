//! A seat that changed hands mid-game is stored: after a restart the bot
//! that took over a leaving player's seat is still there, and the old seat
//! token no longer opens it.

use crate::harness;

use futures_util::{SinkExt, StreamExt};
use harness::*;
use serde_json::{Value, json};
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

/// Says hello with `token` and returns the first answer.
async fn hello(addr: std::net::SocketAddr, lobby: &str, token: &str) -> Value {
    let (mut ws, _) = connect_async(format!("ws://{addr}/api/lobbies/{lobby}/ws"))
        .await
        .unwrap();
    let hello = json!({ "type": "hello", "protocol": 1, "token": token });
    ws.send(Message::text(hello.to_string())).await.unwrap();
    loop {
        match tokio::time::timeout(WAIT, ws.next()).await.unwrap() {
            Some(Ok(Message::Text(t))) => return serde_json::from_str(t.as_str()).unwrap(),
            Some(Ok(_)) => continue,
            other => panic!("socket ended: {other:?}"),
        }
    }
}

async fn seat_change_survives_restart(backend: Backend) {
    let db = TestDb::new(backend).await;
    let first = start_in_process(&db).await;
    let (lobby, humans) = lobby_two_humans_two_bots(first.addr).await;
    let (bob_seat, bob_token) = humans[1].clone();
    let (st, v) = http(
        first.addr,
        "POST",
        &format!("/api/lobbies/{lobby}/leave"),
        Some(&bob_token),
        None,
    )
    .await;
    assert_eq!(st, 200, "{v}");
    let (ann_seat, ann_token) = &humans[0];
    let ann = Player::connect(first.addr, &lobby, Some((*ann_seat, ann_token))).await;
    let ann = ann.play(Some(8)).await;
    let version = ann.version;

    // A second server on the same database recovers the lobby.
    let second = start_in_process(&db).await;
    let (st, info) = http(
        second.addr,
        "GET",
        &format!("/api/lobbies/{lobby}"),
        None,
        None,
    )
    .await;
    assert_eq!(st, 200, "{info}");
    let seat = &info["seats"][usize::from(bob_seat)];
    assert_eq!(seat["kind"], "bot", "{info}");
    assert_eq!(seat["name"], "Bob (bot)");
    assert_eq!(info["version"].as_u64(), Some(version));
    let refused = hello(second.addr, &lobby, &bob_token).await;
    assert_eq!(refused["code"], "invalid_token", "{refused}");
    let welcome = hello(second.addr, &lobby, ann_token).await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seat_taken_over_by_a_bot_survives_a_restart_on_postgres() {
    seat_change_survives_restart(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seat_taken_over_by_a_bot_survives_a_restart_on_sqlite() {
    seat_change_survives_restart(Backend::Sqlite).await;
}
