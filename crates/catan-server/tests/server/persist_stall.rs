//! Several lobbies (two people, two bots each) over real WebSockets while
//! PostgreSQL stops answering: a black-hole proxy between the server and the
//! database takes bytes and answers nothing, then delivers what it held when
//! it resumes. One lobby's action has reached the database when the stall
//! begins (it waits on a row lock the test lets go during the stall), so it
//! commits while its answer is lost: in doubt, stored late. The other
//! lobbies' actions cannot even get a connection.
//!
//! Every action sent during the stall is answered `storage_unavailable`
//! within the journal deadline; the lobby holding an action in doubt refuses
//! the next one at once; chat still works; after the stall the in-doubt
//! action is adopted (and only it), every lobby plays on, and each stored
//! log replays to exactly the game the players saw: no gap, no lost
//! acknowledged action.

use crate::harness;

#[path = "../../../catan-store/tests/support/blackhole.rs"]
mod blackhole;

use blackhole::BlackHole;
use catan_store::Store;
use harness::*;
use serde_json::{Value, json};
use sqlx::{Connection, Executor, PgConnection};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::time::Instant;
use uuid::Uuid;

const LOBBIES: usize = 4;
const DEADLINE_MS: u64 = 1500;
/// What an answer may take beyond the deadline (scheduling on a loaded box).
const SLACK: Duration = Duration::from_millis(1000);

/// `url` pointed at `port` on loopback instead of its own host and port.
fn via(url: &str, port: u16) -> String {
    let (scheme, rest) = url.split_once("://").unwrap();
    let (user, rest) = match rest.split_once('@') {
        Some((u, r)) => (format!("{u}@"), r),
        None => (String::new(), rest),
    };
    let path = rest.find('/').map_or("", |i| &rest[i..]);
    format!("{scheme}://{user}127.0.0.1:{port}{path}")
}

/// The PostgreSQL server's address, from the admin URL.
fn upstream() -> SocketAddr {
    let url = admin_url();
    let rest = url.split_once("://").unwrap().1;
    let host = rest.split_once('@').map_or(rest, |(_, h)| h);
    let host = host.split(['/', '?']).next().unwrap();
    let host = if host.contains(':') {
        host.to_string()
    } else {
        format!("{host}:5432")
    };
    host.replace("localhost", "127.0.0.1").parse().unwrap()
}

/// Sends `action` and waits for its answer; returns it and how long it took.
async fn answer_to(p: &mut Player, action: Value) -> (Value, Duration) {
    let began = Instant::now();
    let id = p.act(action).await;
    loop {
        let m = p.next().await;
        if m["id"] == id.as_str() {
            return (m, began.elapsed());
        }
    }
}

/// The person the game waits for (reading on while the bots play).
async fn waiting(players: &mut [Player]) -> usize {
    loop {
        if let Some(i) = players.iter().position(|p| !p.legal.is_empty()) {
            return i;
        }
        players[0].next().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobbies_answer_in_time_while_postgres_is_silent_and_lose_nothing() {
    let db = TestDb::new(Backend::Postgres).await;
    let proxy = BlackHole::start(upstream()).await;
    let srv = start_in_process_with(&db, |c| {
        c.database_url = Some(via(&db.url, proxy.port));
        c.journal_deadline_ms = DEADLINE_MS;
        // Below the deadline: a connection that cannot be had (its check
        // hangs) fails the append outright before the deadline.
        c.db_statement_timeout_ms = 1000;
    })
    .await;
    let deadline = Duration::from_millis(DEADLINE_MS);

    // Lobbies of two people and two bots each, played a little.
    let mut lobbies = Vec::new();
    for _ in 0..LOBBIES {
        let (id, humans) = started_lobby(srv.addr, &["Ann", "Ben"], 2).await;
        let mut players = Vec::new();
        for (seat, token) in &humans {
            players.push(Player::connect(srv.addr, &id, Some((*seat, token))).await);
        }
        lobbies.push((id, players));
    }
    for (_, players) in &mut lobbies {
        let tasks: Vec<_> = players
            .drain(..)
            .map(|p| tokio::spawn(p.play(Some(6))))
            .collect();
        for t in tasks {
            players.push(t.await.unwrap());
        }
    }

    // Lobby 0's action reaches the database and waits there on a row lock
    // the test holds. Then the database goes silent and the lock is let go:
    // the action commits, but no answer comes back (in doubt, stored late).
    let (id0, mut players0) = lobbies.remove(0);
    let mut lock = PgConnection::connect(&db.url).await.unwrap();
    lock.execute("BEGIN").await.unwrap();
    sqlx::query("SELECT 1 FROM games WHERE id = $1 FOR UPDATE")
        .bind(Uuid::parse_str(&id0).unwrap())
        .execute(&mut lock)
        .await
        .unwrap();
    let i0 = waiting(&mut players0).await;
    let version0 = players0[i0].version;
    let action0 = players0[i0].choice().unwrap();
    let began0 = Instant::now();
    let req0 = players0[i0].act(action0.clone()).await;
    let until = Instant::now() + WAIT;
    while sqlx::query_scalar::<_, i64>(
        "SELECT count(*) FROM pg_stat_activity \
         WHERE datname = current_database() AND wait_event_type = 'Lock'",
    )
    .fetch_one(&mut lock)
    .await
    .unwrap()
        == 0
    {
        assert!(Instant::now() < until, "the append never reached the lock");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    proxy.stall();
    lock.execute("COMMIT").await.unwrap();

    // Meanwhile, in every other lobby at once, the person whose turn it is
    // acts: each try is answered storage_unavailable within the deadline.
    let mut tries = Vec::new();
    for (id, mut players) in lobbies.drain(..) {
        tries.push(tokio::spawn(async move {
            let i = waiting(&mut players).await;
            let version = players[i].version;
            let action = players[i].choice().unwrap();
            for _ in 0..2 {
                let (reply, took) = answer_to(&mut players[i], action.clone()).await;
                assert_eq!(reply["code"], "storage_unavailable", "{reply}");
                assert!(took <= deadline + SLACK, "answered after {took:?}");
            }
            // The lobby itself is not stuck: chat goes through.
            players[i]
                .send(json!({ "type": "chat", "id": "c", "text": "still here?" }))
                .await;
            let other = 1 - i;
            let heard = players[other].until("chat").await;
            assert_eq!(heard["text"], "still here?");
            // And the game is where it was.
            let snap = players[other].resync().await;
            assert_eq!(snap["version"].as_u64(), Some(version));
            (id, players, version)
        }));
    }

    // Lobby 0 answers at the deadline, holds the action in doubt and so
    // refuses the next try at once; its game is where it was.
    let reply = loop {
        let m = players0[i0].next().await;
        if m["id"] == req0.as_str() {
            break m;
        }
    };
    let took = began0.elapsed();
    assert_eq!(reply["code"], "storage_unavailable", "{reply}");
    assert!(took <= deadline + SLACK, "answered after {took:?}");
    let (reply, took) = answer_to(&mut players0[i0], action0).await;
    assert_eq!(reply["code"], "storage_unavailable", "{reply}");
    assert!(took < deadline / 2, "an action in doubt is held: {took:?}");
    assert_eq!(
        players0[1 - i0].resync().await["version"].as_u64(),
        Some(version0)
    );

    let mut stalled = vec![(id0, players0, version0)];
    for t in tries {
        stalled.push(t.await.unwrap());
    }

    // The database answers again: every lobby settles (the action of the
    // stall adopted if it was stored late, else refused until retried) and
    // takes actions again.
    proxy.resume();
    let until = Instant::now() + WAIT;
    let mut adopted = Vec::new();
    for (_, players, version) in &mut stalled {
        loop {
            let i = waiting(players).await;
            let action = players[i].choice().unwrap();
            let (reply, _) = answer_to(&mut players[i], action).await;
            match reply["type"].as_str() {
                Some("accepted") => {
                    // Accepted right after the stall's version: the stall's
                    // action was not stored. Later: it was, and was adopted.
                    adopted.push(reply["version"].as_u64() != Some(*version + 1));
                    break;
                }
                _ if reply["code"] == "stale_version" => {
                    // The stall's action was adopted: its update is coming.
                    if players[i].version <= *version {
                        players[i].until("update").await;
                    }
                }
                _ => {
                    assert_eq!(reply["code"], "storage_unavailable", "{reply}");
                    assert!(Instant::now() < until, "lobby never settled");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
        for p in players.iter_mut() {
            p.refusals.clear();
        }
    }
    let mut done = Vec::new();
    for (id, mut players, version) in stalled {
        let tasks: Vec<_> = players
            .drain(..)
            .map(|p| tokio::spawn(p.play(Some(version + 12))))
            .collect();
        for t in tasks {
            players.push(t.await.unwrap());
        }
        done.push((id, players));
    }

    // Each log is the game the players saw: seqs 1..=version, and it replays.
    let store = Store::connect(&db.url).await.unwrap();
    for (id, players) in &done {
        let last = players.iter().map(|p| p.version).max().unwrap();
        let stored = store
            .load_game(Uuid::parse_str(id).unwrap())
            .await
            .unwrap()
            .unwrap();
        let seqs: Vec<u64> = stored.record.actions.iter().map(|a| a.seq).collect();
        assert_eq!(seqs, (1..=last).collect::<Vec<_>>(), "lobby {id}");
        let game = catan_core::record::replay(&stored.record).unwrap();
        let view = serde_json::to_value(game.view(catan_core::Viewer::Spectator)).unwrap();
        let spectator = Player::connect(srv.addr, id, None).await;
        assert_eq!(spectator.version, last);
        assert_eq!(
            spectator.view, view,
            "lobby {id}: the log replays to the game"
        );
    }
    store.close().await;
    // Lobby 0's action of the stall was stored late and adopted; the other
    // lobbies' were refused outright and never stored.
    let mut expected = vec![false; LOBBIES];
    expected[0] = true;
    assert_eq!(adopted, expected);
}
