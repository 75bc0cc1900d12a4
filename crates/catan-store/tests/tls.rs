//! TLS to PostgreSQL (sqlx's rustls, with the system's root certificates):
//! `sslmode=require` encrypts the connection, and a certificate no system
//! root vouches for is refused under `sslmode=verify-full`.
//! The local test server's own TLS setting decides which half can be shown
//! as a success: with `ssl = on` (a self-signed certificate) `require`
//! connects encrypted; with it off, `require` fails with a TLS error that is
//! not "built without TLS support".

#![allow(clippy::unwrap_used)]

use catan_store::{Store, StoreError};
use uuid::Uuid;

fn admin_url() -> String {
    std::env::var("DATABASE_URL")
        .ok()
        .filter(|u| u.starts_with("postgres"))
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

fn url_of(db: &str, query: &str) -> String {
    let base = admin_url();
    let base = base.split('?').next().unwrap();
    format!("{}/{db}?{query}", base.rsplit_once('/').unwrap().0)
}

/// The text of a connection failure of the database driver (TLS failures
/// come as `Tls` or, from inside the handshake, as `Io` errors).
fn connect_error(r: Result<Store, StoreError>) -> String {
    match r {
        Err(StoreError::Database(e)) => e.to_string(),
        Err(e) => panic!("expected a driver error, got {e}"),
        Ok(_) => panic!("expected an error, got a connection"),
    }
}

#[tokio::test]
async fn sslmode_require_uses_tls_and_verify_full_checks_the_certificate() {
    let name = format!("catan_tls_test_{}", Uuid::new_v4().simple());
    let admin = sqlx::PgPool::connect(&admin_url()).await.unwrap();
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&admin)
        .await
        .unwrap();
    let ssl: String = sqlx::query_scalar("SHOW ssl")
        .fetch_one(&admin)
        .await
        .unwrap();

    let required = Store::connect(&url_of(&name, "sslmode=require")).await;
    if ssl == "on" {
        let store = required.unwrap();
        let Store::Postgres(pool) = &store else {
            panic!("a postgres URL gives a postgres store");
        };
        let encrypted: bool =
            sqlx::query_scalar("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
                .fetch_one(pool)
                .await
                .unwrap();
        assert!(encrypted, "sslmode=require gave a plain connection");
        store.close().await;
    } else {
        let e = connect_error(required);
        assert!(e.contains("TLS"), "{e}");
        assert!(!e.contains("without TLS support"), "built without TLS: {e}");
    }
    // The local server's certificate is its own (self-signed), which no
    // system root vouches for: verify-full refuses it.
    let e = connect_error(Store::connect(&url_of(&name, "sslmode=verify-full")).await);
    if ssl == "on" {
        assert!(e.contains("certificate"), "{e}");
    }
    assert!(!e.contains("without TLS support"), "built without TLS: {e}");

    sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
}
