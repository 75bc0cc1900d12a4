//! The writes both backends run alike: one generic function each over
//! [`Dialect`], so that each statement's SQL, its columns (from
//! [`crate::columns`]) and the order its parameters are bound in are
//! written once. What differs (how ids, times and JSON are sent, how an
//! insert skips a taken key) is the dialect's.

use crate::columns;
use crate::decode::stored_action;
use crate::dialect::{Arg, Dialect, query};
use crate::error::{StoreError, classify_append, classify_insert, known_game};
use crate::rows::{NewActionRow, NewGameRow, SeatColumns, json_text, seq_sql};
use catan_core::record::{GameResult, GameStatus, RecordedAction};
use chrono::{DateTime, Utc};
use sqlx::Executor;
use uuid::Uuid;

/// Inserts a new game; a taken id is [`StoreError::DuplicateGame`].
pub(crate) async fn create_game<DB: Dialect>(
    ex: impl Executor<'_, Database = DB>,
    g: &NewGameRow,
) -> Result<(), StoreError> {
    let (s, j) = (&g.start, DB::JSON);
    let sql = format!(
        "INSERT INTO games ({}) VALUES ($1, $2, $3{j}, $4, $5, $6, $7, $8{j}, $9, \
         'in_progress', $10{j}, $11{j})",
        columns::NEW_GAME
    );
    let args = [
        Arg::Id(s.id),
        Arg::Time(s.created),
        Arg::Text(&s.options),
        Arg::Text(&s.rules_version),
        Arg::Text(&s.seed_commitment),
        Arg::Text(&s.seed),
        Arg::Text(&s.salt),
        Arg::Text(&g.seats.seats),
        Arg::Text(&g.seats.player_names),
        Arg::OptText(s.opener.as_deref()),
        Arg::Text(&s.lobby),
    ];
    query::<DB>(&sql, args)
        .execute(ex)
        .await
        .map_err(|e| classify_insert(e, StoreError::DuplicateGame(s.id), s.id))?;
    Ok(())
}

/// Deletes game `id` if it has no action; whether it did.
pub(crate) async fn delete_unplayed<DB: Dialect>(
    ex: impl Executor<'_, Database = DB>,
    id: Uuid,
) -> Result<bool, StoreError> {
    let done = query::<DB>(
        "DELETE FROM games WHERE id = $1 \
         AND NOT EXISTS (SELECT 1 FROM game_actions WHERE game_id = $1)",
        [Arg::Id(id)],
    )
    .execute(ex)
    .await?;
    Ok(DB::rows_affected(&done) > 0)
}

/// One INSERT of an action; with `if_absent` a taken `(game, seq)` is no
/// error (and writes nothing).
pub(crate) async fn insert_action<DB: Dialect>(
    ex: impl Executor<'_, Database = DB>,
    game_id: Uuid,
    a: &RecordedAction,
    if_absent: bool,
) -> Result<(), StoreError> {
    let row = NewActionRow::of(a)?;
    let j = DB::JSON;
    let into = format!(
        "game_actions ({}) VALUES ($1, $2, $3, $4{j}, $5{j}, $6, $7)",
        columns::NEW_ACTION
    );
    let sql = match if_absent {
        true => DB::insert_action_if_absent(&into),
        false => format!("INSERT INTO {into}"),
    };
    let args = [
        Arg::Id(game_id),
        Arg::Int(row.seq),
        Arg::Seat(row.seat),
        Arg::Text(&row.action),
        Arg::Text(&row.outcome),
        Arg::Time(row.time),
        Arg::Flag(row.stand_in),
    ];
    query::<DB>(&sql, args)
        .execute(ex)
        .await
        .map_err(|e| classify_append(e, game_id, a.seq))?;
    Ok(())
}

/// Stores `a` unless `(game, seq)` is taken, then checks that what is stored
/// there is `a` (an append that timed out may have committed meanwhile).
pub(crate) async fn ensure_action<DB: Dialect>(
    conn: &mut DB::Connection,
    game_id: Uuid,
    a: &RecordedAction,
) -> Result<(), StoreError>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
{
    insert_action(&mut *conn, game_id, a, true).await?;
    if !is_present::<DB>(conn, game_id, a).await? {
        return Err(StoreError::Corrupt(format!(
            "seq {} vanished from {game_id}",
            a.seq
        )));
    }
    Ok(())
}

/// Whether the log holds `a` at its seq (`false`: the seq is empty);
/// [`StoreError::Conflict`] when another action holds it.
pub(crate) async fn is_present<DB: Dialect>(
    conn: &mut DB::Connection,
    game_id: Uuid,
    a: &RecordedAction,
) -> Result<bool, StoreError>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
{
    let sql = format!(
        "SELECT {} FROM game_actions WHERE game_id = $1 AND seq = $2",
        columns::STORED_ACTION
    );
    let row = query::<DB>(&sql, [Arg::Id(game_id), Arg::Int(seq_sql(a.seq)?)])
        .fetch_optional(&mut *conn)
        .await?;
    let Some(row) = row else {
        return Ok(false);
    };
    stored_action(&row)?.check_is(game_id, a)?;
    Ok(true)
}

/// Marks game `game_id` over with `status` and `result` at `at`.
pub(crate) async fn finish_game<DB: Dialect>(
    ex: impl Executor<'_, Database = DB>,
    game_id: Uuid,
    status: GameStatus,
    result: Option<&GameResult>,
    at: DateTime<Utc>,
) -> Result<(), StoreError> {
    let result = result.map(json_text).transpose()?;
    let sql = format!(
        "UPDATE games SET status = $2, result = $3{}, finished = $4 WHERE id = $1",
        DB::JSON
    );
    let args = [
        Arg::Id(game_id),
        Arg::Text(status.as_str()),
        Arg::OptText(result.as_deref()),
        Arg::Time(at),
    ];
    let done = query::<DB>(&sql, args).execute(ex).await?;
    known_game(DB::rows_affected(&done), game_id)
}

/// Replaces game `game_id`'s seats.
pub(crate) async fn update_seats<DB: Dialect>(
    ex: impl Executor<'_, Database = DB>,
    game_id: Uuid,
    seats: &SeatColumns,
) -> Result<(), StoreError> {
    let sql = format!(
        "UPDATE games SET seats = $2{}, player_names = $3 WHERE id = $1",
        DB::JSON
    );
    let args = [
        Arg::Id(game_id),
        Arg::Text(&seats.seats),
        Arg::Text(&seats.player_names),
    ];
    let done = query::<DB>(&sql, args).execute(ex).await?;
    known_game(DB::rows_affected(&done), game_id)
}
