//! Protocol versions: from protocol 2 a live update leaves the board out of
//! its view (the snapshot carries it, and it never changes); from protocol 3
//! it carries only what changed since the version before; clients of older
//! versions in the same lobby still get whole views; each is welcomed in
//! its own version; a version the server does not speak is refused.

use crate::common;

use catan_protocol::{OLDEST_PROTOCOL_VERSION, PROTOCOL_VERSION};
use common::*;
use serde_json::{Value, json};

#[tokio::test]
async fn each_version_gets_its_own_form_of_the_same_update() {
    let srv = start(test_config()).await;
    let (lobby, tokens) = started_people_only(srv.addr, 3).await;
    let mut look = Client::connect(srv.addr, &lobby.id, None).await;
    let active = look.until("snapshot").await["view"]["active"]
        .as_u64()
        .expect("a seat to act") as usize;
    // A spectator in each version, and the seat to act in the newest.
    let mut clients = Vec::new();
    for protocol in [1, 2, 3] {
        let c = Client::connect_speaking(srv.addr, &lobby.id, None, protocol).await;
        clients.push((protocol, c));
    }
    let mut actor = Client::connect(srv.addr, &lobby.id, Some(&tokens[active])).await;
    actor.until("snapshot").await;
    let mut boards = Vec::new();
    for (protocol, c) in &mut clients {
        let welcome = c.until("welcome").await;
        assert_eq!(welcome["protocol"], *protocol, "{welcome}");
        let snapshot = c.until("snapshot").await;
        let board = snapshot["view"]["board"].clone();
        assert_eq!(
            board["hexes"].as_array().map(Vec::len),
            Some(19),
            "{snapshot}"
        );
        boards.push(board);
    }
    assert!(boards.windows(2).all(|w| w[0] == w[1]), "one board for all");

    let action = simple_choice(&actor.legal).expect("the opening has a move");
    let id = actor.act(action).await;
    assert_eq!(actor.reply(&id).await["type"], "accepted");

    let mut updates = Vec::new();
    for (protocol, c) in &mut clients {
        let update = c.until("update").await;
        let view = update.get("view");
        match protocol {
            1 => assert_eq!(view.map(|v| &v["board"]), Some(&boards[0]), "{update}"),
            2 => assert!(view.is_some_and(|v| v.get("board").is_none()), "{update}"),
            _ => {
                assert!(view.is_none(), "{update}");
                assert!(update["changes"].is_object(), "{update}");
            }
        }
        updates.push(update);
    }
    // Apart from the view's form the update is the same in every version,
    // and every client that put its view together sees the same view.
    let without_view = |u: &Value| {
        let mut u = u.clone();
        let o = u.as_object_mut().unwrap();
        o.remove("view");
        o.remove("changes");
        u
    };
    assert_eq!(without_view(&updates[0]), without_view(&updates[1]));
    assert_eq!(without_view(&updates[0]), without_view(&updates[2]));
    assert_eq!(clients[1].1.view, clients[0].1.view);
    assert_eq!(clients[2].1.view, clients[0].1.view);
    // Far smaller: the changes of a settlement are one player's few fields.
    let size = |u: &Value| u.to_string().len();
    assert!(size(&updates[2]) * 3 < size(&updates[1]), "{}", updates[2]);

    // The seat's own view, put together from changes, is the snapshot a
    // resync sends it.
    let mine = actor.until("update").await;
    assert!(mine["changes"].is_object(), "{mine}");
    let rebuilt = actor.view.clone();
    let id = actor.id();
    actor.send(json!({ "type": "resync", "id": id })).await;
    let snapshot = actor.until("snapshot").await;
    assert_eq!(snapshot["view"], rebuilt);
}

/// A whole game of bots watched in protocol 1 and protocol 3: after every
/// update the view put together from changes is the whole view, hands
/// hidden alike, to the end; and the changes leave most of a view out.
#[tokio::test]
async fn a_view_put_together_from_changes_is_the_whole_view_all_game() {
    let srv = start(test_config()).await;
    let lobby = four_bots(
        srv.addr,
        json!({ "name": "Changes", "options": { "players": 4 } }),
        "normal",
    )
    .await;
    let mut whole = Client::connect_speaking(srv.addr, &lobby.id, None, 1).await;
    let mut lean = Client::connect_speaking(srv.addr, &lobby.id, None, 3).await;
    whole.until("welcome").await;
    lean.until("welcome").await;
    start_game(srv.addr, &lobby).await;
    let (mut bytes_whole, mut bytes_lean, mut updates) = (0, 0, 0);
    loop {
        let a = next_step(&mut whole).await;
        let b = next_step(&mut lean).await;
        assert_eq!(a["type"], b["type"]);
        if a["type"] == "game_over" {
            assert_eq!(a, b);
            break;
        }
        assert_eq!(a["version"], b["version"]);
        assert_eq!(lean.view, whole.view, "at version {}", a["version"]);
        if a["version"] != 0 {
            assert!(b.get("view").is_none(), "{b}");
            updates += 1;
            bytes_whole += whole.raw.last().map_or(0, String::len);
            bytes_lean += lean.raw.last().map_or(0, String::len);
        }
    }
    assert!(updates > 100, "a whole game: {updates} updates");
    assert!(
        bytes_lean * 3 < bytes_whole,
        "changes {bytes_lean} bytes, whole views {bytes_whole}"
    );
}

/// The next update, or the game's end.
async fn next_step(c: &mut Client) -> Value {
    loop {
        let m = c.recv().await.expect("the game goes on");
        if m["type"] == "update" || m["type"] == "game_over" {
            return m;
        }
    }
}

#[tokio::test]
async fn versions_the_server_does_not_speak_are_refused() {
    let srv = start(test_config()).await;
    let lobby = create_lobby(srv.addr, json!({ "name": "versions" })).await;
    for protocol in [OLDEST_PROTOCOL_VERSION - 1, PROTOCOL_VERSION + 1] {
        let mut c = Client::connect_speaking(srv.addr, &lobby.id, None, protocol).await;
        let refusal = c.until("rejected").await;
        assert_eq!(refusal["code"], "unsupported_protocol", "{refusal}");
        assert_eq!(
            c.until_closed().await,
            Closed::Frame(4003, "unsupported protocol".into())
        );
    }
}

#[tokio::test]
async fn the_update_that_starts_the_game_carries_the_board() {
    let srv = start(test_config()).await;
    let lobby = create_lobby(
        srv.addr,
        json!({ "name": "start", "options": { "players": 3 }, "bot_delay_ms": 0 }),
    )
    .await;
    let (_, token) = join(srv.addr, &lobby, "Ann").await;
    add_bot(srv.addr, &lobby, "normal").await;
    add_bot(srv.addr, &lobby, "normal").await;
    // Waiting in the room, in the newest version: no snapshot yet.
    let mut ann = Client::connect(srv.addr, &lobby.id, Some(&token)).await;
    ann.until("lobby").await;
    start_game(srv.addr, &lobby).await;
    let first = ann.until("update").await;
    assert_eq!(first["version"], 0, "{first}");
    assert_eq!(
        first["view"]["board"]["hexes"].as_array().map(Vec::len),
        Some(19)
    );
    assert!(ann.log.iter().all(|m| m["type"] != "snapshot"));
}
