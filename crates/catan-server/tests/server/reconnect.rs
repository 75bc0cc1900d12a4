//! Reconnecting with the seat token restores the seat and its view; a second
//! connection for a seat replaces the first, which is closed with a reason.

use crate::common;

use common::*;
use serde_json::json;

#[tokio::test]
async fn reconnect_mid_game_restores_the_same_view() {
    let srv = start(test_config()).await;
    let (lobby, tokens) = started_people_only(srv.addr, 3).await;
    let mut clients = Vec::new();
    for t in &tokens {
        let mut c = Client::connect(srv.addr, &lobby.id, Some(t)).await;
        c.until("snapshot").await;
        clients.push(c);
    }
    // Play the opening's first placements with whoever is to act.
    for _ in 0..6 {
        let active = clients[0].view["active"].as_u64().unwrap() as usize;
        let a = simple_choice(&clients[active].legal).unwrap();
        let id = clients[active].act(a).await;
        assert_eq!(clients[active].reply(&id).await["type"], "accepted");
        for c in clients.iter_mut() {
            c.until("update").await;
        }
    }
    let seat = 1;
    let before_view = clients[seat].view.clone();
    let before_legal = clients[seat].legal.clone();
    let old = clients.remove(seat);
    old.close().await;
    // The others hear that seat 1 went away.
    let p = clients[0].until("presence").await;
    assert_eq!(p["seats"][seat]["connected"], false);

    let mut back = Client::connect(srv.addr, &lobby.id, Some(&tokens[seat])).await;
    let w = back.until("welcome").await;
    assert_eq!(w["you"], json!({ "kind": "seat", "seat": seat }));
    let snap = back.until("snapshot").await;
    assert_eq!(snap["version"], 6);
    assert_eq!(snap["view"], before_view);
    assert_eq!(snap["legal"], json!(before_legal));
    let p = clients[0].until("presence").await;
    assert_eq!(p["seats"][seat]["connected"], true);
}

#[tokio::test]
async fn second_connection_replaces_the_first() {
    let srv = start(test_config()).await;
    let lobby = create_lobby(
        srv.addr,
        json!({ "name": "r2", "options": { "players": 3 } }),
    )
    .await;
    let (_, token) = join(srv.addr, &lobby, "A").await;
    let mut first = Client::connect(srv.addr, &lobby.id, Some(&token)).await;
    first.until("welcome").await;
    let mut second = Client::connect(srv.addr, &lobby.id, Some(&token)).await;
    second.until("welcome").await;
    assert_eq!(
        first.until_closed().await,
        Closed::Frame(4001, "replaced by a newer connection for this seat".into())
    );
    // The new connection works.
    second.send(json!({ "type": "resync", "id": "x" })).await;
    assert_eq!(second.reply("x").await["type"], "accepted");
}

#[tokio::test]
async fn adding_and_removing_a_bot_updates_presence() {
    let srv = start(test_config()).await;
    let lobby = create_lobby(
        srv.addr,
        json!({ "name": "r3", "options": { "players": 3 } }),
    )
    .await;
    let (_, token) = join(srv.addr, &lobby, "A").await;
    let mut person = Client::connect(srv.addr, &lobby.id, Some(&token)).await;
    person.until("welcome").await;
    // Everyone, the newcomer included, hears of its arrival first.
    person.until("presence").await;
    let seat = add_bot(srv.addr, &lobby, "random").await as usize;
    let p = person.until("presence").await;
    assert_eq!(p["seats"][seat]["connected"], true, "a bot is present: {p}");
    let (status, v) = http(
        srv.addr,
        "DELETE",
        &format!("/api/lobbies/{}/bots/{seat}", lobby.id),
        Some(&lobby.host),
        None,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let p = person.until("presence").await;
    assert_eq!(
        p["seats"][seat]["connected"], false,
        "the seat is empty: {p}"
    );
}
