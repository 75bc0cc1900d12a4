//! A takeover's reads keep their plans where PostgreSQL has no statistics
//! of the tables (autovacuum off, as on the CI machine, or not yet run on
//! tables that grew fast): the batch reads (its claim, its load of the
//! logs, the lookups' read of the owners) go by index, and the reaper's
//! look at every game in progress joins whole tables by hashing. Without
//! statistics the planner takes each game for half a percent of a table,
//! so a batch of 50 games for a quarter of it, and the load scanned the
//! whole journal: 1.5 s a batch at a million actions during a node's
//! recovery; and it took the games in progress for a few and probed the
//! leases' index once for each game (docs/PERFORMANCE.md, "A takeover's
//! reads without statistics"). Checked on a real PostgreSQL by the tables'
//! scan counters.

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

/// The tables a takeover reads.
const TABLES: [&str; 3] = ["games", "game_actions", "lobby_leases"];

/// Games in the journal, and actions each.
const GAMES: usize = 100;
const ACTIONS: i64 = 200;

/// A database without statistics holding [`GAMES`] games in progress of
/// [`ACTIONS`] actions each, and node "a" registered.
struct Journal {
    db: String,
    /// A session of its own, for the scan counters.
    admin: PgConnection,
    ids: Vec<Uuid>,
    generation: i64,
}

impl Journal {
    async fn new() -> Journal {
        let db = fresh_db("catan_plans_test").await;
        let store = Store::connect(&url_of(&db)).await.unwrap();
        let ids: Vec<Uuid> = (0..GAMES).map(|_| Uuid::new_v4()).collect();
        // Through the store only what scans none of the tables (inserts of
        // games, the node's row): its sessions report their scans only as
        // they end, after the counters below may have been read.
        for &id in &ids {
            store.create_game(&new_game(id)).await.unwrap();
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
        let first = RecordedAction {
            seq: 1,
            seat: Seat(0),
            action: Action::EndTurn,
            outcome: Default::default(),
            time: format_time(Utc::now()),
            stand_in: false,
        };
        sqlx::query(
            "INSERT INTO game_actions (game_id, seq, seat, action, outcome, time, stand_in) \
             SELECT g.id, s, 0, $2::jsonb, $3::jsonb, now(), false \
             FROM games g, generate_series(1, $1) AS s",
        )
        .bind(ACTIONS)
        .bind(serde_json::to_string(&first.action).unwrap())
        .bind(serde_json::to_string(&first.outcome).unwrap())
        .execute(&mut admin)
        .await
        .unwrap();
        // This session's own scans (the copy above) reach the counters when
        // it is next idle, before its next statement.
        sqlx::query("SELECT pg_stat_force_next_flush()")
            .execute(&mut admin)
            .await
            .unwrap();
        Journal {
            db,
            admin,
            ids,
            generation,
        }
    }

    /// Sequential and index scans of each of [`TABLES`] so far, as the
    /// statistics collector has them.
    async fn scans(&mut self) -> Vec<(i64, i64)> {
        let mut all = Vec::new();
        for table in TABLES {
            all.push(
                sqlx::query_as(
                    "SELECT seq_scan, coalesce(idx_scan, 0) FROM pg_stat_user_tables \
                     WHERE relname = $1",
                )
                .bind(table)
                .fetch_one(&mut self.admin)
                .await
                .unwrap(),
            );
        }
        all
    }

    /// The scans once `store`, closed now, has reported those of its
    /// sessions (at their end) to the counters: once every table in
    /// `reported` shows new scans.
    async fn scans_after(
        &mut self,
        store: Store,
        before: &[(i64, i64)],
        reported: &[&str],
    ) -> Vec<(i64, i64)> {
        store.close().await;
        let mut after = before.to_vec();
        for _ in 0..200 {
            after = self.scans().await;
            let new = |t: &&str| {
                let i = TABLES.iter().position(|x| x == t).unwrap();
                after[i] != before[i]
            };
            if reported.iter().all(new) {
                return after;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the scans of {reported:?} were never reported ({before:?}, {after:?})");
    }

    /// Closes the counters' session and drops the database.
    async fn remove(self) {
        self.admin.close().await.unwrap();
        drop_db(&self.db).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeovers_batch_reads_go_by_index_without_statistics() {
    let mut journal = Journal::new().await;
    let before = journal.scans().await;
    let store = Store::connect(&url_of(&journal.db)).await.unwrap();
    let want = &journal.ids[..50];
    let holder = Holder {
        node: "a",
        generation: journal.generation,
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
    let after = journal.scans_after(store, &before, &TABLES).await;
    for ((table, was), now) in TABLES.iter().zip(&before).zip(&after) {
        assert_eq!(
            now.0, was.0,
            "no sequential scan of {table} (scans before {was:?}, after {now:?})"
        );
    }
    journal.remove().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_look_for_orphans_hashes_whole_tables_without_statistics() {
    let mut journal = Journal::new().await;
    // Half the games leased to "a", whose lease has run out: every game is
    // an orphan, half of them with a lease row.
    sqlx::query(
        "INSERT INTO lobby_leases (lobby_id, node_id, gen, epoch, since) \
         SELECT u, 'a', $2, 1, now() FROM unnest($1::uuid[]) AS u",
    )
    .bind(&journal.ids[..GAMES / 2])
    .bind(journal.generation)
    .execute(&mut journal.admin)
    .await
    .unwrap();
    sqlx::query("UPDATE cluster_nodes SET lease_until = now() - interval '1 second'")
        .execute(&mut journal.admin)
        .await
        .unwrap();
    sqlx::query("SELECT pg_stat_force_next_flush()")
        .execute(&mut journal.admin)
        .await
        .unwrap();
    let before = journal.scans().await;
    let store = Store::connect(&url_of(&journal.db)).await.unwrap();
    let orphans = store
        .orphaned_games(2 * GAMES as i64, Duration::from_secs(60))
        .await
        .unwrap();
    assert_eq!(orphans.len(), GAMES, "every game is an orphan");
    let after = journal.scans_after(store, &before, &["lobby_leases"]).await;
    let leases = TABLES.iter().position(|t| *t == "lobby_leases").unwrap();
    assert_eq!(
        after[leases].1, before[leases].1,
        "the leases joined whole, not probed game by game (scans before {:?}, after {:?})",
        before[leases], after[leases]
    );
    journal.remove().await;
}
