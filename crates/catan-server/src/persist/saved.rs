//! Saved games over HTTP (docs/PROTOCOL.md, "Saved games"):
//!
//! - `GET /api/games?page=&per_page=&player=`: finished games, newest first,
//!   paged, optionally only those with a seat whose name contains `player`;
//! - `GET /api/games/{id}`: one game's record (docs/GAME_RECORD.md);
//! - `GET /api/games/{id}/steps?from=&to=`: a finished game replayed (see `steps`).
//!
//! A finished game's record reveals its seed and salt. A game still being
//! played is served without them and without the outcomes of random steps
//! (drawn cards, stolen resources), which would give hidden hands away.

use super::read::{store, store_for, store_refusal};
use crate::error::Refusal;
use crate::state::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::routing::get;
use axum::{Json, Router};
use catan_core::record::{GameRecord, Outcome};
use catan_protocol::Code;
use catan_store::GamePage;
use serde::Deserialize;
use uuid::Uuid;

/// Page size when the client names none.
pub const DEFAULT_PER_PAGE: u32 = 20;

/// The saved-games routes, to be nested under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/games", get(list))
        .route("/games/{id}", get(record))
        .route("/games/{id}/steps", get(super::steps::steps))
}

/// Query of `GET /api/games`.
#[derive(Deserialize, Debug, Default, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Page number from 1.
    page: Option<u32>,
    /// Games per page (1 to 100).
    per_page: Option<u32>,
    /// Keep games with a seat whose name contains this (case-insensitive).
    player: Option<String>,
}

/// Lists finished games, newest first.
pub async fn list(
    State(st): State<AppState>,
    q: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<GamePage>, Refusal> {
    let Query(q) = q.map_err(|e| Refusal::new(Code::BadQuery, e.body_text()))?;
    let page = q.page.unwrap_or(1);
    if page == 0 {
        return Err(Refusal::new(Code::BadQuery, "pages count from 1"));
    }
    let per_page = q.per_page.unwrap_or(DEFAULT_PER_PAGE);
    if per_page == 0 || per_page > catan_store::MAX_PER_PAGE {
        return Err(Refusal::new(
            Code::BadQuery,
            format!(
                "per_page must be between 1 and {}",
                catan_store::MAX_PER_PAGE
            ),
        ));
    }
    let player = q.player.as_deref().map(str::trim).filter(|p| !p.is_empty());
    let found = store(&st)?
        .list_finished(page, per_page, player)
        .await
        .map_err(store_refusal)?;
    Ok(Json(found))
}

/// One game's record.
pub async fn record(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<GameRecord>, Refusal> {
    let not_found = || Refusal::new(Code::NotFound, "there is no saved game with that id");
    let id = Uuid::parse_str(&id).map_err(|_| not_found())?;
    let record = store_for(&st, id).await?.ok_or_else(not_found)?;
    Ok(Json(redact_live(record)))
}

/// A running game's record without what would reveal hidden information.
pub fn redact_live(mut record: GameRecord) -> GameRecord {
    if !record.status.is_over() {
        record.seed = None;
        for a in &mut record.actions {
            a.outcome = Outcome::default();
        }
    }
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use catan_core::record::{GameStatus, RecordedAction, SeedReveal};
    use catan_core::{Action, Seat};

    fn record(status: GameStatus) -> GameRecord {
        GameRecord {
            format: 1,
            game_id: "g".into(),
            created: "2025-01-01T00:00:00.000000Z".into(),
            rules_version: "1".into(),
            options: Default::default(),
            seats: Vec::new(),
            seed_commitment: "c".into(),
            seed: Some(SeedReveal {
                seed: 5,
                salt: "s".into(),
            }),
            status,
            result: None,
            opener: None,
            actions: vec![RecordedAction {
                seq: 1,
                seat: Seat(0),
                action: Action::RollDice,
                outcome: Outcome {
                    dice: Some([3, 4]),
                    ..Outcome::default()
                },
                time: "2025-01-01T00:00:01.000000Z".into(),
                stand_in: false,
            }],
        }
    }

    #[test]
    fn r48_live_records_hide_seed_and_outcomes_finished_ones_do_not() {
        let live = redact_live(record(GameStatus::InProgress));
        assert_eq!(live.seed, None);
        assert!(live.actions[0].outcome.is_empty());
        let over = redact_live(record(GameStatus::Finished));
        assert_eq!(over, record(GameStatus::Finished));
    }
}
