//! Crash recovery with a real process: the `catan-server` binary is killed
//! with SIGKILL mid-game and started again on the same database; players
//! reconnect with their seat tokens, see exactly what they saw before, and
//! play on to the end. Runs on PostgreSQL and on the default SQLite file.

use crate::harness;

use catan_core::record::{GameRecord, commitment, verify};
use harness::*;
use serde_json::Value;

/// The lobby message without what depends on who is connected right now
/// and on when it was sent.
fn lobby_sans_connections(lobby: &Value) -> Value {
    let mut l = lobby.clone();
    if let Some(seats) = l["seats"].as_array_mut() {
        for s in seats {
            s["connected"] = Value::Null;
        }
    }
    l["spectators"] = Value::Null;
    // The version in a lobby message is the one when it was sent.
    l["version"] = Value::Null;
    l
}

async fn crash_and_recover(backend: Backend) {
    let db = TestDb::new(backend).await;
    let first = ServerProcess::start(&db, 1).await;
    let (lobby, humans) = lobby_two_humans_two_bots(first.addr).await;
    let mut players = Vec::new();
    for (seat, token) in &humans {
        players.push(Player::connect(first.addr, &lobby, Some((*seat, token))).await);
    }
    let commitment_at_start = players[0].lobby["seed_commitment"].clone();
    assert!(
        commitment_at_start.as_str().is_some_and(|c| c.len() == 64),
        "the start publishes the seed commitment: {}",
        players[0].lobby
    );

    // Part of the game, until the game waits for one of the people.
    let tasks: Vec<_> = players
        .into_iter()
        .map(|p| tokio::spawn(p.play(Some(40))))
        .collect();
    let mut players = Vec::new();
    for t in tasks {
        players.push(t.await.unwrap());
    }
    assert!(players.iter().all(|p| p.over.is_none()));
    let mut before = Vec::new();
    for p in &mut players {
        let snap = p.resync().await;
        before.push((snap, lobby_sans_connections(&p.lobby)));
    }
    assert!(before[0].0["version"].as_u64().unwrap() >= 40);

    first.kill();
    drop(players);

    let second = ServerProcess::start(&db, 2).await;
    let mut players = Vec::new();
    for ((seat, token), (snap, lobby_before)) in humans.iter().zip(&before) {
        let p = Player::connect(second.addr, &lobby, Some((*seat, token))).await;
        let now = tracked(&p);
        assert_eq!(now["version"], snap["version"], "seat {seat}");
        assert_eq!(now["view"], snap["view"], "seat {seat}: the view changed");
        assert_eq!(
            now["legal"], snap["legal"],
            "seat {seat}: legal actions changed"
        );
        assert_eq!(
            &lobby_sans_connections(&p.lobby),
            lobby_before,
            "seat {seat}"
        );
        players.push(p);
    }

    // On to the end.
    let tasks: Vec<_> = players
        .into_iter()
        .map(|p| tokio::spawn(p.play(None)))
        .collect();
    let mut players = Vec::new();
    for t in tasks {
        players.push(t.await.unwrap());
    }
    let over = players[0].over.clone().unwrap();
    let reveal = &over["seed"];
    let seed: u64 = reveal["seed"].as_str().unwrap().parse().unwrap();
    let salt = reveal["salt"].as_str().unwrap();
    assert_eq!(
        Value::String(commitment(seed, salt)),
        commitment_at_start,
        "the revealed seed and salt hash to the commitment published at the start"
    );

    // The stored record is complete: no gap across the crash, and it verifies.
    let (st, rec) = http(
        second.addr,
        "GET",
        &format!("/api/games/{lobby}"),
        None,
        None,
    )
    .await;
    assert_eq!(st, 200, "{rec}");
    let record: GameRecord = serde_json::from_value(rec).unwrap();
    assert_eq!(record.status.as_str(), "finished");
    assert_eq!(
        record.actions.len() as u64,
        over["version"].as_u64().unwrap()
    );
    assert!(
        record
            .actions
            .iter()
            .enumerate()
            .all(|(i, a)| a.seq == i as u64 + 1)
    );
    verify(&record).unwrap();
    second.kill();
}

/// The game as a player heard it last (after connecting: the snapshot).
fn tracked(p: &Player) -> Value {
    serde_json::json!({ "version": p.version, "view": p.view, "legal": p.legal })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_and_restart_resumes_the_game_on_postgres() {
    crash_and_recover(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_and_restart_resumes_the_game_on_sqlite() {
    crash_and_recover(Backend::Sqlite).await;
}
