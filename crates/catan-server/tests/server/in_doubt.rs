//! An action whose append is in doubt (the journal answered too late, yet
//! stored it): the lobby refuses it with `storage_unavailable`, keeps the
//! game where it was, refuses every other action at once while it cannot
//! tell, keeps chat and resync working, and once the journal can tell adopts
//! the action: everyone gets its update and the record holds it once.
//! (The memory journal plays the late database; `persist_stall` does the
//! same against a real PostgreSQL that stops answering.) A waiting-room
//! write in doubt is undone, and the room is stored again as it is.

use crate::common;

use common::*;
use serde_json::json;
use uuid::Uuid;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_in_doubt_is_refused_held_and_adopted_once_it_is_known() {
    let srv = start(test_config()).await;
    let (lobby, tokens) = started_people_only(srv.addr, 3).await;
    let mut probe = Client::connect(srv.addr, &lobby.id, Some(&tokens[0])).await;
    let snap = probe.until("snapshot").await;
    let active = snap["view"]["active"].as_u64().unwrap() as usize;
    probe.close().await;
    let mut me = Client::connect(srv.addr, &lobby.id, Some(&tokens[active])).await;
    me.until("snapshot").await;
    let mut other = Client::connect(srv.addr, &lobby.id, Some(&tokens[(active + 1) % 3])).await;
    other.until("snapshot").await;
    let version = me.version;
    let action = me.legal[0].clone();

    // Stored, but answered too late; and settling cannot tell yet.
    let in_doubt_before = catan_server::metrics::metrics().journal_in_doubt.get();
    srv.journal.set_in_doubt(true);
    let id = me.act(action.clone()).await;
    let reply = me.reply(&id).await;
    assert_eq!(reply["code"], "storage_unavailable", "{reply}");
    // Held: the next try is refused without touching the journal.
    let id = me.act(action.clone()).await;
    let reply = me.reply(&id).await;
    assert_eq!(reply["code"], "storage_unavailable", "{reply}");
    // The lobby still talks, and its game is unchanged.
    me.send(json!({ "type": "chat", "id": "c1", "text": "hello?" }))
        .await;
    assert_eq!(other.until("chat").await["text"], "hello?");
    other.send(json!({ "type": "resync", "id": "s1" })).await;
    assert_eq!(
        other.until("snapshot").await["version"].as_u64(),
        Some(version)
    );

    // The journal can tell again: the action is adopted, once.
    srv.journal.set_in_doubt(false);
    let update = other.until("update").await;
    assert_eq!(update["version"].as_u64(), Some(version + 1));
    assert_eq!(update["seat"].as_u64(), Some(active as u64));
    let mine = me.until("update").await;
    assert_eq!(mine["version"].as_u64(), Some(version + 1));
    let m = catan_server::metrics::metrics();
    assert_eq!(
        m.journal_in_doubt.get(),
        in_doubt_before + 1,
        "one append went in doubt"
    );
    assert_eq!(
        m.journal_in_doubt_dropped.get(),
        0,
        "and it was adopted, not dropped"
    );
    let record = srv
        .journal
        .record(Uuid::parse_str(&lobby.id).unwrap())
        .unwrap();
    let seqs: Vec<u64> = record.record.actions.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (1..=version + 1).collect::<Vec<_>>());
    // The action is not applied twice: sent again at the old version it is
    // stale; play goes on at the new one.
    me.send(json!({ "type": "action", "id": "old", "version": version, "action": action }))
        .await;
    assert_eq!(me.reply("old").await["code"], "stale_version");
}

/// Names of the people seated in a stored waiting room (`StoredRoom`).
fn people_in(room: &serde_json::Value) -> Vec<String> {
    room["seats"]
        .as_array()
        .expect("a stored room has seats")
        .iter()
        .filter(|s| s["kind"] == "person")
        .map(|s| s["name"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// A waiting-room write that answers too late yet committed: the join is
/// refused and undone, and the room is stored again as it is, so a node
/// taking the lobby over would not rebuild a seat nobody holds the token of.
/// (Before, the stored room kept the refused person for good.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_room_change_that_committed_late_is_stored_over() {
    let srv = start(test_config()).await;
    let lobby = create_lobby(
        srv.addr,
        json!({ "name": "doubt", "options": { "players": 3 } }),
    )
    .await;
    let id: Uuid = lobby.id.parse().unwrap();
    join(srv.addr, &lobby, "Ann").await;
    assert_eq!(
        people_in(srv.journal.room_writes(id).last().unwrap()),
        ["Ann"]
    );

    srv.journal.set_in_doubt(true);
    let path = format!("/api/lobbies/{}/join", lobby.id);
    let (status, v) = http(
        srv.addr,
        "POST",
        &path,
        None,
        Some(json!({ "name": "Ghost" })),
    )
    .await;
    assert_eq!(status, 503, "{v}");
    assert_eq!(v["error"]["code"], "storage_unavailable", "{v}");
    // The late commit holds the refused person ...
    let writes = srv.journal.room_writes(id);
    assert!(
        writes
            .iter()
            .any(|w| people_in(w).contains(&"Ghost".to_string())),
        "{writes:?}"
    );
    // ... the lobby does not.
    let info = lobby_info(srv.addr, &lobby).await;
    let names: Vec<&str> = info["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert_eq!(names, ["Ann"], "{info}");

    // Once the journal answers again, the room is stored as it is.
    srv.journal.set_in_doubt(false);
    let stored = wait_for(|| {
        let last = srv.journal.room_writes(id).last().cloned()?;
        (people_in(&last) == ["Ann"]).then_some(last)
    })
    .await;
    assert_eq!(people_in(&stored), ["Ann"]);
    // And the room takes changes again, stored as made.
    join(srv.addr, &lobby, "Bob").await;
    assert_eq!(
        people_in(srv.journal.room_writes(id).last().unwrap()),
        ["Ann", "Bob"]
    );
}

/// Polls `probe` until it yields (a background retry is not announced to
/// clients); gives up after half a minute, which only a lost retry takes.
async fn wait_for<T>(mut probe: impl FnMut() -> Option<T>) -> T {
    for _ in 0..600 {
        if let Some(v) = probe() {
            return v;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the waiting room was never stored again");
}
