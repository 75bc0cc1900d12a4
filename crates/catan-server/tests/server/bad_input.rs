//! Bad input over real sockets: each gets the documented error or close, and
//! the game (version and view) is unchanged afterwards.

use crate::common;

use common::*;
use serde_json::{Value, json};

struct Table {
    srv: Server,
    lobby: Lobby,
    /// Seat tokens by seat.
    tokens: Vec<String>,
    /// The seat to act first.
    active: usize,
}

/// A started 3-player game of people only, so nothing moves unless a test
/// client acts.
async fn table(config: catan_server::Config) -> Table {
    let srv = start(config).await;
    let (lobby, tokens) = started_people_only(srv.addr, 3).await;
    let mut c = Client::connect(srv.addr, &lobby.id, Some(&tokens[0])).await;
    let snap = c.until("snapshot").await;
    let active = snap["view"]["active"].as_u64().unwrap() as usize;
    c.close().await;
    Table {
        srv,
        lobby,
        tokens,
        active,
    }
}

/// The game as a spectator sees it now.
async fn state(t: &Table) -> (u64, Value) {
    let mut c = Client::connect(t.srv.addr, &t.lobby.id, None).await;
    let s = c.until("snapshot").await;
    c.close().await;
    (s["version"].as_u64().unwrap(), s["view"].clone())
}

async fn seat_client(t: &Table, seat: usize) -> Client {
    let mut c = Client::connect(t.srv.addr, &t.lobby.id, Some(&t.tokens[seat])).await;
    c.until("snapshot").await;
    c
}

#[tokio::test]
async fn bad_messages_get_errors_and_change_nothing() {
    let t = table(test_config()).await;
    let before = state(&t).await;
    let mut me = seat_client(&t, t.active).await;
    let other = (t.active + 1) % 3;

    me.send_text("{not json".into()).await;
    let r = me.until("rejected").await;
    assert_eq!(
        (r["code"].as_str(), &r["id"]),
        (Some("bad_json"), &Value::Null)
    );

    me.send(json!({ "type": "teleport", "id": "u1" })).await;
    let r = me.reply("u1").await;
    assert_eq!(r["code"], "unknown_type");

    me.send(json!({ "type": "action", "id": "m1", "action": { "type": "end_turn" } }))
        .await;
    assert_eq!(me.reply("m1").await["code"], "bad_json");

    let legal = me.legal[0].clone();
    me.send(json!({ "type": "action", "id": "s1", "version": 0, "seat": other, "action": legal }))
        .await;
    assert_eq!(me.reply("s1").await["code"], "not_your_seat");

    me.send(json!({ "type": "action", "id": "v1", "version": 7, "action": legal }))
        .await;
    let r = me.reply("v1").await;
    assert_eq!(r["code"], "stale_version");

    me.send(
        json!({ "type": "action", "id": "e1", "version": 0, "action": { "type": "end_turn" } }),
    )
    .await;
    assert_eq!(me.reply("e1").await["code"], "wrong_phase");

    me.send(json!({ "type": "hello", "protocol": 1 })).await;
    assert_eq!(me.until("rejected").await["code"], "already_connected");

    me.send(json!({ "type": "chat", "id": "c1", "text": "x".repeat(301) }))
        .await;
    assert_eq!(me.reply("c1").await["code"], "chat_too_long");

    let mut not_me = seat_client(&t, other).await;
    let id = not_me.act(legal.clone()).await;
    assert_eq!(not_me.reply(&id).await["code"], "not_your_turn");

    let mut spec = Client::connect(t.srv.addr, &t.lobby.id, None).await;
    spec.until("snapshot").await;
    let id = spec.act(legal).await;
    assert_eq!(spec.reply(&id).await["code"], "not_your_seat");

    assert_eq!(state(&t).await, before);
}

#[tokio::test]
async fn wrong_token_is_refused_and_closed() {
    let t = table(test_config()).await;
    let before = state(&t).await;
    let mut c = Client::connect(t.srv.addr, &t.lobby.id, Some("not-a-real-token")).await;
    let r = c.until("rejected").await;
    assert_eq!(r["code"], "invalid_token");
    assert_eq!(
        c.until_closed().await,
        Closed::Frame(4003, "connection refused".into())
    );

    // Talking before hello is refused too.
    let mut c = Client::open(t.srv.addr, &t.lobby.id).await;
    c.send(json!({ "type": "resync", "id": "h" })).await;
    assert_eq!(c.reply("h").await["code"], "hello_required");
    c.send(json!({ "type": "hello", "protocol": 99 })).await;
    assert_eq!(c.until("rejected").await["code"], "unsupported_protocol");
    assert!(matches!(c.until_closed().await, Closed::Frame(4003, _)));
    assert_eq!(state(&t).await, before);
}

#[tokio::test]
async fn oversize_frame_closes_the_socket() {
    let t = table(test_config()).await;
    let before = state(&t).await;
    let mut me = seat_client(&t, t.active).await;
    let huge = json!({ "type": "chat", "id": "big", "text": "y".repeat(20 * 1024) });
    me.send(huge).await;
    let how = me.until_closed().await;
    assert!(matches!(how, Closed::Frame(1009, _)), "{how:?}");
    assert!(!me.log.iter().any(|m| m["type"] == "chat"));
    assert_eq!(state(&t).await, before);
}

#[tokio::test]
async fn message_flood_is_rate_limited_then_closed() {
    let cfg = catan_server::Config {
        rate_burst: 5,
        rate_per_sec: 1.0,
        flood_strikes: 10,
        ..test_config()
    };
    let t = table(cfg).await;
    let before = state(&t).await;
    let mut me = seat_client(&t, t.active).await;
    for i in 0..40 {
        me.send(json!({ "type": "action", "id": format!("f{i}"), "version": 999, "action": { "type": "end_turn" } }))
            .await;
    }
    let how = me.until_closed().await;
    assert_eq!(how, Closed::Frame(1008, "rate limit exceeded".into()));
    let limited = me
        .log
        .iter()
        .filter(|m| m["code"] == "rate_limited")
        .count();
    assert!(limited >= 5, "{limited}");
    assert_eq!(state(&t).await, before);
}

#[tokio::test]
async fn storage_failure_refuses_the_action_and_keeps_the_game() {
    let t = table(test_config()).await;
    let before = state(&t).await;
    let mut me = seat_client(&t, t.active).await;
    let a = me.legal[0].clone();
    t.srv.journal.set_failing(true);
    let id = me.act(a.clone()).await;
    assert_eq!(me.reply(&id).await["code"], "storage_unavailable");
    assert_eq!(state(&t).await, before);
    t.srv.journal.set_failing(false);
    let id = me.act(a).await;
    assert_eq!(me.reply(&id).await["type"], "accepted");
    let u = me.until("update").await;
    assert_eq!(u["version"], 1);
}

/// One policy for unknown fields: a stray field at the top of a message or
/// inside its action is refused with `bad_json`, and the game is unchanged
/// (before, an action with a stray field was applied).
#[tokio::test]
async fn stray_fields_and_arrays_for_objects_are_refused() {
    let t = table(test_config()).await;
    let before = state(&t).await;
    let mut me = seat_client(&t, t.active).await;
    let legal = me.legal[0].clone();

    let mut stray = legal.clone();
    stray["please"] = json!(true);
    me.send(json!({ "type": "action", "id": "a1", "version": 0, "action": stray }))
        .await;
    let r = me.reply("a1").await;
    assert_eq!(r["code"], "bad_json", "{r}");
    assert!(r["message"].as_str().unwrap().contains("please"), "{r}");

    me.send(json!({ "type": "action", "id": "a2", "version": 0, "action": legal, "extra": 1 }))
        .await;
    assert_eq!(me.reply("a2").await["code"], "bad_json");

    me.send(json!({ "type": "resync", "id": "a3", "since": 4 }))
        .await;
    assert_eq!(me.reply("a3").await["code"], "bad_json");

    // An array where the action object belongs.
    me.send(json!({ "type": "action", "id": "a4", "version": 0, "action": ["end_turn"] }))
        .await;
    assert_eq!(me.reply("a4").await["code"], "bad_json");

    assert_eq!(state(&t).await, before);

    // The same action without the stray field is taken.
    let id = me.act(legal).await;
    assert_eq!(me.reply(&id).await["type"], "accepted");
}
