//! The saved-games endpoints: finished games listed newest first, paged and
//! filtered by player name; a game still being played is served without
//! its seed or the outcomes of its random steps, and is not listed.

use crate::harness;

use catan_core::GameOptions;
use catan_core::Seat;
use catan_core::record::{GameRecord, GameResult, GameStatus, SeatRecord, SeedReveal};
use catan_store::{Store, StoredGame, format_time, hash_token};
use chrono::{Duration as Days, TimeZone, Utc};
use harness::*;
use serde_json::{Value, json};
use uuid::Uuid;

/// Stores a finished game with these seat names, ended on `day`.
async fn finished_game(store: &Store, names: &[&str], day: i64) -> Uuid {
    let id = Uuid::new_v4();
    let created = Utc.with_ymd_and_hms(2025, 1, 1, 12, 0, 0).unwrap() + Days::days(day);
    let seats = names
        .iter()
        .map(|n| SeatRecord {
            name: (*n).into(),
            bot: None,
        })
        .collect();
    let reveal = SeedReveal {
        seed: day as u64,
        salt: "salt".into(),
    };
    let record = GameRecord::start(
        id.to_string(),
        format_time(created),
        GameOptions::default(),
        seats,
        reveal,
        None,
    );
    let token_hashes = names.iter().map(|n| Some(hash_token(n))).collect();
    let game = StoredGame::start(record, token_hashes, json!({})).unwrap();
    store.create_game(&game).await.unwrap();
    let result = GameResult {
        winner: Some(Seat(0)),
        victory_points: vec![10, 2, 2, 2],
        turns: 40,
    };
    store
        .finish_game(
            id,
            GameStatus::Finished,
            Some(&result),
            created + Days::hours(1),
        )
        .await
        .unwrap();
    id
}

fn ids(page: &Value) -> Vec<String> {
    page["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

async fn get(addr: std::net::SocketAddr, path: &str) -> (u16, Value) {
    http(addr, "GET", path, None, None).await
}

async fn list_and_live_record(backend: Backend) {
    let db = TestDb::new(backend).await;
    let srv = start_in_process(&db).await;
    let store = srv.state.store.clone().unwrap();
    let mut games = Vec::new();
    for (day, names) in [
        vec!["Alice", "Bob", "Carol", "Dan"],
        vec!["Bob", "Carol", "Dan", "Erin"],
        vec!["Carol", "ALICE", "Erin", "Finn"],
        vec!["Dan", "Erin", "Finn", "Gus"],
        vec!["Erin", "Finn", "Gus", "Malicia"],
    ]
    .iter()
    .enumerate()
    {
        games.push(finished_game(&store, names, day as i64).await.to_string());
    }
    let newest_first: Vec<String> = games.iter().rev().cloned().collect();

    let (st, p1) = get(srv.addr, "/api/games?per_page=2").await;
    assert_eq!(st, 200, "{p1}");
    assert_eq!(
        (p1["page"].as_u64(), p1["total"].as_u64()),
        (Some(1), Some(5))
    );
    assert_eq!(ids(&p1), newest_first[0..2]);
    let (_, p2) = get(srv.addr, "/api/games?page=2&per_page=2").await;
    assert_eq!(ids(&p2), newest_first[2..4]);
    let (_, p3) = get(srv.addr, "/api/games?page=3&per_page=2").await;
    assert_eq!(ids(&p3), newest_first[4..]);
    let (_, all) = get(srv.addr, "/api/games").await;
    assert_eq!(ids(&all), newest_first);
    // Names match case-insensitively, anywhere in the name.
    let (_, ali) = get(srv.addr, "/api/games?player=ali").await;
    assert_eq!(
        ids(&ali),
        vec![games[4].clone(), games[2].clone(), games[0].clone()]
    );
    assert_eq!(ali["total"].as_u64(), Some(3));
    let (_, none) = get(srv.addr, "/api/games?player=Zed").await;
    assert_eq!((none["total"].as_u64(), ids(&none).len()), (Some(0), 0));
    // A summary shows names and the result, never token hashes.
    let first = &p1["games"][0];
    assert_eq!(first["seats"][3]["name"], "Malicia");
    assert!(!first.to_string().contains(&hash_token("Malicia")));

    // Bad queries and unknown games.
    assert_eq!(get(srv.addr, "/api/games?per_page=0").await.0, 400);
    assert_eq!(get(srv.addr, "/api/games?page=0").await.0, 400);
    assert_eq!(get(srv.addr, "/api/games?page=x").await.0, 400);
    assert_eq!(
        get(srv.addr, &format!("/api/games/{}", Uuid::new_v4()))
            .await
            .0,
        404
    );
    assert_eq!(get(srv.addr, "/api/games/not-a-uuid").await.0, 404);
    // A finished game's record reveals the seed.
    let (st, rec) = get(srv.addr, &format!("/api/games/{}", games[0])).await;
    assert_eq!(st, 200, "{rec}");
    assert_eq!(rec["seed"]["seed"], "0");
    assert_eq!(rec["seed"]["salt"], "salt");

    // A live game: two people who never act, two bots.
    let (lobby, _humans) = lobby_two_humans_two_bots(srv.addr).await;
    let mut spectator = Player::connect(srv.addr, &lobby, None).await;
    while spectator
        .next_within(std::time::Duration::from_millis(300))
        .await
        .is_some()
    {}
    let (_, info) = get(srv.addr, &format!("/api/lobbies/{lobby}")).await;
    assert_eq!(info["status"], "playing");
    let (st, live) = get(srv.addr, &format!("/api/games/{lobby}")).await;
    assert_eq!(st, 200, "{live}");
    assert_eq!(live["status"], "in_progress");
    assert!(
        live.get("seed").is_none(),
        "a live record hides the seed: {live}"
    );
    assert_eq!(live["seed_commitment"], info["seed_commitment"]);
    assert_eq!(
        live["actions"].as_array().unwrap().len() as u64,
        spectator.version
    );
    assert!(
        live["actions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["outcome"] == json!({})),
        "a live record hides drawn cards and steals: {live}"
    );
    assert!(!live.to_string().contains("token"));
    let (_, listed) = get(srv.addr, "/api/games?per_page=100").await;
    assert!(
        !ids(&listed).contains(&lobby),
        "only finished games are listed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saved_games_list_and_live_record_on_postgres() {
    list_and_live_record(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saved_games_list_and_live_record_on_sqlite() {
    list_and_live_record(Backend::Sqlite).await;
}
