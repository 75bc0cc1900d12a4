//! Replay steps of a finished game: `GET /api/games/{id}/steps?from=A&to=B`.
//!
//! The record alone cannot show a board (it holds actions, not states), and
//! the browser must not carry a copy of the rules engine, so the server
//! replays the record with `catan_core::record::Replay` and returns, per
//! step, the action, its unredacted events and the full view after it.
//! Only finished games qualify: a review may show everything (R48).

use super::read::store_for;
use crate::error::Refusal;
use crate::state::AppState;
use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use catan_core::record::{RecordedAction, Replay};
use catan_core::{Event, View, Viewer};
use catan_protocol::Code;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Most steps one request may ask for.
pub const MAX_STEPS: u64 = 100;

/// Query of the steps endpoint: an inclusive range of positions.
#[derive(Deserialize, Debug, Default, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepsQuery {
    /// First position (0 = before any action).
    from: Option<u64>,
    /// Last position (inclusive).
    to: Option<u64>,
}

/// One position of the replay.
#[derive(Serialize, Debug, schemars::JsonSchema)]
pub struct Step {
    /// Position: the number of actions applied.
    pub step: u64,
    /// The action that led here (none at position 0).
    pub action: Option<RecordedAction>,
    /// Its events, unredacted (position 0: the opener roll).
    pub events: Vec<Event>,
    /// The full view after it.
    pub view: View,
}

/// The answer: how many actions the game has and the steps asked for.
#[derive(Serialize, Debug, schemars::JsonSchema)]
pub struct Steps {
    /// Number of actions; positions run 0..=total.
    pub total: u64,
    /// The steps from `from` to `to`.
    pub steps: Vec<Step>,
}

/// Replays a finished game's record between two positions.
pub async fn steps(
    State(st): State<AppState>,
    Path(id): Path<String>,
    q: Result<Query<StepsQuery>, QueryRejection>,
) -> Result<Json<Steps>, Refusal> {
    let Query(q) = q.map_err(|e| Refusal::new(Code::BadQuery, e.body_text()))?;
    let not_found = || Refusal::new(Code::NotFound, "there is no saved game with that id");
    let id = Uuid::parse_str(&id).map_err(|_| not_found())?;
    let record = store_for(&st, id).await?.ok_or_else(not_found)?;
    if !record.status.is_over() {
        return Err(Refusal::new(
            Code::GameNotFinished,
            "a game can be reviewed step by step once it is over",
        ));
    }
    let total = record.actions.len() as u64;
    let from = q.from.unwrap_or(0);
    let to = q.to.unwrap_or(total).min(total);
    if from > to || to - from + 1 > MAX_STEPS {
        return Err(Refusal::new(
            Code::BadQuery,
            format!("ask for 1 to {MAX_STEPS} steps with from <= to <= {total}"),
        ));
    }
    let bad = |e: catan_core::record::ReplayError| {
        tracing::error!(error = %e, %id, "stored game does not replay");
        Refusal::new(Code::Internal, "this saved game cannot be replayed")
    };
    let mut replay = Replay::new(&record).map_err(bad)?;
    // Position `from` itself is part of the answer: stop one action short of
    // it, so the loop below applies that action and returns its events.
    replay
        .run_to((from as usize).saturating_sub(1))
        .map_err(bad)?;
    let mut out = Vec::with_capacity((to - from + 1) as usize);
    if from == 0 {
        out.push(Step {
            step: 0,
            action: None,
            events: vec![replay.opener_event().clone()],
            view: replay.game().view(Viewer::Omniscient),
        });
    }
    while (replay.position() as u64) < to {
        let Some(step) = replay.step() else { break };
        let step = step.map_err(bad)?;
        out.push(Step {
            step: replay.position() as u64,
            action: Some(step.recorded),
            events: step.events,
            view: replay.game().view(Viewer::Omniscient),
        });
    }
    Ok(Json(Steps { total, steps: out }))
}
