//! The reads both backends run alike: one generic function each over
//! [`Dialect`], so that each is written once. Their SQL uses only what both
//! databases accept (`$n` parameters, `CAST`, `replace`); the rows are read
//! through [`crate::decode::ReadRow`], which both backends' rows implement.

use crate::columns;
use crate::decode::{PlainColumns, ReadRow, action_row, game_row, summary_row};
use crate::dialect::{Arg, Dialect, query};
use crate::error::StoreError;
use crate::rows::{ActionRow, GameRow};
use sqlx::Executor;
use uuid::Uuid;

/// Ids of the games not yet finished.
pub(crate) async fn unfinished_ids<DB: Dialect>(
    ex: impl Executor<'_, Database = DB>,
) -> Result<Vec<Uuid>, StoreError> {
    let rows = query::<DB>(columns::UNFINISHED_IDS, [])
        .fetch_all(ex)
        .await?;
    rows.iter().map(|r| r.uuid("id")).collect()
}

/// Game `game_id`'s row and its log, in order; `None` if there is no such
/// game.
pub(crate) async fn load_game<DB: Dialect>(
    ex: impl Executor<'_, Database = DB> + Copy,
    game_id: Uuid,
) -> Result<Option<(GameRow, Vec<ActionRow>)>, StoreError> {
    let sql = format!("SELECT {} FROM games WHERE id = $1", columns::GAME);
    let Some(row) = query::<DB>(&sql, [Arg::Id(game_id)])
        .fetch_optional(ex)
        .await?
    else {
        return Ok(None);
    };
    let game = game_row(&row)?;
    let sql = format!(
        "SELECT {} FROM game_actions WHERE game_id = $1 ORDER BY seq",
        columns::ACTION
    );
    let actions = query::<DB>(&sql, [Arg::Id(game_id)])
        .fetch_all(ex)
        .await?
        .iter()
        .map(action_row)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some((game, actions)))
}

/// One page of finished games whose player names contain `needle` (all
/// of them for `None`; the names are kept lower-cased, `rows::name_needle`),
/// each with the length of its log, and how many there are in all.
pub(crate) async fn list_finished<DB: Dialect>(
    ex: impl Executor<'_, Database = DB> + Copy,
    needle: Option<&str>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<(GameRow, i64)>, i64), StoreError> {
    // `replace` finds a substring in both (PostgreSQL has no `instr`,
    // SQLite no `strpos`); the cast types the parameter for PostgreSQL.
    const FILTER: &str = "status <> 'in_progress' \
        AND (CAST($1 AS TEXT) IS NULL OR replace(player_names, $1, '') <> player_names)";
    let sql = format!("SELECT count(*) AS n FROM games WHERE {FILTER}");
    let total = query::<DB>(&sql, [Arg::OptText(needle)])
        .fetch_one(ex)
        .await?
        .int("n")?;
    let sql = format!(
        "SELECT {} FROM games WHERE {FILTER} ORDER BY {} LIMIT $2 OFFSET $3",
        columns::SUMMARY,
        columns::FINISHED_ORDER
    );
    let args = [Arg::OptText(needle), Arg::Int(limit), Arg::Int(offset)];
    let games = query::<DB>(&sql, args)
        .fetch_all(ex)
        .await?
        .iter()
        .map(summary_row)
        .collect::<Result<Vec<_>, _>>()?;
    Ok((games, total))
}
