//! `catan-server`: the authoritative online Catan server.
//!
//! An axum app ([`app`]) with an HTTP JSON API for lobbies, one
//! [`lobby::actor::LobbyActor`] task per lobby, and a WebSocket per player or
//! spectator speaking the protocol in docs/PROTOCOL.md. Every accepted action
//! goes through a write-ahead [`journal::Journal`] before anyone hears of it.

pub mod accept;
pub mod api;
pub mod cluster;
pub mod config;
pub mod error;
pub mod frames;
pub mod http_limits;
pub mod journal;
pub mod lobby;
pub mod metrics;
pub mod openapi;
pub mod persist;
pub mod ratelimit;
pub mod registry;
pub mod settings;
pub mod state;
pub mod strict;
pub mod token;
pub mod ws;

pub use config::Config;
pub use error::Refusal;
pub use journal::{Journal, MemoryJournal};
pub use registry::Registry;
pub use state::AppState;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, Request};
use axum::routing::{delete, get, post};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::services::ServeDir;
use tower_http::trace::TraceLayer;

/// Largest HTTP request body the API reads.
pub const MAX_BODY: usize = 16 * 1024;

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The whole HTTP application: API, WebSocket endpoint, static files.
///
/// Serve it with `into_make_service_with_connect_info::<SocketAddr>()` so
/// that per-client limits see the client's address.
pub fn app(state: AppState) -> Router {
    let api = Router::new()
        .route("/lobbies", get(api::list).post(api::create))
        .route("/lobbies/{id}", get(api::get_one))
        .route("/lobbies/{id}/join", post(api::join))
        .route("/lobbies/{id}/leave", post(api::leave))
        .route("/lobbies/{id}/bots", post(api::add_bot))
        .route("/lobbies/{id}/bots/{seat}", delete(api::remove_bot))
        .route("/lobbies/{id}/start", post(api::start))
        .route("/bot-kinds", get(api::bot_kinds))
        .route("/config", get(api::page_config))
        .route("/openapi.json", get(api::openapi))
        .route("/lobbies/{id}/ws", get(ws::upgrade))
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            cluster::route::forward,
        ))
        .route("/nodes", get(api::nodes))
        // Answered by the node asked, so outside the forwarding layer.
        .route("/lobbies/{id}/node", get(api::node_of))
        .merge(persist::saved::routes())
        .layer(http_limits::post_limit_layer(&state.post_limiter));
    let limit = state.config.http_timeout();
    let static_files = ServeDir::new(&state.config.static_dir);
    Router::new()
        .route("/healthz", get(api::healthz))
        .route("/readyz", get(api::readyz))
        .route("/metrics", get(api::metrics))
        .nest("/api", api)
        .fallback_service(static_files)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(move |req, next| {
            http_limits::deadline(limit, req, next)
        }))
        .layer(
            TraceLayer::new_for_http().make_span_with(|req: &Request<_>| {
                let id = req
                    .headers()
                    .get(&REQUEST_ID)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("-");
                // The path only: a query string is never logged.
                tracing::info_span!(
                    "http",
                    method = %req.method(),
                    path = %req.uri().path(),
                    request_id = %id
                )
            }),
        )
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .with_state(state)
}

/// Serves [`app`] on `listener` until `stop` resolves, then closes every
/// WebSocket with "server shutting down" and waits for requests to finish.
///
/// Sockets get `TCP_NODELAY`: game messages are small and latency matters
/// more than packet count.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use axum::serve::ListenerExt;
    let listener = accept::Patient::new(listener).tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "cannot set TCP_NODELAY");
        }
    });
    tokio::spawn(http_limits::forget_quiet_clients(
        state.post_limiter.clone(),
    ));
    let stopping = state.clone();
    axum::serve(
        listener,
        app(state).into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        stop.await;
        tracing::info!("shutting down: closing sockets");
        stopping.begin_shutdown();
    })
    .await
}
