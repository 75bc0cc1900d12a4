//! Absent and slow players: a conservative stand-in acts for a slow player
//! when the turn timer is on, and for a disconnected one after the grace
//! period with or without the timer; it is marked in the update and the
//! journal, and the seat is theirs again when they come back.

use crate::common;

use common::*;
use serde_json::json;
use std::time::Duration;

/// A server that gives a disconnected player only 50 ms before a stand-in.
async fn start_with_short_grace() -> Server {
    start(catan_server::Config {
        turn_grace_ms: 50,
        ..test_config()
    })
    .await
}

#[tokio::test]
async fn slow_player_gets_a_stand_in_marked_as_such() {
    let srv = start(test_config()).await;
    let lobby = create_lobby(
        srv.addr,
        json!({ "name": "timer", "options": { "players": 3 },
                "turn_timer": { "enabled": true, "seconds": 1 }, "bot_delay_ms": 0 }),
    )
    .await;
    let (_, token) = join(srv.addr, &lobby, "Slow").await;
    add_bot(srv.addr, &lobby, "random").await;
    add_bot(srv.addr, &lobby, "random").await;
    let mut me = Client::connect(srv.addr, &lobby.id, Some(&token)).await;
    me.until("welcome").await;
    start_game(srv.addr, &lobby).await;
    // Never act: the stand-in must carry the seat through the opening.
    let mut stood_in = 0;
    while stood_in < 2 {
        let m = me.recv_within(Duration::from_secs(5)).await.unwrap();
        if m["type"] == "update" && m["stand_in"] == true {
            stood_in += 1;
        }
    }
    let rec = srv.journal.record(lobby.id.parse().unwrap()).unwrap();
    let marked: Vec<_> = rec.record.actions.iter().filter(|a| a.stand_in).collect();
    assert!(marked.len() >= 2);
    // Stand-ins act for the absent person, never for a bot seat.
    assert!(
        marked
            .iter()
            .all(|a| rec.record.seats[a.seat.index()].bot.is_none())
    );
    // The player is still seated and may act themselves.
    let info = lobby_info(srv.addr, &lobby).await;
    assert_eq!(
        info["seats"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["kind"] == "human")
            .count(),
        1
    );
}

#[tokio::test]
async fn disconnected_player_is_stood_in_after_the_grace_and_gets_the_seat_back() {
    let srv = start_with_short_grace().await;
    let lobby = create_lobby(
        srv.addr,
        json!({ "name": "grace", "options": { "players": 3, "vp_target": 5 },
                "turn_timer": { "enabled": true, "seconds": 600 }, "bot_delay_ms": 0 }),
    )
    .await;
    let (seat, token) = join(srv.addr, &lobby, "Gone").await;
    add_bot(srv.addr, &lobby, "random").await;
    add_bot(srv.addr, &lobby, "random").await;
    let mut spec = Client::connect(srv.addr, &lobby.id, None).await;
    spec.until("welcome").await;
    start_game(srv.addr, &lobby).await;
    // Nobody plays seat 0, which never connected: after the short grace the
    // stand-in keeps the game going although the step timer is long.
    let mut seen = 0;
    while seen < 6 {
        let m = spec.recv_within(Duration::from_secs(5)).await.unwrap();
        if m["type"] == "update" && m["stand_in"] == true {
            assert_eq!(m["seat"], seat);
            seen += 1;
        }
    }
    let mut me = Client::connect(srv.addr, &lobby.id, Some(&token)).await;
    let snap = me.until("snapshot").await;
    assert_eq!(
        snap["view"]["viewer"],
        json!({ "kind": "seat", "seat": seat })
    );
    assert!(snap["view"]["players"][seat as usize]["resources"].is_object());
    // Back in the seat: when the game waits for it, no stand-in acts.
    while me.legal.is_empty() {
        let m = me.recv().await.unwrap();
        if m["type"] == "game_over" {
            return;
        }
    }
    let later = me.collect_for(Duration::from_millis(400)).await;
    assert!(later.iter().all(|m| m["type"] != "update"), "{later:?}");
}

#[tokio::test]
async fn without_a_turn_timer_a_disconnected_player_still_gets_a_stand_in() {
    let srv = start_with_short_grace().await;
    let lobby = create_lobby(
        srv.addr,
        json!({ "name": "untimed", "options": { "players": 3 },
                "turn_timer": { "enabled": false, "seconds": 60 }, "bot_delay_ms": 0 }),
    )
    .await;
    let (gone, _) = join(srv.addr, &lobby, "Gone").await;
    let (here, token) = join(srv.addr, &lobby, "Here").await;
    add_bot(srv.addr, &lobby, "random").await;
    let mut me = Client::connect(srv.addr, &lobby.id, Some(&token)).await;
    me.until("welcome").await;
    start_game(srv.addr, &lobby).await;
    // "Gone" never connects: the game must not wait for it forever. "Here"
    // plays its own moves; every stand-in update is for "Gone" only.
    let mut stood_in = 0;
    let mut acted_at = None;
    while stood_in < 3 {
        if !me.legal.is_empty() && acted_at != Some(me.version) {
            acted_at = Some(me.version);
            let a = simple_choice(&me.legal).unwrap();
            me.act(a).await;
        }
        let m = me
            .recv_within(Duration::from_secs(5))
            .await
            .expect("the game goes on");
        if m["type"] == "update" && m["stand_in"] == true {
            assert_eq!(m["seat"], gone, "only the absent seat is stood in for");
            assert_ne!(m["seat"], here);
            stood_in += 1;
        }
    }
}

#[tokio::test]
async fn a_game_nobody_is_connected_to_waits_instead_of_being_stood_in() {
    let srv = start_with_short_grace().await;
    let lobby = create_lobby(
        srv.addr,
        json!({ "name": "empty room", "options": { "players": 3 }, "bot_delay_ms": 0 }),
    )
    .await;
    let (gone, _) = join(srv.addr, &lobby, "Gone").await;
    add_bot(srv.addr, &lobby, "random").await;
    add_bot(srv.addr, &lobby, "random").await;
    start_game(srv.addr, &lobby).await;
    // Nobody is connected: nothing moves, neither the bots (a game nobody
    // watches is paused) nor a stand-in for the absent player.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let mut spec = Client::connect(srv.addr, &lobby.id, None).await;
    let snap = spec.until("snapshot").await;
    assert_eq!(snap["view"]["phase"], "opening");
    assert_eq!(snap["version"], 0, "the game moved while nobody was there");
    // Someone is watching now: the bots play and a stand-in acts for the
    // absent player when the game waits for them.
    loop {
        let m = spec
            .recv_within(Duration::from_secs(5))
            .await
            .expect("a stand-in acts once someone is connected");
        if m["type"] == "update" && m["stand_in"] == true {
            assert_eq!(m["seat"], gone, "only the absent seat is stood in for");
            break;
        }
    }
}
