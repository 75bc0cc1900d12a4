//! The `test_bot_offer` hook: refused on a server without `--test-hooks`;
//! with them, the armed bot offers one card for one to the named seat at
//! its next turn, through the ordinary action path (an `update` with a
//! `trade_offered` event). Over real WebSockets against a real server.

mod common;

use common::*;
use serde_json::json;
use std::time::Duration;

/// A started game: one person (seat returned with its token) and three
/// normal bots.
async fn person_and_bots(addr: std::net::SocketAddr) -> (Lobby, u8, String) {
    let lobby = create_lobby(addr, json!({ "name": "hook", "options": { "players": 4 } })).await;
    let (seat, token) = join(addr, &lobby, "Ann").await;
    for _ in 0..3 {
        add_bot(addr, &lobby, "normal").await;
    }
    start_game(addr, &lobby).await;
    (lobby, seat, token)
}

#[tokio::test]
async fn without_test_hooks_the_message_is_refused() {
    let srv = start(test_config()).await;
    let (lobby, seat, token) = person_and_bots(srv.addr).await;
    let mut ann = Client::connect(srv.addr, &lobby.id, Some(&token)).await;
    ann.until("snapshot").await;
    ann.send(json!({ "type": "test_bot_offer", "id": "t1", "bot": (seat + 1) % 4, "to": seat }))
        .await;
    let r = ann.reply("t1").await;
    assert_eq!(r["type"], "rejected", "{r}");
    assert_eq!(r["code"], "unknown_type", "{r}");
}

#[tokio::test]
async fn the_armed_bot_offers_the_person_a_trade_at_its_turn() {
    let srv = start(catan_server::Config {
        test_hooks: true,
        ..test_config()
    })
    .await;
    let (lobby, seat, token) = person_and_bots(srv.addr).await;
    let bot = (seat + 1) % 4;
    let mut ann = Client::connect(srv.addr, &lobby.id, Some(&token)).await;
    let mut next = Some(ann.until("snapshot").await);
    // Not a bot: refused.
    ann.send(json!({ "type": "test_bot_offer", "id": "t0", "bot": seat, "to": bot }))
        .await;
    assert_eq!(ann.reply("t0").await["code"], "not_a_bot");
    ann.send(json!({ "type": "test_bot_offer", "id": "t1", "bot": bot, "to": seat }))
        .await;
    assert_eq!(ann.reply("t1").await["type"], "accepted");
    // Ann plays simply (never answering offers) until the bot offers.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        assert!(tokio::time::Instant::now() < deadline, "no offer came");
        let m = match next.take() {
            Some(m) => m,
            None => ann.recv().await.expect("socket open"),
        };

        if m["type"] != "update" && m["type"] != "snapshot" {
            continue;
        }
        let offered = m["events"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|e| e["type"] == "trade_offered" && e["offer"]["maker"] == bot);
        if let Some(e) = offered {
            let o = &e["offer"];
            assert_eq!(o["to"], json!([seat]), "{o}");
            assert_eq!(o["counter"], false);
            let count = |set: &serde_json::Value| -> u64 {
                set.as_object()
                    .unwrap()
                    .values()
                    .map(|v| v.as_u64().unwrap())
                    .sum()
            };
            assert_eq!((count(&o["give"]), count(&o["get"])), (1, 1), "{o}");
            return;
        }
        let legal = m["legal"].as_array().cloned().unwrap_or_default();
        let answering = legal
            .iter()
            .any(|a| a["type"] == "accept_trade" || a["type"] == "decline_trade");
        if !answering && let Some(a) = simple_choice(&legal) {
            ann.act(a).await;
        }
    }
}
