//! The PostgreSQL and SQLite schemas are twins kept by hand. This test
//! migrates a fresh database of each (a real PostgreSQL at `DATABASE_URL`
//! and a real SQLite file) and compares every table: its columns in order
//! with their nullability, its primary key, and its indexes (name, columns
//! in order with their direction, uniqueness, and a partial index's
//! condition). What may differ is listed once, in [`POSTGRES_ONLY`]; column
//! types differ by design and are not compared.

#![allow(clippy::unwrap_used)]

#[path = "support/db.rs"]
mod db;
#[path = "support/schema.rs"]
mod schema;

use catan_store::Store;
use schema::{Index, Schema, Table};
use std::collections::BTreeSet;
use uuid::Uuid;

/// The intended differences, the only ones: tables PostgreSQL has and
/// SQLite does not, with why. The cluster (several nodes over one database,
/// docs/CLUSTER.md) needs PostgreSQL; SQLite is the single-node default.
/// Migration 0004's `parked` column is on `lobby_leases`, so a whole
/// PostgreSQL-only table, and needs no entry of its own.
const POSTGRES_ONLY: [(&str, &str); 4] = [
    ("cluster_nodes", "postgres/0002: the live server nodes"),
    (
        "lobby_leases",
        "postgres/0002: who owns each lobby (0004 added `parked`)",
    ),
    ("cluster_key", "postgres/0003: the cluster's shared secret"),
    (
        "waiting_rooms",
        "postgres/0006: waiting rooms that outlive their node",
    ),
];

/// Every way `pg` and `lite` differ beyond the tables `pg_only` names,
/// one line each; also a `pg_only` entry that is no longer true (so the
/// list cannot go stale). Empty when the schemas agree.
fn drift(pg: &Schema, lite: &Schema, pg_only: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for t in pg_only {
        if !pg.contains_key(*t) {
            found.push(format!(
                "{t}: listed as PostgreSQL-only, but PostgreSQL has no such table"
            ));
        }
        if lite.contains_key(*t) {
            found.push(format!("{t}: listed as PostgreSQL-only, but SQLite has it"));
        }
    }
    let names: BTreeSet<&String> = pg.keys().chain(lite.keys()).collect();
    for t in names {
        match (pg.get(t), lite.get(t)) {
            (Some(p), Some(l)) => compare_table(t, p, l, &mut found),
            (Some(_), None) if !pg_only.contains(&t.as_str()) => {
                found.push(format!("{t}: only PostgreSQL has this table"));
            }
            (None, Some(_)) => found.push(format!("{t}: only SQLite has this table")),
            _ => {}
        }
    }
    found
}

/// What differs between the two backends' versions of table `t`.
fn compare_table(t: &str, pg: &Table, lite: &Table, found: &mut Vec<String>) {
    let nullable = |x: &Table, c: &str| x.columns.iter().find(|(n, _)| n == c).map(|(_, n)| *n);
    let columns: BTreeSet<&String> = pg
        .columns
        .iter()
        .chain(&lite.columns)
        .map(|(n, _)| n)
        .collect();
    for c in columns {
        match (nullable(pg, c), nullable(lite, c)) {
            (Some(p), Some(l)) if p != l => found.push(format!(
                "{t}.{c}: nullable on PostgreSQL {p}, on SQLite {l}"
            )),
            (Some(_), None) => found.push(format!("{t}.{c}: only PostgreSQL has this column")),
            (None, Some(_)) => found.push(format!("{t}.{c}: only SQLite has this column")),
            _ => {}
        }
    }
    let order = |x: &Table| x.columns.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    let (pg_order, lite_order) = (order(pg), order(lite));
    let same_set = pg_order.iter().collect::<BTreeSet<_>>() == lite_order.iter().collect();
    if same_set && pg_order != lite_order {
        found.push(format!(
            "{t}: column order on PostgreSQL {pg_order:?}, on SQLite {lite_order:?}"
        ));
    }
    if pg.primary_key != lite.primary_key {
        found.push(format!(
            "{t}: primary key on PostgreSQL {:?}, on SQLite {:?}",
            pg.primary_key, lite.primary_key
        ));
    }
    let indexes: BTreeSet<&String> = pg.indexes.keys().chain(lite.indexes.keys()).collect();
    for i in indexes {
        match (pg.indexes.get(i), lite.indexes.get(i)) {
            (Some(p), Some(l)) if p != l => {
                found.push(format!(
                    "{t} index {i}: on PostgreSQL {p:?}, on SQLite {l:?}"
                ));
            }
            (Some(_), None) => found.push(format!("{t} index {i}: only PostgreSQL has it")),
            (None, Some(_)) => found.push(format!("{t} index {i}: only SQLite has it")),
            _ => {}
        }
    }
}

fn pg_only() -> Vec<&'static str> {
    POSTGRES_ONLY.iter().map(|(t, _)| *t).collect()
}

#[tokio::test]
async fn postgres_and_sqlite_schemas_agree() {
    let name = db::fresh_db("catan_drift").await;
    let url = db::url_of(&name);
    Store::connect(&url).await.unwrap().close().await;
    let pg = schema::postgres(&url).await;
    db::drop_db(&name).await;

    let path = std::env::temp_dir().join(format!("catan-drift-{}.db", Uuid::new_v4()));
    let url = format!("sqlite://{}?mode=rwc", path.display());
    Store::connect(&url).await.unwrap().close().await;
    let lite = schema::sqlite(&url).await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }

    // The readers must see something, or agreeing would prove nothing.
    for s in [&pg, &lite] {
        assert!(!s["games"].columns.is_empty(), "{s:?}");
        assert!(!s["games"].indexes.is_empty(), "{s:?}");
        assert_eq!(s["game_actions"].primary_key, ["game_id", "seq"]);
    }
    let found = drift(&pg, &lite, &pg_only());
    assert!(found.is_empty(), "the schemas drift:\n{}", found.join("\n"));
}

// ---- the comparison itself, on schemas made by hand ----

fn table(columns: &[(&str, bool)], primary_key: &[&str], indexes: &[(&str, Index)]) -> Table {
    Table {
        columns: columns.iter().map(|(n, b)| (n.to_string(), *b)).collect(),
        primary_key: primary_key.iter().map(|c| c.to_string()).collect(),
        indexes: indexes
            .iter()
            .map(|(n, i)| (n.to_string(), i.clone()))
            .collect(),
    }
}

fn index(columns: &[&str], condition: Option<&str>) -> Index {
    Index {
        columns: columns.iter().map(|c| c.to_string()).collect(),
        unique: false,
        condition: condition.map(str::to_string),
    }
}

fn schema(tables: &[(&str, &Table)]) -> Schema {
    tables
        .iter()
        .map(|(n, t)| (n.to_string(), (*t).clone()))
        .collect()
}

fn games() -> Table {
    table(
        &[("id", false), ("finished", true)],
        &["id"],
        &[(
            "by_end",
            index(&["finished DESC", "id"], Some("status <> 'x'")),
        )],
    )
}

#[test]
fn equal_schemas_and_listed_tables_are_no_drift() {
    let lease = table(&[("lobby_id", false)], &["lobby_id"], &[]);
    let pg = schema(&[("games", &games()), ("leases", &lease)]);
    let lite = schema(&[("games", &games())]);
    assert_eq!(drift(&pg, &lite, &["leases"]), Vec::<String>::new());
}

#[test]
fn unlisted_tables_and_stale_entries_are_drift() {
    let extra = table(&[("x", false)], &[], &[]);
    let pg = schema(&[("games", &games()), ("pg_extra", &extra)]);
    let lite = schema(&[
        ("games", &games()),
        ("lite_extra", &extra),
        ("gone", &extra),
    ]);
    assert_eq!(
        drift(&pg, &lite, &["gone"]),
        [
            "gone: listed as PostgreSQL-only, but PostgreSQL has no such table",
            "gone: listed as PostgreSQL-only, but SQLite has it",
            "gone: only SQLite has this table",
            "lite_extra: only SQLite has this table",
            "pg_extra: only PostgreSQL has this table",
        ]
    );
}

#[test]
fn columns_nullability_order_and_primary_keys_are_compared() {
    let pg = schema(&[("games", &games())]);
    let mut t = games();
    t.columns = vec![("finished".into(), false), ("id".into(), false)];
    t.primary_key = vec!["finished".into()];
    assert_eq!(
        drift(&pg, &schema(&[("games", &t)]), &[]),
        [
            "games.finished: nullable on PostgreSQL true, on SQLite false",
            r#"games: column order on PostgreSQL ["id", "finished"], on SQLite ["finished", "id"]"#,
            r#"games: primary key on PostgreSQL ["id"], on SQLite ["finished"]"#,
        ]
    );
    let mut t = games();
    t.columns.push(("lobby".into(), false));
    assert_eq!(
        drift(&schema(&[("games", &t)]), &pg, &[]),
        ["games.lobby: only PostgreSQL has this column"]
    );
}

#[test]
fn indexes_are_compared_by_columns_direction_uniqueness_and_condition() {
    let pg = schema(&[("games", &games())]);
    let variants = [
        index(&["finished", "id"], Some("status <> 'x'")),
        index(&["finished DESC", "id"], None),
        Index {
            unique: true,
            ..index(&["finished DESC", "id"], Some("status <> 'x'"))
        },
    ];
    for v in variants {
        let lite = schema(&[(
            "games",
            &table(
                &[("id", false), ("finished", true)],
                &["id"],
                &[("by_end", v)],
            ),
        )]);
        let found = drift(&pg, &lite, &[]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("games index by_end: on PostgreSQL"),
            "{found:?}"
        );
    }
    let bare = schema(&[(
        "games",
        &table(&[("id", false), ("finished", true)], &["id"], &[]),
    )]);
    assert_eq!(
        drift(&pg, &bare, &[]),
        ["games index by_end: only PostgreSQL has it"]
    );
}

#[test]
fn postgres_conditions_read_like_the_sqlite_text() {
    let pg = "CREATE INDEX g ON public.games USING btree (created) \
              WHERE (status = 'in_progress'::text)";
    let lite = "CREATE INDEX g ON games (created) WHERE status = 'in_progress'";
    assert_eq!(schema::condition(pg), schema::condition(lite));
    assert_eq!(schema::condition("CREATE INDEX g ON games (created)"), None);
}
