//! Setting up one game over the HTTP API: create a private lobby, take its
//! four seats (one token each), and later start it with the host token.

use super::http::{HttpConn, Response};
use hyper::Method;
use serde::Deserialize;
use std::time::Duration;
use uuid::Uuid;

/// How often a creation refused with `server_busy` is tried again, and how
/// long apart: a busy node (its lease renewals slow) asks its clients to
/// come back in a few seconds, and a person would.
const BUSY_TRIES: u32 = 30;
const BUSY_PAUSE: Duration = Duration::from_secs(2);

/// Seats per game.
pub const SEATS: usize = 4;

#[derive(Deserialize)]
struct LobbyRef {
    id: Uuid,
}

#[derive(Deserialize)]
struct Created {
    lobby: LobbyRef,
    host_token: String,
}

#[derive(Deserialize)]
struct Joined {
    token: String,
}

/// A lobby with every seat taken.
pub struct Lobby {
    /// Its id (also the stored game's id).
    pub id: Uuid,
    /// The host's token, for `start`.
    pub host_token: String,
    /// Seat tokens, by seat.
    pub seat_tokens: Vec<String>,
}

/// Creates lobby number `index` and seats four players in it.
pub async fn create(http: &mut HttpConn, index: usize) -> Result<Lobby, String> {
    let body = serde_json::json!({"name": format!("load {index}"), "public": false});
    let mut tries = 0;
    let created: Created = loop {
        let answer = http
            .request(Method::POST, "/api/lobbies", None, Some(&body))
            .await?;
        tries += 1;
        if tries < BUSY_TRIES && is_busy(&answer) {
            tokio::time::sleep(BUSY_PAUSE).await;
            continue;
        }
        break answer.json("create lobby")?;
    };
    let mut seat_tokens = Vec::with_capacity(SEATS);
    for seat in 0..SEATS {
        let body = serde_json::json!({"name": format!("p{index}-{seat}"), "seat": seat});
        let path = format!("/api/lobbies/{}/join", created.lobby.id);
        let joined: Joined = http
            .request(Method::POST, &path, None, Some(&body))
            .await?
            .json("join")?;
        seat_tokens.push(joined.token);
    }
    Ok(Lobby {
        id: created.lobby.id,
        host_token: created.host_token,
        seat_tokens,
    })
}

/// Whether `answer` is a 503 `server_busy` refusal (try again later).
fn is_busy(answer: &Response) -> bool {
    answer.status == 503
        && serde_json::from_slice::<serde_json::Value>(&answer.body)
            .is_ok_and(|v| v["error"]["code"] == "server_busy")
}

/// Starts the game (every seat's socket should be connected first, so that
/// each sees the opening update).
pub async fn start(http: &mut HttpConn, lobby: &Lobby) -> Result<(), String> {
    let path = format!("/api/lobbies/{}/start", lobby.id);
    http.request(Method::POST, &path, Some(&lobby.host_token), None)
        .await?
        .json::<serde_json::Value>("start")?;
    Ok(())
}
