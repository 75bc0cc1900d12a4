//! Refusals with stable codes, and their HTTP form.
//!
//! The same [`Refusal`] travels from the lobby actor to a WebSocket
//! (`rejected`) or to an HTTP response (`{"error": {code, message}}` with a
//! status chosen by code). Codes are the protocol's closed enum
//! ([`catan_protocol::Code`]), so a typo is a compile error rather than a
//! silent 400, and the HTTP status of every code is chosen by one exhaustive
//! match, [`http_status`].

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use catan_protocol::Code;
use serde::Serialize;

/// The HTTP status a refusal with `code` is answered with (one exhaustive
/// match, so a new code cannot go without one).
pub fn http_status(code: Code) -> StatusCode {
    use Code::*;
    match code {
        LobbyNotFound | NotFound | NoSuchSeat => StatusCode::NOT_FOUND,
        InvalidToken | TokenRequired => StatusCode::UNAUTHORIZED,
        NotHost | OriginNotAllowed => StatusCode::FORBIDDEN,
        TooManyLobbies | RateLimited => StatusCode::TOO_MANY_REQUESTS,
        ServerBusy | StorageUnavailable | ShuttingDown | LobbyMoved => {
            StatusCode::SERVICE_UNAVAILABLE
        }
        LobbyFull | SeatTaken | AlreadyStarted | NotReady | GameNotStarted | NotABot
        | SpectatorsFull | GameNotFinished | StaleVersion => StatusCode::CONFLICT,
        RequestTimeout => StatusCode::REQUEST_TIMEOUT,
        Internal => StatusCode::INTERNAL_SERVER_ERROR,
        BadJson | BadQuery | UnknownType | UnsupportedProtocol | HelloRequired
        | AlreadyConnected | InvalidName | InvalidOptions | NotYourSeat | EmptyChat
        | ChatTooLong | Rules(_) => StatusCode::BAD_REQUEST,
    }
}

/// A request that was refused; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// Stable code.
    pub code: Code,
    /// Explanation for the user.
    pub message: String,
}

impl Refusal {
    /// A refusal with `code` and `message`.
    pub fn new(code: Code, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }

    /// The HTTP status for this refusal's code.
    pub fn status(&self) -> StatusCode {
        http_status(self.code)
    }
}

impl From<catan_core::ActionError> for Refusal {
    fn from(e: catan_core::ActionError) -> Refusal {
        Refusal::new(Code::Rules(e.code), e.message)
    }
}

/// The body of every HTTP refusal.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct ErrorBody<'a> {
    error: ErrorDetail<'a>,
}

#[derive(Serialize, schemars::JsonSchema)]
struct ErrorDetail<'a> {
    code: Code,
    message: &'a str,
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        crate::metrics::metrics().refused(self.code, crate::metrics::Via::http);
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses() {
        assert_eq!(http_status(Code::LobbyNotFound), StatusCode::NOT_FOUND);
        assert_eq!(http_status(Code::GameNotFinished), StatusCode::CONFLICT);
        assert_eq!(
            http_status(Code::StorageUnavailable),
            StatusCode::SERVICE_UNAVAILABLE
        );
        assert_eq!(
            http_status(Code::Rules(catan_core::ErrorCode::Occupied)),
            StatusCode::BAD_REQUEST
        );
    }
}
