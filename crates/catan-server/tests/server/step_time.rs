//! The time left for the current step (issue 11, item 6): with the turn
//! timer on, every snapshot and update carries `step_time_left_ms`, so a
//! reloaded page counts down from where the step is instead of from the
//! full time. Over real WebSockets against a real server.

use crate::common;

use common::*;
use serde_json::{Value, json};
use std::time::Duration;

/// A started two-person game (nothing moves unless a client acts) with the
/// given turn timer; returns the lobby and the seat tokens by seat.
async fn two_people(addr: std::net::SocketAddr, timer: Value) -> (Lobby, Vec<String>) {
    let lobby = create_lobby(
        addr,
        json!({ "name": "step time", "options": { "players": 3 }, "turn_timer": timer }),
    )
    .await;
    let mut tokens = vec![String::new(); 3];
    for name in ["A", "B", "C"] {
        let (seat, token) = join(addr, &lobby, name).await;
        tokens[seat as usize] = token;
    }
    start_game(addr, &lobby).await;
    (lobby, tokens)
}

fn left(msg: &Value) -> u64 {
    msg["step_time_left_ms"]
        .as_u64()
        .unwrap_or_else(|| panic!("no step_time_left_ms in {msg}"))
}

#[tokio::test]
async fn snapshots_carry_the_time_left_and_it_runs_down() {
    let srv = start(test_config()).await;
    let (lobby, tokens) = two_people(srv.addr, json!({ "enabled": true, "seconds": 60 })).await;
    let mut a = Client::connect(srv.addr, &lobby.id, Some(&tokens[0])).await;
    let first = a.until("snapshot").await;
    let t1 = left(&first);
    assert!(t1 <= 60_000, "{t1}");
    assert!(t1 > 50_000, "a fresh step has nearly all its time: {t1}");
    // Some time later a fresh snapshot (what a reload gets) has less left:
    // the clock is the server's and did not restart.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let id = a.id();
    a.send(json!({ "type": "resync", "id": id })).await;
    let second = a.until("snapshot").await;
    assert_eq!(second["version"], first["version"], "nothing was played");
    let t2 = left(&second);
    assert!(t2 + 300 <= t1, "the time left went from {t1} to {t2} ms");
    // A spectator's snapshot tells the same clock.
    let mut spec = Client::connect(srv.addr, &lobby.id, None).await;
    let seen = spec.until("snapshot").await;
    assert!(left(&seen) <= t2, "{} > {t2}", left(&seen));
}

#[tokio::test]
async fn an_action_starts_the_next_step_with_the_full_time() {
    let srv = start(test_config()).await;
    let (lobby, tokens) = two_people(srv.addr, json!({ "enabled": true, "seconds": 60 })).await;
    let mut clients = Vec::new();
    for t in &tokens {
        clients.push(Client::connect(srv.addr, &lobby.id, Some(t)).await);
    }
    // Whoever opens places a settlement after a wait; the update that
    // follows starts the road step with (nearly) all 60 seconds.
    let mut opener = None;
    for (i, c) in clients.iter_mut().enumerate() {
        let snap = c.until("snapshot").await;
        if !snap["legal"].as_array().unwrap().is_empty() {
            opener = Some((i, snap));
        }
    }
    let (i, snap) = opener.expect("someone opens");
    tokio::time::sleep(Duration::from_millis(400)).await;
    let id = clients[i].id();
    clients[i].send(json!({ "type": "resync", "id": id })).await;
    let late = clients[i].until("snapshot").await;
    assert!(left(&late) < left(&snap), "{late}");
    let action = snap["legal"][0].clone();
    clients[i].act(action).await;
    // The reply comes first; the update that the others see too follows.
    let other = (i + 1) % clients.len();
    let update = clients[other].until("update").await;
    let t = left(&update);

    assert!(
        t > left(&late),
        "the new step has {t} ms, the old one had {}",
        left(&late)
    );

    assert!(t <= 60_000, "{t}");
}

#[tokio::test]
async fn without_a_timer_no_time_is_sent() {
    let srv = start(test_config()).await;
    let (lobby, tokens) = two_people(srv.addr, json!({ "enabled": false, "seconds": 60 })).await;
    let mut a = Client::connect(srv.addr, &lobby.id, Some(&tokens[0])).await;
    let snap = a.until("snapshot").await;
    assert!(snap.get("step_time_left_ms").is_none(), "{snap}");
}
