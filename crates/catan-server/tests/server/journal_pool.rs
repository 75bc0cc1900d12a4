//! The appends' own pool on PostgreSQL: a game's actions are stored while
//! requests hold every connection of the main pool and more wait for one
//! (what a dead node's clients looking their lobbies up all at once did to
//! the survivors: their own games' actions were refused with
//! `storage_unavailable`, docs/PERFORMANCE.md).

use crate::harness::{Backend, TestDb};
use catan_core::record::{GameRecord, RecordedAction, SeatRecord, SeedReveal};
use catan_core::{Action, GameOptions, Seat};
use catan_server::journal::Journal;
use catan_server::persist::{StoreJournal, WRITER_CONNECTIONS};
use catan_store::{Store, StoreOptions, StoredGame, format_time};
use chrono::Utc;
use sqlx::{Connection, Executor, PgConnection};
use std::time::Duration;
use uuid::Uuid;

/// How long an append may take before the lobby refuses the action.
const DEADLINE: Duration = Duration::from_secs(2);

/// A pool of `connections` that waits at most a second for one.
fn options(connections: u32) -> StoreOptions {
    StoreOptions {
        statement_timeout: Duration::from_secs(30),
        acquire_timeout: Duration::from_secs(1),
        max_connections: connections,
        asynchronous_commit: false,
    }
}

/// A two-seat game, seed 7.
fn game(id: Uuid) -> StoredGame {
    let seats = ["Ann", "Ben"]
        .iter()
        .map(|n| SeatRecord {
            name: n.to_string(),
            bot: None,
        })
        .collect();
    let options = GameOptions {
        players: 2,
        ..GameOptions::default()
    };
    let reveal = SeedReveal {
        seed: 7,
        salt: "salt".into(),
    };
    let record = GameRecord::start(
        id.to_string(),
        format_time(Utc::now()),
        options,
        seats,
        reveal,
        None,
    );
    StoredGame::start(record, vec![None, None], serde_json::json!({})).unwrap()
}

/// The game's `seq`-th action (what it is does not matter to the journal).
fn action(seq: u64) -> RecordedAction {
    RecordedAction {
        seq,
        seat: Seat(0),
        action: Action::RollDice,
        outcome: Default::default(),
        time: format_time(Utc::now()),
        stand_in: false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appends_are_stored_while_requests_fill_the_main_pool() {
    let db = TestDb::new(Backend::Postgres).await;
    let main = Store::connect_with(&db.url, &options(2)).await.unwrap();
    let appends = Store::connect_with(&db.url, &options(WRITER_CONNECTIONS))
        .await
        .unwrap();
    let own = StoreJournal::with_writer(main.clone(), appends, DEADLINE);
    let shared = StoreJournal::new(main.clone(), DEADLINE);
    let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
    own.game_started(&game(a)).await.unwrap();
    shared.game_started(&game(b)).await.unwrap();

    // Requests that each hold a main connection until the lock goes (a
    // waiting room's lookup reads a table appends never touch), and more
    // queued behind them than the pool has.
    let mut lock = PgConnection::connect(&db.url).await.unwrap();
    lock.execute("BEGIN").await.unwrap();
    lock.execute("LOCK TABLE waiting_rooms IN ACCESS EXCLUSIVE MODE")
        .await
        .unwrap();
    let requests: Vec<_> = (0..6)
        .map(|_| {
            let main = main.clone();
            tokio::spawn(async move { main.waiting_room(Uuid::new_v4()).await })
        })
        .collect();
    // Wait until the pool is taken: both connections are blocked on the
    // lock, by the database's own account.
    let mut waiting = 0i64;
    for _ in 0..200 {
        (waiting,) = sqlx::query_as(
            "SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = 'waiting_rooms'::regclass",
        )
        .fetch_one(&mut lock)
        .await
        .unwrap();
        if waiting >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        waiting, 2,
        "the main pool's two connections wait on the lock"
    );

    // The journal with its own pool stores the action in time; the one
    // sharing the main pool cannot get a connection (the contrast shows
    // the full pool is real).
    own.append(a, &action(1))
        .await
        .expect("an append waited for the main pool");
    let refused = shared.append(b, &action(1)).await;
    assert!(
        refused.is_err(),
        "an append over the full main pool was stored"
    );

    lock.execute("ROLLBACK").await.unwrap();
    for r in requests {
        // Each answered, at worst with no connection in time: none hangs.
        let _ = r.await.unwrap();
    }
    let stored = main.load_game(a).await.unwrap().unwrap();
    assert_eq!(stored.record.actions.len(), 1, "the action is in the log");
}
