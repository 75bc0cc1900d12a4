//! The PostgreSQL and SQLite schemas are twins kept by hand (their column
//! types differ by design: UUID/JSONB/TIMESTAMPTZ against TEXT). This test
//! migrates a fresh database of each and compares what must agree: the
//! tables, their columns in order with their nullability, the primary keys,
//! and the indexes (name, columns in order with their direction, and whether
//! the index is partial, with the same condition).

use catan_store::Store;
use sqlx::{Connection, PgConnection, Row, SqliteConnection};
use std::collections::BTreeMap;
use uuid::Uuid;

/// One table as both backends must agree on it.
#[derive(Debug, PartialEq, Eq, Default)]
struct Table {
    /// (name, nullable) in order.
    columns: Vec<(String, bool)>,
    primary_key: Vec<String>,
    /// index name -> (columns with " DESC" where descending, partial condition)
    indexes: BTreeMap<String, (Vec<String>, Option<String>)>,
}

const TABLES: [&str; 2] = ["games", "game_actions"];

/// A partial index's condition, from its SQL text, spaces normalised.
fn condition(sql: &str) -> Option<String> {
    let upper = sql.to_uppercase();
    let at = upper.find(" WHERE ")?;
    let cond = sql[at + 7..].replace(['(', ')'], "").replace("::text", "");
    Some(cond.split_whitespace().collect::<Vec<_>>().join(" "))
}

async fn postgres_schema() -> BTreeMap<String, Table> {
    let admin_url = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let name = format!("catan_drift_{}", Uuid::new_v4().simple());
    let mut admin = PgConnection::connect(&admin_url).await.unwrap();
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .unwrap();
    let url = match admin_url.rfind('/') {
        Some(i) => format!("{}/{name}", &admin_url[..i]),
        None => panic!("DATABASE_URL names no database"),
    };
    Store::connect(&url).await.unwrap().close().await;
    let mut c = PgConnection::connect(&url).await.unwrap();
    let mut out = BTreeMap::new();
    for t in TABLES {
        let mut table = Table::default();
        for r in sqlx::query(
            "SELECT column_name::text, is_nullable::text FROM information_schema.columns \
             WHERE table_name = $1 ORDER BY ordinal_position",
        )
        .bind(t)
        .fetch_all(&mut c)
        .await
        .unwrap()
        {
            table
                .columns
                .push((r.get(0), r.get::<String, _>(1) == "YES"));
        }
        for r in sqlx::query(
            "SELECT a.attname::text FROM pg_index i \
             JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) \
             WHERE i.indrelid = $1::regclass AND i.indisprimary \
             ORDER BY array_position(i.indkey::int2[], a.attnum)",
        )
        .bind(t)
        .fetch_all(&mut c)
        .await
        .unwrap()
        {
            table.primary_key.push(r.get(0));
        }
        for r in sqlx::query(
            "SELECT indexname::text, indexdef FROM pg_indexes \
             WHERE tablename = $1 AND indexname NOT LIKE '%_pkey'",
        )
        .bind(t)
        .fetch_all(&mut c)
        .await
        .unwrap()
        {
            let (index, def): (String, String) = (r.get(0), r.get(1));
            let open = def.find('(').unwrap();
            let close = def[open..].find(')').unwrap() + open;
            let cols = def[open + 1..close]
                .split(',')
                .map(|c| c.trim().to_string())
                .collect();
            table.indexes.insert(index, (cols, condition(&def)));
        }
        out.insert(t.to_string(), table);
    }
    c.close().await.unwrap();
    sqlx::query(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .execute(&mut admin)
        .await
        .unwrap();
    out
}

async fn sqlite_schema() -> BTreeMap<String, Table> {
    let path = std::env::temp_dir().join(format!("catan-drift-{}.db", Uuid::new_v4()));
    let url = format!("sqlite://{}?mode=rwc", path.display());
    Store::connect(&url).await.unwrap().close().await;
    let mut c = SqliteConnection::connect(&url).await.unwrap();
    let mut out = BTreeMap::new();
    for t in TABLES {
        let mut table = Table::default();
        let mut pk: Vec<(i64, String)> = Vec::new();
        for r in sqlx::query(&format!("PRAGMA table_info({t})"))
            .fetch_all(&mut c)
            .await
            .unwrap()
        {
            let name: String = r.get("name");
            let not_null: i64 = r.get("notnull");
            let in_pk: i64 = r.get("pk");
            // SQLite lets a non-INTEGER primary key column hold NULL unless
            // it says NOT NULL; both schemas say it (or WITHOUT ROWID does).
            table
                .columns
                .push((name.clone(), not_null == 0 && in_pk == 0));
            if in_pk > 0 {
                pk.push((in_pk, name));
            }
        }
        pk.sort();
        table.primary_key = pk.into_iter().map(|(_, n)| n).collect();
        for r in sqlx::query(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1 AND sql IS NOT NULL",
        )
        .bind(t)
        .fetch_all(&mut c)
        .await
        .unwrap()
        {
            let (index, sql): (String, String) = (r.get(0), r.get(1));
            let mut cols = Vec::new();
            for x in sqlx::query(&format!("PRAGMA index_xinfo({index})"))
                .fetch_all(&mut c)
                .await
                .unwrap()
            {
                let key: i64 = x.get("key");
                let name: Option<String> = x.get("name");
                let desc: i64 = x.get("desc");
                if let (1, Some(n)) = (key, name) {
                    cols.push(if desc == 1 { format!("{n} DESC") } else { n });
                }
            }
            table.indexes.insert(index, (cols, condition(&sql)));
        }
        out.insert(t.to_string(), table);
    }
    c.close().await.unwrap();
    let _ = std::fs::remove_file(&path);
    out
}

#[tokio::test]
async fn postgres_and_sqlite_schemas_agree() {
    let pg = postgres_schema().await;
    let lite = sqlite_schema().await;
    for t in TABLES {
        assert!(!pg[t].columns.is_empty(), "{t} exists on PostgreSQL");
        assert_eq!(
            pg[t].columns, lite[t].columns,
            "{t}: columns and nullability"
        );
        assert_eq!(pg[t].primary_key, lite[t].primary_key, "{t}: primary key");
        assert_eq!(pg[t].indexes, lite[t].indexes, "{t}: indexes");
    }
    assert_eq!(pg["games"].indexes.len(), 2, "{:?}", pg["games"].indexes);
}
