//! Reads both backends run with the same SQL: one generic function each
//! over sqlx's [`sqlx::Database`], so that they are written once. Their
//! SQL uses only what both databases accept (`$n` parameters, `CAST`,
//! `replace`); the rows are read through [`ReadRow`], which both backends'
//! rows implement.

use crate::columns;
use crate::decode::{PlainColumns, ReadRow, summary_row};
use crate::error::StoreError;
use crate::rows::GameRow;
use sqlx::{Database, Encode, Executor, IntoArguments, Pool, Type};
use uuid::Uuid;

/// Ids of the games not yet finished.
pub(crate) async fn unfinished_ids<DB: Database>(pool: &Pool<DB>) -> Result<Vec<Uuid>, StoreError>
where
    DB::Row: ReadRow,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
{
    let rows = sqlx::query::<DB>(columns::UNFINISHED_IDS)
        .fetch_all(pool)
        .await?;
    rows.iter().map(|r| r.uuid("id")).collect()
}

/// One page of finished games whose player names contain `needle` (all
/// of them for `None`; the names are kept lower-cased, `rows::name_needle`),
/// each with the length of its log, and how many there are in all.
pub(crate) async fn list_finished<DB: Database>(
    pool: &Pool<DB>,
    needle: Option<&str>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<(GameRow, i64)>, i64), StoreError>
where
    DB::Row: ReadRow,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> Option<&'q str>: Encode<'q, DB> + Type<DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
{
    // `replace` finds a substring in both (PostgreSQL has no `instr`,
    // SQLite no `strpos`); the cast types the parameter for PostgreSQL.
    const FILTER: &str = "status <> 'in_progress' \
        AND (CAST($1 AS TEXT) IS NULL OR replace(player_names, $1, '') <> player_names)";
    let total: i64 = {
        let row = sqlx::query::<DB>(&format!("SELECT count(*) AS n FROM games WHERE {FILTER}"))
            .bind(needle)
            .fetch_one(pool)
            .await?;
        row.int("n")?
    };
    let rows = sqlx::query::<DB>(&format!(
        "SELECT {} FROM games WHERE {FILTER} ORDER BY {} LIMIT $2 OFFSET $3",
        columns::SUMMARY,
        columns::FINISHED_ORDER
    ))
    .bind(needle)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    let games = rows
        .iter()
        .map(summary_row)
        .collect::<Result<Vec<_>, _>>()?;
    Ok((games, total))
}
