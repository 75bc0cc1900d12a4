//! An action whose append is in doubt (the journal answered too late, yet
//! stored it): the lobby refuses it with `storage_unavailable`, keeps the
//! game where it was, refuses every other action at once while it cannot
//! tell, keeps chat and resync working, and once the journal can tell adopts
//! the action: everyone gets its update and the record holds it once.
//! (The memory journal plays the late database; `persist_stall` does the
//! same against a real PostgreSQL that stops answering.)

mod common;

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
