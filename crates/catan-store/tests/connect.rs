//! `Store::connect`: URL forms, and the SQLite durability settings.

#![allow(clippy::unwrap_used)]

use catan_store::{Backend, Store, StoreError};
use sqlx::Row;

fn temp_path(tag: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("catan-connect-{tag}-{}.db", uuid::Uuid::new_v4()))
}

fn remove(path: &std::path::Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        let _ = std::fs::remove_file(p);
    }
}

#[tokio::test]
async fn plain_path_creates_a_sqlite_file_in_wal_mode_with_full_sync() {
    let path = temp_path("plain");
    let store = Store::connect(path.to_str().unwrap()).await.unwrap();
    assert_eq!(store.backend(), Backend::Sqlite);
    assert!(path.exists());
    let Store::Sqlite(pool) = &store else {
        panic!("expected SQLite")
    };
    let mut conn = pool.acquire().await.unwrap();
    let mode: String = sqlx::query("PRAGMA journal_mode")
        .fetch_one(&mut *conn)
        .await
        .unwrap()
        .get(0);
    assert_eq!(mode, "wal");
    let sync: i64 = sqlx::query("PRAGMA synchronous")
        .fetch_one(&mut *conn)
        .await
        .unwrap()
        .get(0);
    assert_eq!(sync, 2, "synchronous=FULL");
    let busy: i64 = sqlx::query("PRAGMA busy_timeout")
        .fetch_one(&mut *conn)
        .await
        .unwrap()
        .get(0);
    assert!(busy >= 1000);
    drop(conn);
    store.close().await;
    remove(&path);
}

#[tokio::test]
async fn reconnecting_to_a_migrated_file_keeps_its_games() {
    let path = temp_path("again");
    let url = format!("sqlite://{}", path.display());
    let store = Store::connect(&url).await.unwrap();
    store.close().await;
    let again = Store::connect(&url).await.unwrap();
    assert!(again.unfinished_games().await.unwrap().is_empty());
    again.close().await;
    remove(&path);
}

#[tokio::test]
async fn in_memory_sqlite_works() {
    let store = Store::connect("sqlite::memory:").await.unwrap();
    store.ping().await.unwrap();
    assert!(
        store
            .list_finished(1, 10, None)
            .await
            .unwrap()
            .games
            .is_empty()
    );
}

#[tokio::test]
async fn unknown_url_schemes_are_refused() {
    for url in ["mysql://localhost/db", ""] {
        assert!(matches!(
            Store::connect(url).await,
            Err(StoreError::BadUrl(_))
        ));
    }
}
