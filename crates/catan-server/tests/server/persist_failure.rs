//! Write-ahead under a failing database: while the database refuses writes
//! (PostgreSQL stops accepting connections and ends the open ones; SQLite's
//! write lock is held by another connection), an action is refused with
//! `storage_unavailable`, nobody else hears of it and the game stays as it
//! was; once the database is back the same action goes through and the
//! stored log has no gap.

use crate::harness;

use catan_store::Store;
use harness::*;
use std::time::Duration;
use uuid::Uuid;

/// How long the other connections are watched for a stray broadcast.
const QUIET: Duration = Duration::from_millis(700);

async fn refused_while_down_then_continues(backend: Backend) {
    let mut db = TestDb::new(backend).await;
    let srv = start_in_process(&db).await;
    let (lobby, humans) = lobby_two_humans_two_bots(srv.addr).await;
    let mut players = Vec::new();
    for (seat, token) in &humans {
        players.push(Player::connect(srv.addr, &lobby, Some((*seat, token))).await);
    }
    let mut spectator = Player::connect(srv.addr, &lobby, None).await;

    // Play a little, until the game waits for one of the people.
    let tasks: Vec<_> = players
        .into_iter()
        .map(|p| tokio::spawn(p.play(Some(12))))
        .collect();
    let mut players = Vec::new();
    for t in tasks {
        players.push(t.await.unwrap());
    }
    while spectator.next_within(QUIET).await.is_some() {}
    let i = players
        .iter()
        .position(|p| !p.legal.is_empty())
        .expect("the game waits for a person");
    let other = 1 - i;
    let version = players[i].version;
    let action = players[i].choice().unwrap();

    db.make_unavailable().await;
    let id = players[i].act(action.clone()).await;
    let reply = players[i].next().await;
    assert_eq!(reply["type"], "rejected", "{reply}");
    assert_eq!(reply["id"], id.as_str());
    assert_eq!(reply["code"], "storage_unavailable", "{reply}");
    // Nothing was broadcast: not to the other player, not to the spectator,
    // and no update to the player who tried.
    for p in [&mut players[other], &mut spectator] {
        if let Some(m) = p.next_within(QUIET).await {
            panic!("a refused action was broadcast: {m}");
        }
    }
    if let Some(m) = players[i].next_within(QUIET).await {
        panic!("unexpected message after the refusal: {m}");
    }
    // The game is as it was.
    let snap = players[i].resync().await;
    assert_eq!(snap["version"].as_u64(), Some(version));

    db.make_available().await;
    let id = players[i].act(action).await;
    let reply = loop {
        let m = players[i].next().await;
        if m["id"] == id.as_str() {
            break m;
        }
    };
    assert_eq!(reply["type"], "accepted", "{reply}");
    assert_eq!(reply["version"].as_u64(), Some(version + 1));
    let update = players[other].until("update").await;
    assert_eq!(update["version"].as_u64(), Some(version + 1));
    players[i].refusals.clear();

    // Play goes on.
    let target = version + 20;
    let tasks: Vec<_> = players
        .into_iter()
        .map(|p| tokio::spawn(p.play(Some(target))))
        .collect();
    let mut players = Vec::new();
    for t in tasks {
        players.push(t.await.unwrap());
    }
    let last = players[0].version;
    assert!(last >= target);

    // The stored log is the game: 1..=last, no gap, nothing from the outage.
    let store = Store::connect(&db.url).await.unwrap();
    let stored = store
        .load_game(Uuid::parse_str(&lobby).unwrap())
        .await
        .unwrap()
        .unwrap();
    let seqs: Vec<u64> = stored.record.actions.iter().map(|a| a.seq).collect();
    assert_eq!(seqs, (1..=last).collect::<Vec<_>>());
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn write_failure_refuses_and_recovers_on_postgres() {
    refused_while_down_then_continues(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn write_failure_refuses_and_recovers_on_sqlite() {
    refused_while_down_then_continues(Backend::Sqlite).await;
}
