//! Protocol versions: from protocol 2 a live update leaves the board out of
//! its view (the snapshot carries it, and it never changes); a client of
//! protocol 1 in the same lobby still gets whole views; each is welcomed in
//! its own version; a version the server does not speak is refused.

use crate::common;

use catan_protocol::{OLDEST_PROTOCOL_VERSION, PROTOCOL_VERSION};
use common::*;
use serde_json::{Value, json};

#[tokio::test]
async fn updates_leave_the_board_out_from_protocol_2() {
    let srv = start(test_config()).await;
    let (lobby, tokens) = started_people_only(srv.addr, 3).await;
    let mut look = Client::connect(srv.addr, &lobby.id, None).await;
    let active = look.until("snapshot").await["view"]["active"]
        .as_u64()
        .expect("a seat to act") as usize;
    // The seat to act and a spectator in each version.
    let mut clients = Vec::new();
    for protocol in [1, 2] {
        for token in [Some(tokens[active].as_str()), None] {
            let c = Client::connect_speaking(srv.addr, &lobby.id, token, protocol).await;
            clients.push((protocol, c));
        }
    }
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

    // The seat's second socket (protocol 2) replaced its first: it acts.
    let (_, actor) = &mut clients[2];
    let action = simple_choice(&actor.legal).expect("the opening has a move");
    let id = actor.act(action).await;
    assert_eq!(actor.reply(&id).await["type"], "accepted");

    let mut updates = Vec::new();
    for (protocol, c) in clients.iter_mut().skip(1) {
        let update = c.until("update").await;
        let has_board = update["view"].get("board").is_some();
        assert_eq!(has_board, *protocol == 1, "protocol {protocol}: {update}");
        if has_board {
            assert_eq!(update["view"]["board"], boards[0]);
        }
        updates.push((c.view["viewer"].clone(), update));
    }
    // Apart from the board, a spectator's update is the same in both
    // versions (and the client that put the board back sees it whole).
    let spectators: Vec<&Value> = updates
        .iter()
        .filter(|(viewer, _)| viewer["kind"] == "spectator")
        .map(|(_, u)| u)
        .collect();
    assert_eq!(spectators.len(), 2);
    let mut whole = spectators[0].clone();
    whole["view"].as_object_mut().unwrap().remove("board");
    assert_eq!(&whole, spectators[1]);
    assert_eq!(clients[3].1.view["board"], boards[0]);
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
