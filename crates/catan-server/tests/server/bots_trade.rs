//! Bots answer trade offers addressed to them; dead sockets are closed by the
//! heartbeat while live ones (which answer pings) stay open.

use crate::common;

use common::*;
use serde_json::{Value, json};
use std::time::Duration;

#[tokio::test]
async fn bots_answer_offers_made_to_them() {
    let srv = start(test_config()).await;
    // The person places its settlements on the first legal corners, which
    // on some boards touch no hex that ever produces (a desert and the
    // sea): then it never holds a card to offer and a bot wins. That says
    // nothing about the bots' answers, so another game is played.
    for game in 0..5 {
        if let Some((bots, answers)) = offer_to_bots(&srv, game).await {
            let seats: Vec<u64> = answers
                .iter()
                .map(|e| e["seat"].as_u64().unwrap())
                .collect();
            assert!(
                bots.iter().all(|b| seats.contains(&(*b as u64))),
                "{answers:?}"
            );
            return;
        }
    }
    panic!("in five games the person never held a card on its turn");
}

/// Plays one game of a person and two bots until both bots answered a
/// trade the person offered them; the bots' seats and the answers, or
/// `None` when the game ended before the person had a card to offer.
async fn offer_to_bots(srv: &Server, game: u32) -> Option<([u8; 2], Vec<Value>)> {
    let lobby = create_lobby(
        srv.addr,
        json!({ "name": format!("deal {game}"), "options": { "players": 3 } }),
    )
    .await;
    let (me_seat, token) = join(srv.addr, &lobby, "Trader").await;
    let b1 = add_bot(srv.addr, &lobby, "random").await;
    let b2 = add_bot(srv.addr, &lobby, "heuristic").await;
    let mut me = Client::connect(srv.addr, &lobby.id, Some(&token)).await;
    me.until("welcome").await;
    start_game(srv.addr, &lobby).await;
    let mut offered: Option<u64> = None;
    let mut answers: Vec<Value> = Vec::new();
    let mut mine: Vec<Value> = Vec::new();
    for _ in 0..20_000 {
        if answers.len() >= 2 {
            return Some(([b1, b2], answers));
        }
        let in_action = me.legal.iter().any(|a| a["type"] == "end_turn");
        if offered.is_none() && in_action {
            let hand = &me.view["players"][me_seat as usize]["resources"];
            let have = ["brick", "wood", "wool", "wheat", "ore"]
                .into_iter()
                .find(|r| hand[*r].as_u64().unwrap_or(0) > 0);
            let action = match have {
                Some(r) => {
                    let want = if r == "ore" { "brick" } else { "ore" };
                    json!({ "type": "offer_trade", "give": { r: 1 }, "get": { want: 1 }, "to": [b1, b2] })
                }
                None => json!({ "type": "end_turn" }),
            };
            let id = me.act(action.clone()).await;
            let r = me.reply(&id).await;
            if r["code"] == "stale_version" {
                // A bot moved between our look and our action; its update
                // came before this answer, so we see the new state: retry,
                // as a client would.
                continue;
            }
            assert_eq!(r["type"], "accepted", "{r}");
            if action["type"] == "offer_trade" {
                offered = Some(r["version"].as_u64().unwrap());
            }
            continue;
        }
        if offered.is_none()
            && !me.legal.is_empty()
            && let Some(a) = simple_choice(&me.legal)
            && a["type"] != "end_turn"
        {
            let id = me.act(a).await;
            me.reply(&id).await;
            continue;
        }
        let m = me.recv().await.expect("socket open");
        if m["type"] == "update" {
            for e in m["events"].as_array().unwrap() {
                if e["type"] == "game_won" || e["type"] == "game_drawn" {
                    assert!(offered.is_none(), "the game ended with our offer open");
                    return None;
                }
                if e["type"] == "trade_offered" && e["offer"]["maker"] == json!(me_seat) {
                    mine.push(e["offer"]["id"].clone());
                }
                // Bots also trade with each other: count answers to our offer.
                let to_mine = mine.contains(&e["offer"]);
                if to_mine && (e["type"] == "trade_accepted" || e["type"] == "trade_declined") {
                    answers.push(e.clone());
                }
            }
        }
    }
    panic!("20,000 steps without two answers: {answers:?}");
}

#[tokio::test]
async fn heartbeat_closes_dead_sockets_only() {
    let cfg = catan_server::Config {
        heartbeat_ms: 40,
        dead_socket_ms: 200,
        ..test_config()
    };
    let srv = start(cfg).await;
    let lobby = create_lobby(srv.addr, json!({ "name": "hb" })).await;
    let mut alive = Client::connect(srv.addr, &lobby.id, None).await;
    alive.until("welcome").await;
    let mut dead = Client::connect(srv.addr, &lobby.id, None).await;
    dead.until("welcome").await;
    // `alive` keeps reading, so its client answers pings; `dead` does not.
    alive.collect_for(Duration::from_millis(600)).await;
    assert!(alive.closed.is_none());
    // The close frame may be lost when the silent client finally answers the
    // queued pings on a socket the server already closed. `alive` keeps
    // reading while the test waits (on a loaded machine the wait is long,
    // and an unread client answers no ping).
    let how = {
        let closing = dead.until_closed();
        tokio::pin!(closing);
        loop {
            tokio::select! {
                how = &mut closing => break how,
                _ = alive.collect_for(Duration::from_millis(20)) => {}
            }
        }
    };
    assert!(
        matches!(&how, Closed::Frame(4009, _) | Closed::Dropped),
        "{how:?}"
    );
    // Closed by the server, not by a test timeout: the lobby saw it go.
    let path = format!("/api/lobbies/{}", lobby.id);
    let mut spectators = 2;
    for _ in 0..50 {
        // `alive` reads (and so answers pings) while the request waits too:
        // on a loaded machine an unread client was closed as dead.
        let (_, info) = {
            let ask = http(srv.addr, "GET", &path, None, None);
            tokio::pin!(ask);
            loop {
                tokio::select! {
                    answer = &mut ask => break answer,
                    _ = alive.collect_for(Duration::from_millis(20)) => {}
                }
            }
        };
        spectators = info["spectators"].as_u64().unwrap();
        if spectators == 1 {
            break;
        }
        alive.collect_for(Duration::from_millis(20)).await;
    }
    assert_eq!(spectators, 1);
    assert!(alive.closed.is_none(), "the live socket stayed open");
}
