//! Two people and two bots play the opening and several turns through real
//! sockets.

use crate::common;

use common::*;
use serde_json::json;

/// Drives one human client with `simple_choice` until the game reaches
/// `turns` turns; returns how many of its actions were accepted.
async fn drive(mut c: Client, seat: u8, turns: u64) -> (u64, Client) {
    let mut accepted = 0;
    let mut pending: Option<(String, u64)> = None;
    loop {
        if c.view["turn"].as_u64().unwrap_or(0) >= turns {
            return (accepted, c);
        }
        if pending.is_none()
            && !c.legal.is_empty()
            && let Some(a) = simple_choice(&c.legal)
        {
            let id = c.act(a).await;
            pending = Some((id, c.version));
        }
        let Some(m) = c.recv().await else {
            panic!("seat {seat} socket closed: {:?}", c.closed)
        };
        match m["type"].as_str().unwrap() {
            "accepted" => {
                accepted += 1;
                pending = None;
            }
            "rejected" => {
                assert_eq!(m["code"], "stale_version", "seat {seat}: {m}");
                pending = None;
            }
            _ => {}
        }
    }
}

#[tokio::test]
async fn two_humans_two_bots_play_opening_and_turns() {
    let srv = start(test_config()).await;
    let lobby = create_lobby(
        srv.addr,
        json!({ "name": "Friday", "options": { "players": 4 }, "bot_delay_ms": 0 }),
    )
    .await;
    let (s1, t1) = join(srv.addr, &lobby, "Ann").await;
    let (s2, t2) = join(srv.addr, &lobby, "Bob").await;
    add_bot(srv.addr, &lobby, "normal").await;
    add_bot(srv.addr, &lobby, "random").await;
    let mut a = Client::connect(srv.addr, &lobby.id, Some(&t1)).await;
    let mut b = Client::connect(srv.addr, &lobby.id, Some(&t2)).await;
    let w = a.until("welcome").await;
    assert_eq!(w["you"], json!({ "kind": "seat", "seat": s1 }));
    b.until("welcome").await;
    start_game(srv.addr, &lobby).await;
    a.until("update").await;
    b.until("update").await;
    let (ra, rb) = tokio::join!(drive(a, s1, 6), drive(b, s2, 6));
    let (na, a) = ra;
    let (nb, b) = rb;
    // Each person placed two settlements and two roads at least.
    assert!(na >= 4 && nb >= 4, "{na} {nb}");
    for c in [&a, &b] {
        assert!(c.view["turn"].as_u64().unwrap() >= 6);
        let me = &c.view["viewer"]["seat"];
        let mine = &c.view["players"][me.as_u64().unwrap() as usize];
        assert!(mine["settlements"].as_array().unwrap().len() >= 2);
    }
    // The journal holds every accepted action in order.
    let rec = srv
        .journal
        .record(lobby.id.parse().unwrap())
        .expect("game recorded");
    assert!(rec.record.actions.len() as u64 >= a.version.min(b.version));
    assert!(
        rec.record
            .actions
            .iter()
            .enumerate()
            .all(|(i, e)| e.seq == i as u64 + 1)
    );
}
