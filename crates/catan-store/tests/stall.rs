//! The store under a PostgreSQL that stops answering (a black-hole proxy
//! between the store and the server, not a refusal): every append during
//! the stall fails within its deadline with an unavailable error, appends
//! after it work, in-doubt appends settle with `ensure_action` to exactly
//! the action sent, and no game's log has a gap. Also: the statement timeout
//! cancels a long statement, an append stuck in the database (a row lock)
//! does not hold back other games' appends, and only a pool asked for it
//! commits without waiting for the disk.

#![allow(clippy::unwrap_used)]

#[path = "support/blackhole.rs"]
mod blackhole;
#[path = "support/db.rs"]
mod db;

use blackhole::BlackHole;
use catan_core::record::RecordedAction;
use catan_core::{Action, Seat};
use catan_store::{GroupCommit, GroupCommitConfig, Store, StoreOptions, StoredGame, format_time};
use chrono::Utc;
use db::{admin_url, drop_db, fresh_db};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::time::Instant;
use uuid::Uuid;

const DEADLINE: Duration = Duration::from_millis(1500);
/// What an answer may take beyond the deadline (scheduling on a loaded box).
const SLACK: Duration = Duration::from_millis(700);
const GAMES: usize = 8;

/// The admin URL's user and host, `host_port` instead of its port, `db` as
/// the database.
fn url_via(host_port: SocketAddr, db: &str) -> String {
    let url = admin_url();
    let rest = url.split_once("://").map_or(url.as_str(), |(_, r)| r);
    let user = rest.split_once('@').map_or("postgres", |(u, _)| u);
    format!("postgres://{user}@{host_port}/{db}")
}

fn upstream() -> SocketAddr {
    let url = admin_url();
    let rest = url.split_once("://").map_or(url.as_str(), |(_, r)| r);
    let host = rest.split_once('@').map_or(rest, |(_, h)| h);
    let host = host.split(['/', '?']).next().unwrap();
    let host = if host.contains(':') {
        host.to_string()
    } else {
        format!("{host}:5432")
    };
    let host = host.replace("localhost", "127.0.0.1");
    host.parse().unwrap()
}

fn new_game() -> StoredGame {
    db::new_game(Uuid::new_v4())
}

fn action(seq: u64) -> RecordedAction {
    RecordedAction {
        seq,
        seat: Seat((seq % 2) as u8),
        action: if seq.is_multiple_of(2) {
            Action::RollDice
        } else {
            Action::EndTurn
        },
        outcome: Default::default(),
        time: format_time(Utc::now()),
        stand_in: false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appends_during_a_stall_fail_in_time_and_settle_without_a_gap() {
    let db = fresh_db("catan_stall_test").await;
    let proxy = BlackHole::start(upstream()).await;
    let opts = StoreOptions {
        statement_timeout: Duration::from_millis(1000),
        acquire_timeout: Duration::from_millis(1000),
        max_connections: 6,
        ..StoreOptions::default()
    };
    let store = Store::connect_with(&url_via(([127, 0, 0, 1], proxy.port).into(), &db), &opts)
        .await
        .unwrap();
    let batches = Arc::new(AtomicUsize::new(0));
    let seen = batches.clone();
    let writer = GroupCommit::spawn(
        store.clone(),
        GroupCommitConfig {
            deadline: DEADLINE,
            observer: Some(Arc::new(move |n| {
                seen.fetch_add(n, Ordering::SeqCst);
            })),
            ..GroupCommitConfig::default()
        },
    );
    let mut games = Vec::new();
    for _ in 0..GAMES {
        let g = new_game();
        store.create_game(&g).await.unwrap();
        games.push(g.id);
    }
    for seq in 1..=3 {
        for &id in &games {
            writer.append(id, action(seq)).await.unwrap();
        }
    }
    assert_eq!(batches.load(Ordering::SeqCst), 3 * GAMES, "observer counts");

    // The database stops answering; every game tries its seq 4 (twice for
    // the first half: a second round while the first is stuck).
    proxy.stall();
    let mut tries = Vec::new();
    for (i, &id) in games.iter().enumerate() {
        let w = writer.clone();
        tries.push(tokio::spawn(async move {
            let mut answers = Vec::new();
            for _ in 0..(if i < GAMES / 2 { 2 } else { 1 }) {
                let began = Instant::now();
                let r = w.append(id, action(4)).await;
                answers.push((began.elapsed(), r));
            }
            answers
        }));
    }
    for t in tries {
        for (took, r) in t.await.unwrap() {
            let e = r.expect_err("no append can succeed while the database is silent");
            assert!(e.is_unavailable(), "{e}");
            assert!(took <= DEADLINE + SLACK, "answered after {took:?}");
        }
    }

    // Back: each game settles its seq 4 (written now, or found committed
    // late from the stall and checked to be the same action).
    proxy.resume();
    let until = Instant::now() + Duration::from_secs(20);
    for &id in &games {
        loop {
            match store.ensure_action(id, &action(4), DEADLINE).await {
                Ok(()) => break,
                Err(e) if e.is_in_doubt() || e.is_unavailable() => {
                    assert!(Instant::now() < until, "never settled: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => panic!("settling failed: {e}"),
            }
        }
        // Settling again is harmless; a different action at seq 4 is not.
        store.ensure_action(id, &action(4), DEADLINE).await.unwrap();
        let mut other = action(4);
        other.action = Action::EndTurn;
        assert!(matches!(
            store.ensure_action(id, &other, DEADLINE).await,
            Err(catan_store::StoreError::Conflict { seq: 4, .. })
        ));
    }
    for seq in 5..=6 {
        for &id in &games {
            writer.append(id, action(seq)).await.unwrap();
        }
    }

    // Every log: 1..=6, no gap, seq 4 the action sent.
    let direct = Store::connect(&format!("{}/{db}", admin_url().rsplit_once('/').unwrap().0))
        .await
        .unwrap();
    for &id in &games {
        let g = direct.load_game(id).await.unwrap().unwrap();
        let seqs: Vec<u64> = g.record.actions.iter().map(|a| a.seq).collect();
        assert_eq!(seqs, (1..=6).collect::<Vec<_>>());
        assert_eq!(g.record.actions[3].action, Action::RollDice);
    }
    direct.close().await;
    store.close().await;
    drop_db(&db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_statement_timeout_cancels_a_long_statement() {
    let db = fresh_db("catan_stall_test").await;
    let opts = StoreOptions {
        statement_timeout: Duration::from_millis(300),
        ..StoreOptions::default()
    };
    let url = format!("{}/{db}", admin_url().rsplit_once('/').unwrap().0);
    let store = Store::connect_with(&url, &opts).await.unwrap();
    let Store::Postgres(pool) = &store else {
        panic!("a postgres URL gives a postgres store");
    };
    let began = Instant::now();
    let e = sqlx::query("SELECT pg_sleep(10)")
        .execute(pool)
        .await
        .expect_err("pg_sleep(10) outlives a 300 ms statement timeout");
    assert!(
        began.elapsed() < Duration::from_secs(5),
        "{:?}",
        began.elapsed()
    );
    let code = e
        .as_database_error()
        .and_then(|d| d.code().map(|c| c.into_owned()));
    assert_eq!(code.as_deref(), Some("57014"), "query_canceled: {e}");
    // The pool still works afterwards.
    store.ping().await.unwrap();
    store.close().await;
    drop_db(&db).await;
}

/// A pool for writes a database crash may lose commits without waiting for
/// the disk, and keeps its statement timeout; the default pool waits.
#[tokio::test]
async fn asynchronous_commits_are_asked_for_only_where_set() {
    let db = fresh_db("catan_stall_test").await;
    let url = format!("{}/{db}", admin_url().rsplit_once('/').unwrap().0);
    for (asynchronous_commit, expected) in [(true, "off"), (false, "on")] {
        let opts = StoreOptions {
            statement_timeout: Duration::from_millis(1234),
            asynchronous_commit,
            ..StoreOptions::default()
        };
        let store = Store::connect_with(&url, &opts).await.unwrap();
        let Store::Postgres(pool) = &store else {
            panic!("a postgres URL gives a postgres store");
        };
        let (commit, timeout): (String, String) = sqlx::query_as(
            "SELECT current_setting('synchronous_commit'), current_setting('statement_timeout')",
        )
        .fetch_one(pool)
        .await
        .unwrap();
        assert_eq!(
            commit, expected,
            "asynchronous_commit: {asynchronous_commit}"
        );
        assert_eq!(timeout, "1234ms");
        store.close().await;
    }
    drop_db(&db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stuck_append_does_not_hold_back_other_games() {
    use sqlx::{Connection, Executor};
    let db = fresh_db("catan_stall_test").await;
    let url = format!("{}/{db}", admin_url().rsplit_once('/').unwrap().0);
    let store = Store::connect(&url).await.unwrap();
    let writer = GroupCommit::spawn(store.clone(), GroupCommitConfig::default());
    let mut games = Vec::new();
    for _ in 0..4 {
        let g = new_game();
        store.create_game(&g).await.unwrap();
        writer.append(g.id, action(1)).await.unwrap();
        games.push(g.id);
    }
    // The first game's row is locked, so its next append waits in the
    // database (inserting an action checks its game row).
    let mut lock = sqlx::PgConnection::connect(&url).await.unwrap();
    lock.execute("BEGIN").await.unwrap();
    sqlx::query("SELECT 1 FROM games WHERE id = $1 FOR UPDATE")
        .bind(games[0])
        .execute(&mut lock)
        .await
        .unwrap();
    let stuck = {
        let w = writer.clone();
        let id = games[0];
        tokio::spawn(async move { w.append(id, action(2)).await })
    };
    let until = Instant::now() + Duration::from_secs(10);
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
    // The other games' appends go through meanwhile, well before the stuck
    // one's statement timeout (4 s) or deadline (5 s).
    for &id in &games[1..] {
        let began = Instant::now();
        writer.append(id, action(2)).await.unwrap();
        assert!(
            began.elapsed() < Duration::from_secs(2),
            "{:?}",
            began.elapsed()
        );
    }
    assert!(
        !stuck.is_finished(),
        "the first game's append is still waiting"
    );
    lock.execute("COMMIT").await.unwrap();
    stuck.await.unwrap().unwrap();
    for &id in &games {
        let g = store.load_game(id).await.unwrap().unwrap();
        let seqs: Vec<u64> = g.record.actions.iter().map(|a| a.seq).collect();
        assert_eq!(seqs, vec![1, 2]);
    }
    store.close().await;
    drop_db(&db).await;
}
