//! A `hard` bot thinks off its lobby's actor: while it searches, another
//! lobby's game goes on and its own lobby still answers its sockets. The
//! server runs on this test's single-threaded runtime, so a search on an
//! actor would stall every lobby until it ended.

use crate::common;

use common::*;
use serde_json::json;
use std::time::Duration;

#[tokio::test]
async fn a_thinking_hard_bot_delays_no_other_lobby() {
    let think = Duration::from_secs(3);
    let srv = start(catan_server::Config {
        bot_think_ms: think.as_millis() as u64,
        // Only the wall-time budget ends a search here.
        bot_think_playouts: u32::MAX,
        ..test_config()
    })
    .await;
    let (people, tokens) = started_people_only(srv.addr, 3).await;
    let mut players = Vec::new();
    for t in &tokens {
        let mut c = Client::connect(srv.addr, &people.id, Some(t)).await;
        c.until("snapshot").await;
        players.push(c);
    }

    let bots = create_lobby(
        srv.addr,
        json!({ "name": "deep thought", "options": { "players": 3 }, "bot_delay_ms": 0 }),
    )
    .await;
    for _ in 0..3 {
        add_bot(srv.addr, &bots, "hard").await;
    }
    let mut watcher = Client::connect(srv.addr, &bots.id, None).await;
    watcher.until("welcome").await;
    start_game(srv.addr, &bots).await;
    let first = watcher.until("update").await;
    assert_eq!(first["version"], 0);

    // The bot lobby's first placer now searches for `think`. Meanwhile the
    // people's whole opening (12 placements) is played and answered.
    for _ in 0..12 {
        let active = players[0].view["active"].as_u64().unwrap() as usize;
        let c = &mut players[active];
        let a = simple_choice(&c.legal).expect("the active seat has a move");
        let id = c.act(a).await;
        let r = c.reply(&id).await;
        assert_eq!(r["type"], "accepted", "{r}");
        for p in players.iter_mut() {
            while p.version < r["version"].as_u64().unwrap() {
                p.until("update").await;
            }
        }
    }
    assert_eq!(players[0].view["phase"], "pre_roll", "the opening is over");
    // The bot lobby answers its own sockets while its bot thinks.
    let id = watcher.id();
    watcher.send(json!({ "type": "resync", "id": id })).await;
    let r = watcher.reply(&id).await;
    assert_eq!(
        (r["type"].as_str(), r["version"].as_u64()),
        (Some("accepted"), Some(0))
    );
    let early: Vec<_> = watcher
        .log
        .iter()
        .filter(|m| m["type"] == "update" && m["version"].as_u64() > Some(0))
        .collect();
    assert!(
        early.is_empty(),
        "the bot moved before the others: {early:?}"
    );
    // And the bot's move arrives when its search is done.
    let next = watcher.until("update").await;
    assert_eq!(next["version"], 1);
}
