//! Refusals with stable codes, and their HTTP form.
//!
//! The same [`Refusal`] travels from the lobby actor to a WebSocket
//! (`rejected`) or to an HTTP response (`{"error": {code, message}}` with a
//! status chosen by code).

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// A request that was refused; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// Stable snake_case code.
    pub code: String,
    /// Explanation for the user.
    pub message: String,
}

impl Refusal {
    /// A refusal with `code` and `message`.
    pub fn new(code: &str, message: impl Into<String>) -> Refusal {
        Refusal {
            code: code.to_string(),
            message: message.into(),
        }
    }

    /// The HTTP status for this code.
    pub fn status(&self) -> StatusCode {
        match self.code.as_str() {
            "lobby_not_found" | "not_found" | "no_such_seat" => StatusCode::NOT_FOUND,
            "invalid_token" | "token_required" => StatusCode::UNAUTHORIZED,
            "not_host" | "origin_not_allowed" => StatusCode::FORBIDDEN,
            "too_many_lobbies" | "rate_limited" => StatusCode::TOO_MANY_REQUESTS,
            "server_busy" | "storage_unavailable" | "shutting_down" => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            "lobby_full" | "seat_taken" | "already_started" | "not_ready" | "game_not_started"
            | "not_a_bot" | "spectators_full" | "game_not_finished" => StatusCode::CONFLICT,
            "internal" => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::BAD_REQUEST,
        }
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: ErrorDetail<'a>,
}

#[derive(Serialize)]
struct ErrorDetail<'a> {
    code: &'a str,
    message: &'a str,
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorDetail {
                code: &self.code,
                message: &self.message,
            },
        };
        (self.status(), Json(body)).into_response()
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}
