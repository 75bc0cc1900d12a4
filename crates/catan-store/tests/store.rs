//! One store test suite, run against real PostgreSQL (`DATABASE_URL`, a fresh
//! database per test) and against SQLite (a fresh temporary file per test).

#![allow(clippy::unwrap_used)]

use catan_core::playout::Playout;
use catan_core::record::{
    GameRecord, GameResult, GameStatus, OpenerRoll, RecordedAction, SeatRecord, SeedReveal,
    commitment, replay, verify,
};
use catan_core::{Action, Game, GameOptions, Seat};
use catan_store::{
    GroupCommit, GroupCommitConfig, Store, StoreError, StoredGame, format_time, hash_token,
};
use chrono::{DateTime, Duration, TimeZone, Utc};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use uuid::Uuid;

/// A store on a fresh database, removed by [`TestDb::drop_db`].
struct TestDb {
    store: Store,
    cleanup: Cleanup,
}

enum Cleanup {
    Postgres { admin_url: String, name: String },
    Sqlite { path: std::path::PathBuf },
}

impl TestDb {
    async fn postgres() -> TestDb {
        let admin_url = std::env::var("DATABASE_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
        let name = format!("catan_store_test_{}", Uuid::new_v4().simple());
        let admin = sqlx::PgPool::connect(&admin_url).await.unwrap();
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&admin)
            .await
            .unwrap();
        admin.close().await;
        let url = with_database(&admin_url, &name);
        let store = Store::connect(&url).await.unwrap();
        TestDb {
            store,
            cleanup: Cleanup::Postgres { admin_url, name },
        }
    }

    async fn sqlite() -> TestDb {
        let path = std::env::temp_dir().join(format!("catan-store-test-{}.db", Uuid::new_v4()));
        let store = Store::connect(&format!("sqlite://{}?mode=rwc", path.display()))
            .await
            .unwrap();
        TestDb {
            store,
            cleanup: Cleanup::Sqlite { path },
        }
    }

    async fn drop_db(self) {
        self.store.close().await;
        match self.cleanup {
            Cleanup::Postgres { admin_url, name } => {
                let admin = sqlx::PgPool::connect(&admin_url).await.unwrap();
                sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                    .execute(&admin)
                    .await
                    .unwrap();
                admin.close().await;
            }
            Cleanup::Sqlite { path } => {
                for suffix in ["", "-wal", "-shm"] {
                    let mut p = path.clone().into_os_string();
                    p.push(suffix);
                    let _ = std::fs::remove_file(p);
                }
            }
        }
    }
}

/// `url` with its database name replaced by `name`.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (url, String::new()),
    };
    let cut = base
        .rfind('/')
        .filter(|&i| i > "postgres://".len())
        .unwrap_or(base.len());
    format!("{}/{name}{query}", &base[..cut])
}

fn t(secs: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2025, 3, 1, 12, 0, 0).unwrap() + Duration::seconds(secs)
}

/// People in every seat but the last, a bot there; the token hash of each person.
fn seats(names: &[&str]) -> (Vec<SeatRecord>, Vec<Option<String>>) {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let bot = i == names.len() - 1;
            let seat = SeatRecord {
                name: n.to_string(),
                bot: bot.then(|| "random".to_string()),
            };
            (seat, (!bot).then(|| hash_token(&format!("token-{n}"))))
        })
        .unzip()
}

fn new_game(created: DateTime<Utc>, names: &[&str], seed: u64) -> StoredGame {
    let options = GameOptions {
        players: names.len() as u8,
        ..GameOptions::default()
    };
    let (seats, token_hashes) = seats(names);
    let reveal = SeedReveal {
        seed,
        salt: format!("salt-{seed}"),
    };
    let record = GameRecord::start(
        Uuid::new_v4().to_string(),
        format_time(created),
        options,
        seats,
        reveal,
        None,
    );
    let lobby = serde_json::json!({ "name": "test lobby", "private": false });
    StoredGame::start(record, token_hashes, lobby).unwrap()
}

fn action(seq: u64, time: DateTime<Utc>) -> RecordedAction {
    RecordedAction {
        seq,
        seat: Seat((seq % 4) as u8),
        action: if seq.is_multiple_of(2) {
            Action::RollDice
        } else {
            Action::EndTurn
        },
        outcome: catan_core::record::Outcome {
            dice: seq.is_multiple_of(2).then_some([1 + (seq % 6) as u8, 3]),
            ..Default::default()
        },
        time: format_time(time),
        stand_in: seq.is_multiple_of(3),
    }
}

/// A random 4-player game played to the end, recorded as the server would.
fn played_game(seed: u64) -> (StoredGame, Game, Vec<RecordedAction>) {
    let mut g = new_game(t(0), &["Alice", "Bob", "Carol", "Dave"], seed);
    let (mut game, opener) = Game::new(g.record.options, seed).unwrap();
    g.record.opener = OpenerRoll::from_event(&opener);
    let mut actions = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    Playout::new().run(&mut game, &mut rng, 2000, |_, seat, a, events| {
        let seq = actions.len() as u64 + 1;
        actions.push(RecordedAction::new(
            seq,
            seat,
            *a,
            events,
            format_time(t(seq as i64)),
            false,
        ));
    });
    (g, game, actions)
}

// ---- the suite: one async fn per behaviour, run on both backends ----

async fn appended_actions_load_in_seq_order_with_every_field(store: &Store) {
    let g = new_game(t(0), &["Ann", "Ben", "Bot"], 7);
    store.create_game(&g).await.unwrap();
    // Appended out of order: loading still yields seq order.
    for seq in [2, 1, 3, 5, 4] {
        store
            .append_action(g.id, &action(seq, t(seq as i64)))
            .await
            .unwrap();
    }
    let loaded = store.load_game(g.id).await.unwrap().unwrap();
    let want: Vec<_> = (1..=5).map(|s| action(s, t(s as i64))).collect();
    assert_eq!(loaded.record.actions, want);
    // Everything else comes back as it was given.
    let mut sans_actions = loaded.clone();
    sans_actions.record.actions.clear();
    assert_eq!(sans_actions, g);
    assert_eq!(loaded.token_hashes[0], Some(hash_token("token-Ann")));
    assert_eq!(loaded.record.seed_commitment, commitment(7, "salt-7"));
    assert_eq!(loaded.record.seed.as_ref().unwrap().seed, 7);
    assert_eq!(loaded.record.status, GameStatus::InProgress);
}

async fn duplicate_seq_is_rejected_and_the_first_write_kept(store: &Store) {
    let g = new_game(t(0), &["Ann", "Ben", "Bot"], 8);
    store.create_game(&g).await.unwrap();
    let first = action(1, t(1));
    store.append_action(g.id, &first).await.unwrap();
    let mut second = action(1, t(2));
    second.action = Action::BuyDevelopmentCard;
    let err = store.append_action(g.id, &second).await.unwrap_err();
    assert!(err.is_duplicate_seq(), "{err}");
    assert!(matches!(err, StoreError::DuplicateSeq { seq: 1, game_id } if game_id == g.id));
    let loaded = store.load_game(g.id).await.unwrap().unwrap();
    assert_eq!(loaded.record.actions, vec![first]);
    // The same seq in another game is fine.
    let other = new_game(t(0), &["Cy", "Di", "Bot"], 9);
    store.create_game(&other).await.unwrap();
    store
        .append_action(other.id, &action(1, t(1)))
        .await
        .unwrap();
}

async fn append_to_an_unknown_game_is_refused(store: &Store) {
    let id = Uuid::new_v4();
    let err = store.append_action(id, &action(1, t(1))).await.unwrap_err();
    assert!(
        matches!(err, StoreError::UnknownGame(g) if g == id),
        "{err}"
    );
}

async fn append_with_a_bad_time_is_refused(store: &Store) {
    let g = new_game(t(0), &["Ann", "Ben", "Bot"], 8);
    store.create_game(&g).await.unwrap();
    let mut a = action(1, t(1));
    a.time = "yesterday".into();
    assert!(matches!(
        store.append_action(g.id, &a).await,
        Err(StoreError::Invalid(_))
    ));
}

async fn creating_a_game_twice_is_refused(store: &Store) {
    let g = new_game(t(0), &["Ann", "Ben", "Bot"], 10);
    store.create_game(&g).await.unwrap();
    assert!(matches!(
        store.create_game(&g).await,
        Err(StoreError::DuplicateGame(id)) if id == g.id
    ));
}

async fn unfinished_games_are_found_with_seed_and_token_hashes(store: &Store) {
    let a = new_game(t(0), &["Ann", "Ben", "Bot"], 11);
    let b = new_game(t(10), &["Cy", "Di", "Bot"], 12);
    let c = new_game(t(20), &["Ed", "Flo", "Bot"], 13);
    for g in [&a, &b, &c] {
        store.create_game(g).await.unwrap();
    }
    store.append_action(c.id, &action(1, t(21))).await.unwrap();
    store
        .finish_game(b.id, GameStatus::Finished, None, t(30))
        .await
        .unwrap();
    let games = store.unfinished_games().await.unwrap();
    let ids: Vec<String> = games.iter().map(|g| g.record.game_id.clone()).collect();
    assert_eq!(ids, vec![a.id.to_string(), c.id.to_string()]);
    assert_eq!(games[1].record.actions.len(), 1);
    assert_eq!(games[1].token_hashes[0], Some(hash_token("token-Ed")));
    assert_eq!(games[1].token_hashes[2], None);
    assert_eq!(games[1].record.seed.as_ref().unwrap().seed, 13);
}

async fn record_hides_seed_until_finished_and_never_shows_token_hashes(store: &Store) {
    let (g, _, actions) = played_game(3);
    store.create_game(&g).await.unwrap();
    for a in &actions[..10] {
        store.append_action(g.id, a).await.unwrap();
    }
    let live = store.get_record(g.id).await.unwrap().unwrap();
    assert_eq!(live.seed, None);
    assert_eq!(live.seed_commitment, g.record.seed_commitment);
    let json = serde_json::to_string(&live).unwrap();
    assert!(!json.contains(&hash_token("token-Alice")));
    assert!(!json.contains("token"));
    assert!(!json.contains("salt-3"));
    store
        .finish_game(g.id, GameStatus::Abandoned, None, t(99))
        .await
        .unwrap();
    let over = store.get_record(g.id).await.unwrap().unwrap();
    let reveal = over.seed.unwrap();
    assert_eq!((reveal.seed, reveal.salt.as_str()), (3, "salt-3"));
    assert!(store.get_record(Uuid::new_v4()).await.unwrap().is_none());
}

async fn finished_game_record_replays_and_verifies(store: &Store) {
    let (g, game, actions) = played_game(5);
    assert!(game.winner().is_some());
    store.create_game(&g).await.unwrap();
    for a in &actions {
        store.append_action(g.id, a).await.unwrap();
    }
    let result = GameResult::from_game(&game);
    store
        .finish_game(g.id, GameStatus::Finished, Some(&result), t(5000))
        .await
        .unwrap();
    let record = store.get_record(g.id).await.unwrap().unwrap();
    assert_eq!(record.actions, actions);
    assert_eq!(record.result, Some(result));
    assert_eq!(replay(&record).unwrap(), game);
    let report = verify(&record).unwrap();
    assert!(report.finished && report.opener_checked);
    assert_eq!(report.actions, actions.len());
    // Once over it is no longer "unfinished".
    assert!(store.unfinished_games().await.unwrap().is_empty());
}

async fn finished_list_pages_newest_first_and_filters_by_player(store: &Store) {
    let names: [&[&str]; 5] = [
        &["Alice", "Bob", "Bot"],
        &["Carol", "Dave", "Bot"],
        &["alicia", "Eve", "Bot"],
        &["Frank", "Grace", "Bot"],
        &["Heidi", "ALICE", "Bot"],
    ];
    let mut ids = Vec::new();
    for (i, n) in names.iter().enumerate() {
        let g = new_game(t(i as i64), n, 100 + i as u64);
        store.create_game(&g).await.unwrap();
        store.append_action(g.id, &action(1, t(1))).await.unwrap();
        // Finished in reverse creation order: newest end first is 0,1,2,3,4.
        store
            .finish_game(g.id, GameStatus::Finished, None, t(1000 - i as i64))
            .await
            .unwrap();
        ids.push(g.id);
    }
    let running = new_game(t(50), &["Alice", "Zed", "Bot"], 200);
    store.create_game(&running).await.unwrap();

    let p1 = store.list_finished(1, 2, None).await.unwrap();
    assert_eq!(p1.total, 5);
    assert_eq!(p1.games.iter().map(|g| g.id).collect::<Vec<_>>(), ids[..2]);
    assert_eq!(p1.games[0].actions, 1);
    assert_eq!(p1.games[0].seats[0].name, "Alice");
    assert_eq!(p1.games[0].finished, Some(format_time(t(1000))));
    let p3 = store.list_finished(3, 2, None).await.unwrap();
    assert_eq!(p3.games.iter().map(|g| g.id).collect::<Vec<_>>(), ids[4..]);
    assert!(
        store
            .list_finished(4, 2, None)
            .await
            .unwrap()
            .games
            .is_empty()
    );

    let alice = store.list_finished(1, 10, Some("aLiC")).await.unwrap();
    assert_eq!(alice.total, 3);
    assert_eq!(
        alice.games.iter().map(|g| g.id).collect::<Vec<_>>(),
        vec![ids[0], ids[2], ids[4]]
    );
    let none = store.list_finished(1, 10, Some("nobody")).await.unwrap();
    assert_eq!((none.total, none.games.len()), (0, 0));
    // Characters that are wildcards in SQL match only themselves.
    assert_eq!(
        store.list_finished(1, 10, Some("%")).await.unwrap().total,
        0
    );
    assert_eq!(
        store.list_finished(1, 10, Some("  ")).await.unwrap().total,
        5
    );
    // Page numbers and sizes are clamped, not errors.
    let p0 = store.list_finished(0, 0, None).await.unwrap();
    assert_eq!((p0.page, p0.per_page, p0.games.len()), (1, 1, 1));
}

async fn updated_seats_are_loaded_and_searched(store: &Store) {
    let g = new_game(t(0), &["Ann", "Ben", "Bot"], 14);
    store.create_game(&g).await.unwrap();
    let mut s = g.clone();
    s.record.seats[1] = SeatRecord {
        name: "Stand-in bot".into(),
        bot: Some("random".into()),
    };
    s.token_hashes[1] = None;
    store.update_seats(&s).await.unwrap();
    assert_eq!(store.load_game(g.id).await.unwrap().unwrap(), s);
    store
        .finish_game(g.id, GameStatus::Finished, None, t(9))
        .await
        .unwrap();
    assert_eq!(
        store.list_finished(1, 10, Some("ben")).await.unwrap().total,
        0
    );
    assert_eq!(
        store
            .list_finished(1, 10, Some("stand-in"))
            .await
            .unwrap()
            .total,
        1
    );
    s.id = Uuid::new_v4();
    assert!(matches!(
        store.update_seats(&s).await,
        Err(StoreError::UnknownGame(_))
    ));
    let mut short = g.clone();
    short.token_hashes.pop();
    assert!(matches!(
        store.update_seats(&short).await,
        Err(StoreError::Invalid(_))
    ));
}

async fn concurrent_appends_to_many_games_all_land(store: &Store) {
    let mut games = Vec::new();
    for i in 0..6 {
        let g = new_game(t(i), &["Ann", "Ben", "Bot"], 300 + i as u64);
        store.create_game(&g).await.unwrap();
        games.push(g.id);
    }
    let mut tasks = Vec::new();
    for &id in &games {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            for seq in 1..=40 {
                store
                    .append_action(id, &action(seq, t(seq as i64)))
                    .await
                    .unwrap();
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    for id in games {
        let g = store.load_game(id).await.unwrap().unwrap();
        let seqs: Vec<u64> = g.record.actions.iter().map(|a| a.seq).collect();
        assert_eq!(seqs, (1..=40).collect::<Vec<_>>());
    }
}

async fn finishing_needs_an_over_status_and_a_known_game(store: &Store) {
    let g = new_game(t(0), &["Ann", "Ben", "Bot"], 15);
    store.create_game(&g).await.unwrap();
    assert!(matches!(
        store
            .finish_game(g.id, GameStatus::InProgress, None, t(1))
            .await,
        Err(StoreError::Invalid(_))
    ));
    assert!(matches!(
        store
            .finish_game(Uuid::new_v4(), GameStatus::Finished, None, t(1))
            .await,
        Err(StoreError::UnknownGame(_))
    ));
    store.ping().await.unwrap();
}

async fn group_commit_stores_every_action_and_isolates_a_duplicate(store: &Store) {
    let batcher = GroupCommit::spawn(
        store.clone(),
        GroupCommitConfig {
            max_batch: 16,
            queue: 64,
            ..GroupCommitConfig::default()
        },
    );
    let mut games = Vec::new();
    for i in 0..5 {
        let g = new_game(t(i), &["Ann", "Ben", "Bot"], 400 + i as u64);
        store.create_game(&g).await.unwrap();
        games.push(g.id);
    }
    // Like lobbies: each game awaits its append before sending the next.
    let mut tasks = Vec::new();
    for &id in &games {
        let b = batcher.clone();
        tasks.push(tokio::spawn(async move {
            for seq in 1..=30 {
                b.append(id, action(seq, t(seq as i64))).await.unwrap();
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    // A duplicate sent alongside good appends fails alone.
    let dup = batcher.append(games[0], action(5, t(5)));
    let good = batcher.append(games[1], action(31, t(31)));
    let (dup, good) = tokio::join!(dup, good);
    assert!(dup.unwrap_err().is_duplicate_seq());
    good.unwrap();
    for (i, id) in games.iter().enumerate() {
        let n = store
            .load_game(*id)
            .await
            .unwrap()
            .unwrap()
            .record
            .actions
            .len();
        assert_eq!(n, if i == 1 { 31 } else { 30 });
    }
    // An all-or-nothing batch with a duplicate stores nothing.
    let batch = vec![(games[2], action(31, t(31))), (games[2], action(1, t(1)))];
    match store.append_actions(&batch).await {
        Err(StoreError::DuplicateSeq { game_id, seq }) => {
            assert_eq!((game_id, seq), (games[2], 1), "names the taken seq");
        }
        other => panic!("expected DuplicateSeq, got {other:?}"),
    }
    let n = store
        .load_game(games[2])
        .await
        .unwrap()
        .unwrap()
        .record
        .actions
        .len();
    assert_eq!(n, 30);
}

async fn ensure_action_writes_once_and_refuses_a_different_action(store: &Store) {
    let g = new_game(t(0), &["Ann", "Ben", "Bot"], 500);
    store.create_game(&g).await.unwrap();
    let deadline = std::time::Duration::from_secs(5);
    // Absent: written. Present and equal: nothing to do.
    store
        .ensure_action(g.id, &action(1, t(1)), deadline)
        .await
        .unwrap();
    store.append_action(g.id, &action(2, t(2))).await.unwrap();
    store
        .ensure_action(g.id, &action(2, t(9)), deadline)
        .await
        .unwrap();
    // Present and different (another seat, action or outcome): a conflict,
    // and the stored action stays.
    let mut other = action(2, t(2));
    other.action = Action::EndTurn;
    match store.ensure_action(g.id, &other, deadline).await {
        Err(StoreError::Conflict { game_id, seq }) => assert_eq!((game_id, seq), (g.id, 2)),
        r => panic!("expected a conflict, got {r:?}"),
    }
    let mut other = action(2, t(2));
    other.outcome.dice = Some([6, 6]);
    assert!(matches!(
        store.ensure_action(g.id, &other, deadline).await,
        Err(StoreError::Conflict { .. })
    ));
    assert!(matches!(
        store
            .ensure_action(Uuid::new_v4(), &action(1, t(1)), deadline)
            .await,
        Err(StoreError::UnknownGame(_))
    ));
    let stored = store.load_game(g.id).await.unwrap().unwrap().record.actions;
    assert_eq!(stored, vec![action(1, t(1)), action(2, t(2))]);
}

async fn an_unplayed_game_can_be_replaced_but_not_a_played_one(store: &Store) {
    let first = new_game(t(0), &["Ann", "Ben", "Bot"], 600);
    store.create_game(&first).await.unwrap();
    let mut again = new_game(t(1), &["Ann", "Ben", "Bot"], 601);
    again.id = first.id;
    again.record.game_id = first.id.to_string();
    assert!(matches!(
        store.create_game(&again).await,
        Err(StoreError::DuplicateGame(_))
    ));
    store.replace_unplayed_game(&again).await.unwrap();
    let stored = store.load_game(first.id).await.unwrap().unwrap();
    assert_eq!(stored.record.seed.map(|s| s.seed), Some(601));
    store
        .append_action(first.id, &action(1, t(2)))
        .await
        .unwrap();
    assert!(matches!(
        store.replace_unplayed_game(&first).await,
        Err(StoreError::DuplicateGame(_))
    ));
    let stored = store.load_game(first.id).await.unwrap().unwrap();
    assert_eq!(stored.record.seed.map(|s| s.seed), Some(601));
    assert_eq!(stored.record.actions.len(), 1);
}

async fn only_a_game_that_starts_can_be_created(store: &Store) {
    let good = new_game(t(0), &["Ann", "Ben", "Bot"], 700);
    let refused = |g: StoredGame| async move {
        let e = store.create_game(&g).await.unwrap_err();
        assert!(matches!(e, StoreError::Invalid(_)), "{e}");
        assert!(store.load_game(g.id).await.unwrap().is_none());
    };
    let mut g = good.clone();
    g.record.actions.push(action(1, t(1)));
    refused(g).await;
    let mut g = good.clone();
    g.record.seed_commitment = commitment(701, "salt-700");
    refused(g).await;
    let mut g = good.clone();
    g.record.seed = None;
    refused(g).await;
    let mut g = good.clone();
    g.record.game_id = Uuid::new_v4().to_string();
    refused(g).await;
    let mut g = good.clone();
    g.token_hashes.pop();
    refused(g).await;
    let mut g = good.clone();
    g.record.status = GameStatus::Finished;
    refused(g).await;
    store.create_game(&good).await.unwrap();
}

/// The `seats` column as JSON: `[{name, bot, token_hash}]` by seat.
async fn seats_column(store: &Store, id: Uuid) -> serde_json::Value {
    let text: String = match store {
        Store::Postgres(p) => sqlx::query_scalar("SELECT seats::text FROM games WHERE id = $1")
            .bind(id)
            .fetch_one(p)
            .await
            .unwrap(),
        Store::Sqlite(p) => sqlx::query_scalar("SELECT seats FROM games WHERE id = ?1")
            .bind(id.to_string())
            .fetch_one(p)
            .await
            .unwrap(),
    };
    serde_json::from_str(&text).unwrap()
}

async fn the_seats_column_keeps_names_bots_and_token_hashes_together(store: &Store) {
    let g = new_game(t(0), &["Ann", "Bot"], 702);
    store.create_game(&g).await.unwrap();
    assert_eq!(
        seats_column(store, g.id).await,
        serde_json::json!([
            { "name": "Ann", "bot": null, "token_hash": hash_token("token-Ann") },
            { "name": "Bot", "bot": "random", "token_hash": null },
        ])
    );
}

macro_rules! suite {
    ($($name:ident),* $(,)?) => {
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let db = super::TestDb::postgres().await;
                    super::$name(&db.store).await;
                    db.drop_db().await;
                }
            )*
        }
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let db = super::TestDb::sqlite().await;
                    super::$name(&db.store).await;
                    db.drop_db().await;
                }
            )*
        }
    };
}

suite!(
    appended_actions_load_in_seq_order_with_every_field,
    duplicate_seq_is_rejected_and_the_first_write_kept,
    append_to_an_unknown_game_is_refused,
    append_with_a_bad_time_is_refused,
    creating_a_game_twice_is_refused,
    unfinished_games_are_found_with_seed_and_token_hashes,
    record_hides_seed_until_finished_and_never_shows_token_hashes,
    finished_game_record_replays_and_verifies,
    finished_list_pages_newest_first_and_filters_by_player,
    updated_seats_are_loaded_and_searched,
    concurrent_appends_to_many_games_all_land,
    finishing_needs_an_over_status_and_a_known_game,
    group_commit_stores_every_action_and_isolates_a_duplicate,
    ensure_action_writes_once_and_refuses_a_different_action,
    an_unplayed_game_can_be_replaced_but_not_a_played_one,
    only_a_game_that_starts_can_be_created,
    the_seats_column_keeps_names_bots_and_token_hashes_together,
);

#[test]
fn database_name_is_replaced_in_the_url() {
    assert_eq!(
        with_database("postgres://postgres@127.0.0.1:5432/postgres", "x"),
        "postgres://postgres@127.0.0.1:5432/x"
    );
    assert_eq!(
        with_database("postgres://u@h/db?sslmode=disable", "x"),
        "postgres://u@h/x?sslmode=disable"
    );
}
