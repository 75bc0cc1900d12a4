//! The `test_bot_offer` hook: refused on a server without `--test-hooks`;
//! with them, the armed bot offers one card for one to the named seat at
//! its next turn, through the ordinary action path (an `update` with a
//! `trade_offered` event). Over real WebSockets against a real server.

use crate::common;

use common::*;
use serde_json::json;
use std::time::Duration;

/// A lobby of one person (seat returned with its token) and three normal
/// bots, not started yet.
async fn person_and_bots(addr: std::net::SocketAddr) -> (Lobby, u8, String) {
    let lobby = create_lobby(addr, json!({ "name": "hook", "options": { "players": 4 } })).await;
    let (seat, token) = join(addr, &lobby, "Ann").await;
    for _ in 0..3 {
        add_bot(addr, &lobby, "normal").await;
    }
    (lobby, seat, token)
}

#[tokio::test]
async fn without_test_hooks_the_message_is_refused() {
    let srv = start(test_config()).await;
    let (lobby, seat, token) = person_and_bots(srv.addr).await;
    start_game(srv.addr, &lobby).await;
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
    // Bots do not wait for Ann's answers (she never gives any here): an
    // unarmed bot's offer would otherwise hold the game for its wait.
    let srv = start(catan_server::Config {
        test_hooks: true,
        bot_offer_wait_ms: 0,
        ..test_config()
    })
    .await;

    let (lobby, seat, token) = person_and_bots(srv.addr).await;
    let bot = (seat + 1) % 4;
    // Armed before the start, so that no update is skipped while the test
    // reads the replies.
    let mut ann = Client::connect(srv.addr, &lobby.id, Some(&token)).await;
    ann.until("welcome").await;
    // Not a bot: refused.
    ann.send(json!({ "type": "test_bot_offer", "id": "t0", "bot": seat, "to": bot }))
        .await;
    assert_eq!(ann.reply("t0").await["code"], "not_a_bot");
    ann.send(json!({ "type": "test_bot_offer", "id": "t1", "bot": bot, "to": seat }))
        .await;
    assert_eq!(ann.reply("t1").await["type"], "accepted");
    start_game(srv.addr, &lobby).await;
    let mut next = None;
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
            // The bot's own offers (to everyone) may come too; the armed
            // one goes to Ann alone.
            .find(|e| {
                e["type"] == "trade_offered"
                    && e["offer"]["maker"] == bot
                    && e["offer"]["to"] == json!([seat])
            });

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
