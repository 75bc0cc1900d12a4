//! What the PostgreSQL store tests share: the server (`DATABASE_URL`), a
//! fresh database per test and its removal, and a two-seat game to store.

#![allow(dead_code, clippy::unwrap_used)]

use catan_core::GameOptions;
use catan_core::record::{GameRecord, SeatRecord, SeedReveal};
use catan_store::{StoredGame, format_time};
use chrono::Utc;
use uuid::Uuid;

/// The PostgreSQL server the tests use.
pub fn admin_url() -> String {
    std::env::var("DATABASE_URL")
        .ok()
        .filter(|u| u.starts_with("postgres"))
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

/// The URL of database `name` on that server.
pub fn url_of(name: &str) -> String {
    match admin_url().rsplit_once('/') {
        Some((base, _)) => format!("{base}/{name}"),
        None => panic!("DATABASE_URL names no database"),
    }
}

/// A fresh database named after `prefix`; returns its name.
pub async fn fresh_db(prefix: &str) -> String {
    let name = format!("{prefix}_{}", Uuid::new_v4().simple());
    let admin = sqlx::PgPool::connect(&admin_url()).await.unwrap();
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
    name
}

/// Drops database `name`, closing its connections.
pub async fn drop_db(name: &str) {
    let admin = sqlx::PgPool::connect(&admin_url()).await.unwrap();
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
}

/// A two-player game with id `id`, Ann and Ben, seed 7.
pub fn new_game(id: Uuid) -> StoredGame {
    let options = GameOptions {
        players: 2,
        ..GameOptions::default()
    };
    let seats = ["Ann", "Ben"]
        .iter()
        .map(|n| SeatRecord {
            name: n.to_string(),
            bot: None,
        })
        .collect();
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
