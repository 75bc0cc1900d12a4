//! Reads what the schema-drift test compares from a migrated database of
//! each backend: every table of ours, its columns in order with their
//! nullability, its primary key and its indexes. Column types are left out
//! on purpose: they differ by design (UUID/JSONB/TIMESTAMPTZ against TEXT).

#![allow(dead_code, clippy::unwrap_used)]

use sqlx::{Connection, PgConnection, Row, SqliteConnection};
use std::collections::BTreeMap;

/// Every table of a schema, by name.
pub type Schema = BTreeMap<String, Table>;

/// One table as both backends must agree on it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Table {
    /// (name, nullable), in order.
    pub columns: Vec<(String, bool)>,
    /// The primary key's columns, in order.
    pub primary_key: Vec<String>,
    /// The indexes besides the primary key's, by name; an index that backs
    /// a UNIQUE constraint is keyed `unique (columns)` instead, since the
    /// backends name those themselves.
    pub indexes: BTreeMap<String, Index>,
}

/// One index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Index {
    /// Its columns in order, `" DESC"` after a descending one.
    pub columns: Vec<String>,
    /// Whether it is unique.
    pub unique: bool,
    /// A partial index's condition, normalised (see [`condition`]).
    pub condition: Option<String>,
}

/// sqlx's own bookkeeping table: each backend's is sqlx's, not ours.
const NOT_OURS: &str = "_sqlx_migrations";

/// A partial index's condition from its SQL text, written the same way for
/// both backends: PostgreSQL gives it back with parentheses and `::text`
/// casts that the SQLite text (ours, verbatim) does not have.
pub fn condition(sql: &str) -> Option<String> {
    let at = sql.to_uppercase().find(" WHERE ")?;
    let cond = sql[at + 7..].replace(['(', ')'], "").replace("::text", "");
    Some(cond.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The key of an index in [`Table::indexes`].
fn key(name: String, backs_unique_constraint: bool, columns: &[String]) -> String {
    if backs_unique_constraint {
        format!("unique ({})", columns.join(", "))
    } else {
        name
    }
}

/// The schema of the PostgreSQL database at `url` (already migrated).
pub async fn postgres(url: &str) -> Schema {
    let mut c = PgConnection::connect(url).await.unwrap();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables \
         WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> $1",
    )
    .bind(NOT_OURS)
    .fetch_all(&mut c)
    .await
    .unwrap();
    let mut out = Schema::new();
    for t in tables {
        let mut table = Table::default();
        for r in sqlx::query(
            "SELECT column_name::text, is_nullable::text FROM information_schema.columns \
             WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position",
        )
        .bind(&t)
        .fetch_all(&mut c)
        .await
        .unwrap()
        {
            let nullable: String = r.get(1);
            table.columns.push((r.get(0), nullable == "YES"));
        }
        table.primary_key = sqlx::query_scalar(
            "SELECT a.attname::text FROM pg_index i \
             JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) \
             WHERE i.indrelid = $1::regclass AND i.indisprimary \
             ORDER BY array_position(i.indkey::int2[], a.attnum)",
        )
        .bind(&t)
        .fetch_all(&mut c)
        .await
        .unwrap();
        for r in sqlx::query(
            "SELECT c.relname::text, i.indisunique, pg_get_indexdef(i.indexrelid), \
               EXISTS (SELECT 1 FROM pg_constraint k \
                       WHERE k.conindid = i.indexrelid AND k.contype = 'u') \
             FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid \
             WHERE i.indrelid = $1::regclass AND NOT i.indisprimary",
        )
        .bind(&t)
        .fetch_all(&mut c)
        .await
        .unwrap()
        {
            let def: String = r.get(2);
            // `CREATE INDEX n ON public.t USING btree (a DESC, b) WHERE ...`
            let open = def.find('(').expect("an index definition lists columns");
            let close = def[open..].find(')').expect("the column list ends") + open;
            let columns: Vec<String> = def[open + 1..close]
                .split(',')
                .map(|c| c.trim().to_string())
                .collect();
            let index = Index {
                unique: r.get(1),
                condition: condition(&def),
                columns,
            };
            table
                .indexes
                .insert(key(r.get(0), r.get(3), &index.columns), index);
        }
        out.insert(t, table);
    }
    c.close().await.unwrap();
    out
}

/// The schema of the SQLite database at `url` (already migrated).
pub async fn sqlite(url: &str) -> Schema {
    let mut c = SqliteConnection::connect(url).await.unwrap();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master \
         WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> ?1",
    )
    .bind(NOT_OURS)
    .fetch_all(&mut c)
    .await
    .unwrap();
    let mut out = Schema::new();
    for t in tables {
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
            // No exception for primary key columns: in a rowid table SQLite
            // lets one hold NULL unless it says NOT NULL (a legacy quirk),
            // so the schema must say it, as PostgreSQL's implies it.
            table.columns.push((name.clone(), not_null == 0));
            if in_pk > 0 {
                pk.push((in_pk, name));
            }
        }
        pk.sort();
        table.primary_key = pk.into_iter().map(|(_, n)| n).collect();
        for r in sqlx::query(&format!("PRAGMA index_list({t})"))
            .fetch_all(&mut c)
            .await
            .unwrap()
        {
            let name: String = r.get("name");
            let origin: String = r.get("origin");
            if origin == "pk" {
                continue;
            }
            let index = Index {
                columns: index_columns(&mut c, &name).await,
                unique: r.get::<i64, _>("unique") == 1,
                condition: index_condition(&mut c, &name).await,
            };
            table
                .indexes
                .insert(key(name, origin == "u", &index.columns), index);
        }
        out.insert(t, table);
    }
    c.close().await.unwrap();
    out
}

/// The key columns of SQLite index `name`, `" DESC"` after descending ones.
async fn index_columns(c: &mut SqliteConnection, name: &str) -> Vec<String> {
    let mut cols = Vec::new();
    for x in sqlx::query(&format!("PRAGMA index_xinfo({name})"))
        .fetch_all(&mut *c)
        .await
        .unwrap()
    {
        let key: i64 = x.get("key");
        let column: Option<String> = x.get("name");
        let desc: i64 = x.get("desc");
        if let (1, Some(n)) = (key, column) {
            cols.push(if desc == 1 { format!("{n} DESC") } else { n });
        }
    }
    cols
}

/// The condition of SQLite index `name` if it is partial (an index SQLite
/// made for a constraint has no SQL text, and no condition).
async fn index_condition(c: &mut SqliteConnection, name: &str) -> Option<String> {
    let sql: Option<String> =
        sqlx::query_scalar("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?1")
            .bind(name)
            .fetch_one(&mut *c)
            .await
            .unwrap();
    condition(sql.as_deref()?)
}
