//! A takeover's batch reads (its claim, its load of the logs, the lookups'
//! read of the owners) go by index even where PostgreSQL has no
//! statistics of the tables (autovacuum off, as on the CI machine, or not
//! yet run on a journal that grew fast). Without them the planner takes
//! each game for half a percent of a table, so a batch of 50 games for a
//! quarter of it, and the load scanned the whole journal: 1.5 s a batch at
//! a million actions during a node's recovery (docs/PERFORMANCE.md, "A
//! takeover's log reads scanned the whole journal"). Checked on a real
//! PostgreSQL by the tables' scan counters.

#![allow(clippy::unwrap_used)]

#[path = "support/db.rs"]
mod db;

use catan_core::record::RecordedAction;
use catan_core::{Action, Seat};
use catan_store::{Holder, Store, format_time};
use chrono::Utc;
use db::{drop_db, fresh_db, new_game, url_of};
use sqlx::{Connection, PgConnection};
use std::time::Duration;
use uuid::Uuid;

/// The tables the batch reads read.
const TABLES: [&str; 3] = ["games", "game_actions", "lobby_leases"];

/// Games in the journal, and actions each.
const GAMES: usize = 100;
const ACTIONS: i64 = 200;

/// Sequential and index scans of `table` so far, as the statistics
/// collector has them.
async fn scans(conn: &mut PgConnection, table: &str) -> (i64, i64) {
    sqlx::query_as(
        "SELECT seq_scan, coalesce(idx_scan, 0) FROM pg_stat_user_tables WHERE relname = $1",
    )
    .bind(table)
    .fetch_one(conn)
    .await
    .unwrap()
}

/// [`scans`] of each of [`TABLES`].
async fn all_scans(conn: &mut PgConnection) -> Vec<(i64, i64)> {
    let mut all = Vec::new();
    for table in TABLES {
        all.push(scans(conn, table).await);
    }
    all
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeovers_batch_reads_go_by_index_without_statistics() {
    let db = fresh_db("catan_plans_test").await;
    let store = Store::connect(&url_of(&db)).await.unwrap();
    let ids: Vec<Uuid> = (0..GAMES).map(|_| Uuid::new_v4()).collect();
    for &id in &ids {
        store.create_game(&new_game(id)).await.unwrap();
        let first = RecordedAction {
            seq: 1,
            seat: Seat(0),
            action: Action::EndTurn,
            outcome: Default::default(),
            time: format_time(Utc::now()),
            stand_in: false,
        };
        store.append_action(id, &first).await.unwrap();
    }
    let generation = store
        .register_node(
            "a",
            "http://a.test",
            Uuid::new_v4(),
            Duration::from_secs(60),
        )
        .await
        .unwrap();
    store.close().await;
    let mut admin = PgConnection::connect(&url_of(&db)).await.unwrap();
    // No statistics for the whole test, whatever the server's autovacuum.
    for table in TABLES {
        sqlx::query(&format!(
            "ALTER TABLE {table} SET (autovacuum_enabled = false)"
        ))
        .execute(&mut admin)
        .await
        .unwrap();
    }
    sqlx::query(
        "INSERT INTO game_actions (game_id, seq, seat, action, outcome, time, stand_in) \
         SELECT a.game_id, s, a.seat, a.action, a.outcome, a.time, a.stand_in \
         FROM game_actions a, generate_series(2, $1) AS s",
    )
    .bind(ACTIONS)
    .execute(&mut admin)
    .await
    .unwrap();
    // This session's own scans (the copy above) reach the counters when it
    // is next idle.
    sqlx::query("SELECT pg_stat_force_next_flush()")
        .execute(&mut admin)
        .await
        .unwrap();
    let before = all_scans(&mut admin).await;

    let store = Store::connect(&url_of(&db)).await.unwrap();
    let want = &ids[..50];
    let holder = Holder {
        node: "a",
        generation,
    };
    let won = store.claim_games(want, holder).await.unwrap();
    assert_eq!(won.len(), 50, "every game of the batch claimed");
    let owners = store.lease_owners(want).await.unwrap();
    assert!(owners.values().all(|o| o.node_id.as_deref() == Some("a")));
    let loaded = store.load_games(want).await.unwrap();
    assert_eq!(loaded.len(), 50);
    assert!(
        loaded
            .iter()
            .all(|g| g.record.actions.len() == ACTIONS as usize)
    );
    // The store's sessions report their scans as they end.
    store.close().await;
    let mut after = before.clone();
    for _ in 0..200 {
        after = all_scans(&mut admin).await;
        if after.iter().zip(&before).all(|(a, b)| a != b) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for ((table, was), now) in TABLES.iter().zip(&before).zip(&after) {
        assert_ne!(
            now, was,
            "the batch reads' scans of {table} were never reported"
        );
        assert_eq!(
            now.0, was.0,
            "no sequential scan of {table} (scans before {was:?}, after {now:?})"
        );
    }
    admin.close().await.unwrap();
    drop_db(&db).await;
}
