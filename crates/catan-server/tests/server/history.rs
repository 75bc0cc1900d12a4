//! The `history` message: a viewer who connects late gets every step of the
//! game so far, redacted exactly like the live updates it would have had,
//! so that a reloaded page rebuilds its whole log. A spectator's history
//! names no stolen card and no bought development card.

use crate::common;

use common::*;
use serde_json::{Value, json};

/// A started game of four `normal` bots (they trade, rob and buy cards).
async fn bot_game(srv: &Server) -> Lobby {
    four_bots(srv.addr, json!({ "name": "History" }), "normal").await
}

/// The steps of a `history` message.
fn steps_of(history: &Value) -> Vec<(u64, Value, Value, Value)> {
    history["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(step)
        .collect()
}

/// `(version, seat, stand_in, events)` of an update or a history step.
fn step(v: &Value) -> (u64, Value, Value, Value) {
    (
        v["version"].as_u64().unwrap(),
        v["seat"].clone(),
        v["stand_in"].clone(),
        v["events"].clone(),
    )
}

/// A started game of three people, each on its own socket, with up to
/// `moves` simple moves played (the opening, then a few turns), every seat
/// hearing each update before the next move.
async fn played_by_people(srv: &Server, moves: usize) -> (Lobby, Vec<String>, Vec<Client>) {
    let (lobby, tokens) = started_people_only(srv.addr, 3).await;
    let mut seats = Vec::new();
    for t in &tokens {
        let mut c = Client::connect(srv.addr, &lobby.id, Some(t)).await;
        c.until("snapshot").await;
        seats.push(c);
    }
    for _ in 0..moves {
        let Some(i) = seats.iter().position(|c| !c.legal.is_empty()) else {
            break;
        };
        let Some(a) = simple_choice(&seats[i].legal) else {
            break;
        };
        let id = seats[i].act(a).await;
        seats[i].reply(&id).await;
        let v = seats[i].version;
        for c in seats.iter_mut() {
            while c.version < v {
                c.until("update").await;
            }
        }
    }
    (lobby, tokens, seats)
}

/// The steps of the updates a client heard (more than ten of them).
fn updates(c: &Client) -> Vec<(u64, Value, Value, Value)> {
    let live: Vec<_> = c
        .log
        .iter()
        .filter(|m| m["type"] == "update")
        .map(step)
        .collect();
    assert!(live.len() > 10, "only {} steps were played", live.len());
    live
}

#[tokio::test]
async fn a_late_spectator_gets_the_log_an_early_one_saw_and_no_hidden_card() {
    let srv = start(test_config()).await;
    let lobby = bot_game(&srv).await;
    // The early spectator watches from before the start: it hears every update.
    let mut early = Client::connect(srv.addr, &lobby.id, None).await;
    early.until("welcome").await;
    start_game(srv.addr, &lobby).await;
    let mut seen = Vec::new();
    let mut hidden_events = 0;
    while seen.len() < 400 {
        let m = early
            .recv()
            .await
            .expect("the early spectator's socket closed");
        if m["type"] == "game_over" {
            break;
        }
        if m["type"] == "update" {
            for e in m["events"].as_array().unwrap() {
                if e["type"] == "stole" || e["type"] == "dev_card_bought" {
                    hidden_events += 1;
                }
            }
            seen.push(step(&m));
        }
    }
    assert!(
        hidden_events > 0,
        "no steal or purchase in {} steps: the check below would prove nothing",
        seen.len()
    );

    // The late spectator: its history covers every version the early one saw.
    let mut late = Client::connect(srv.addr, &lobby.id, None).await;
    let history = late.until("history").await;
    let snapshot = late.until("snapshot").await;
    assert_eq!(history["version"], snapshot["version"]);
    let steps = steps_of(&history);
    assert_eq!(steps.len() as u64, history["version"].as_u64().unwrap() + 1);
    assert_eq!(
        &steps[..seen.len()],
        &seen[..],
        "history differs from the live updates"
    );
    for (version, _, _, events) in &steps {
        for e in events.as_array().unwrap() {
            assert!(
                e["type"] != "stole" || e["resource"].is_null(),
                "a stolen card's type in a spectator's history at {version}: {e}"
            );
            assert!(
                e["type"] != "dev_card_bought" || e["card"].is_null(),
                "a bought card's type in a spectator's history at {version}: {e}"
            );
        }
    }
}

#[tokio::test]
async fn a_seat_gets_its_own_secrets_in_its_history_and_nobody_elses() {
    let srv = start(test_config()).await;
    let (lobby, tokens, mut seats) = played_by_people(&srv, 60).await;
    let live = updates(&seats[0]);
    let seat0 = tokens[0].clone();
    seats.remove(0).close().await;
    let mut back = Client::connect(srv.addr, &lobby.id, Some(&seat0)).await;
    let history = back.until("history").await;
    let steps = steps_of(&history);
    // Seat 0 connected after the start, so it heard from version 1 on; its
    // history has the start too, then exactly what seat 0 was sent.
    assert_eq!(steps[0].0, 0);
    assert_eq!(&steps[1..], &live[..]);
}

/// Opens a socket and says hello with `since`, as a reconnecting client.
async fn reconnect_since(
    addr: std::net::SocketAddr,
    lobby: &str,
    token: Option<&str>,
    since: u64,
) -> Client {
    let mut c = Client::open(addr, lobby).await;
    let mut hello = json!({ "type": "hello", "protocol": 1, "since": since });
    if let Some(t) = token {
        hello["token"] = json!(t);
    }
    c.send(hello).await;
    c
}

#[tokio::test]
async fn a_reconnect_that_names_its_last_version_gets_only_the_steps_after_it() {
    let srv = start(test_config()).await;
    let (lobby, tokens, seats) = played_by_people(&srv, 40).await;
    let live = updates(&seats[0]);
    let last = seats[0].version;
    let mid = live[live.len() / 2].0;

    // Seat 0 comes back having every step up to `mid`: it gets the rest,
    // redacted for seat 0 exactly as its live updates were.
    let mut back = reconnect_since(srv.addr, &lobby.id, Some(&tokens[0]), mid).await;
    let history = back.until("history").await;
    assert_eq!(history["since"], json!(mid));
    assert_eq!(history["version"], json!(last));
    let steps = steps_of(&history);
    let missed: Vec<_> = live.iter().filter(|s| s.0 > mid).cloned().collect();
    assert!(!missed.is_empty());
    assert_eq!(
        steps, missed,
        "the steps after {mid} differ from the live ones"
    );
    assert_eq!(back.until("snapshot").await["version"], json!(last));

    // A spectator with every step already gets none; the snapshot follows.
    let mut watcher = reconnect_since(srv.addr, &lobby.id, None, last).await;
    let history = watcher.until("history").await;
    assert_eq!(history["since"], json!(last));
    assert_eq!(history["steps"], json!([]));
    watcher.until("snapshot").await;

    // A version this game has not reached is not trusted: the whole
    // history, without `since`, which the client takes in place of its log.
    let mut confused = reconnect_since(srv.addr, &lobby.id, None, last + 5).await;
    let history = confused.until("history").await;
    assert!(history.get("since").is_none(), "{history}");
    let steps = history["steps"].as_array().unwrap();
    assert_eq!(steps.len() as u64, last + 1);
    assert_eq!(steps[0]["version"], json!(0));
}
