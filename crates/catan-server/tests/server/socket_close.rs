//! How the server ends sockets it closes itself: every admitted request is
//! answered once, in order, with its id; the documented close code arrives
//! (not an abrupt 1006); and a peer that stops reading cannot park its
//! socket task.

use crate::common;

use common::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::net::TcpSocket;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// Waits until `f` holds, polling; panics after `limit`.
async fn eventually(limit: Duration, mut f: impl FnMut() -> bool) {
    let end = tokio::time::Instant::now() + limit;
    while !f() {
        assert!(
            tokio::time::Instant::now() < end,
            "condition not met in {limit:?}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A flooding client keeps sending while it reads. Every request that got
/// an answer got exactly one, the answers come in the order the requests
/// were sent with no gap, rate-limited refusals carry their request id, and
/// the socket ends with the 1008 close frame (before, refusals had `id: null`
/// and the close was abrupt enough to lose queued answers).
#[tokio::test]
async fn a_flood_is_answered_in_order_then_closed_with_1008() {
    let cfg = catan_server::Config {
        rate_burst: 5,
        rate_per_sec: 1.0,
        flood_strikes: 10,
        ..test_config()
    };
    let srv = start(cfg).await;
    let (lobby, tokens) = started_people_only(srv.addr, 3).await;
    let url = format!("ws://{}/api/lobbies/{}/ws", srv.addr, lobby.id);
    let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let (mut tx, mut rx) = ws.split();
    let hello = json!({ "type": "hello", "protocol": 1, "token": tokens[0] });
    tx.send(Message::text(hello.to_string())).await.unwrap();
    let sent = 200;
    let sender = tokio::spawn(async move {
        for i in 0..sent {
            let m = json!({ "type": "resync", "id": format!("q{i}") });
            if tx.send(Message::text(m.to_string())).await.is_err() {
                break;
            }
        }
        tx
    });
    let mut answers: Vec<Value> = Vec::new();
    let close = loop {
        match tokio::time::timeout(WAIT, rx.next())
            .await
            .expect("server went silent")
        {
            Some(Ok(Message::Text(t))) => {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["type"] == "accepted" || v["type"] == "rejected" {
                    answers.push(v);
                }
            }
            Some(Ok(Message::Close(f))) => break f,
            Some(Ok(_)) => {}
            other => panic!("socket ended without a close frame: {other:?}"),
        }
    };
    let frame = close.expect("a close frame with a code");
    assert_eq!(frame.code, CloseCode::Policy, "{frame:?}");
    let _ = sender.await;
    assert!(!answers.is_empty());
    for (i, a) in answers.iter().enumerate() {
        assert_eq!(a["id"], format!("q{i}"), "answer {i} out of order: {a}");
    }
    let limited: Vec<&Value> = answers
        .iter()
        .filter(|a| a["code"] == "rate_limited")
        .collect();
    assert!(!limited.is_empty(), "the flood was never refused for rate");
    assert!(answers.len() < sent, "the flood was never cut off");
}

/// A client that stops reading while its answers pile up: the server drops
/// its connection within a bounded time (writes have a deadline) instead of
/// leaving a socket task parked in a write for good, and other connections
/// to the same lobby keep working meanwhile.
#[tokio::test]
async fn a_peer_that_stops_reading_is_dropped_and_others_play_on() {
    let cfg = catan_server::Config {
        conn_queue: 8,
        write_timeout_ms: 300,
        ..test_config()
    };
    let srv = start(cfg).await;
    let (lobby, tokens) = started_people_only(srv.addr, 3).await;

    // A socket with a tiny receive buffer that will never be read.
    let sock = TcpSocket::new_v4().unwrap();
    sock.set_recv_buffer_size(4096).unwrap();
    let stream = sock.connect(srv.addr).await.unwrap();
    let url = format!("ws://{}/api/lobbies/{}/ws", srv.addr, lobby.id);
    let (mut stuck, _) = tokio_tungstenite::client_async(url, stream).await.unwrap();
    let hello = json!({ "type": "hello", "protocol": 1, "token": tokens[1] });
    stuck.send(Message::text(hello.to_string())).await.unwrap();

    let mut watcher = Client::connect(srv.addr, &lobby.id, None).await;
    watcher.until("snapshot").await;
    eventually(WAIT, || srv.state.open_sockets() == 2).await;

    // Ask for far more than any socket buffer holds, without reading.
    for i in 0..2000 {
        let m = json!({ "type": "resync", "id": format!("s{i}") });
        if stuck.send(Message::text(m.to_string())).await.is_err() {
            break;
        }
    }
    // The stuck socket's task ends by itself: only the watcher is left.
    eventually(Duration::from_secs(20), || srv.state.open_sockets() == 1).await;

    // The lobby still answers its other connections at once.
    watcher.send(json!({ "type": "resync", "id": "w1" })).await;
    assert_eq!(watcher.reply("w1").await["type"], "accepted");
    let mut seat0 = Client::connect(srv.addr, &lobby.id, Some(&tokens[0])).await;
    seat0.until("snapshot").await;
    assert!(watcher.closed.is_none());
}

/// Sockets that have not said hello are capped: one over the cap is refused
/// with 503 before the upgrade, and a hello frees its place.
#[tokio::test]
async fn sockets_before_hello_are_capped() {
    let cfg = catan_server::Config {
        max_unauthenticated: 2,
        ..test_config()
    };
    let srv = start(cfg).await;
    let lobby = create_lobby(srv.addr, json!({ "name": "cap" })).await;
    let url = format!("ws://{}/api/lobbies/{}/ws", srv.addr, lobby.id);
    let mut a = Client::open(srv.addr, &lobby.id).await;
    let _b = Client::open(srv.addr, &lobby.id).await;
    match tokio_tungstenite::connect_async(url.clone()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status(), 503);
        }
        other => panic!("a third silent socket was let in: {:?}", other.map(|_| ())),
    }
    a.send(json!({ "type": "hello", "protocol": 1 })).await;
    a.until("welcome").await;
    let c = tokio_tungstenite::connect_async(url).await;
    assert!(c.is_ok(), "a hello did not free its place");
}
