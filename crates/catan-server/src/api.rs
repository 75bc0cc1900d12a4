//! The HTTP JSON API: lobbies, seats, bots, start. See docs/PROTOCOL.md.
//!
//! Secrets travel in `Authorization: Bearer <token>` headers, never in URLs,
//! so request logs cannot contain them.

use crate::cluster::{Cluster, Located};
use crate::error::Refusal;
use crate::lobby::LobbyHandle;
use crate::settings::LobbySettings;
use crate::state::AppState;
use crate::strict::StrictJson;
use crate::token::{TokenHash, TokenSecret};
use axum::Json;
use axum::extract::{ConnectInfo, FromRequestParts, Path, State};
use axum::http::StatusCode;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use catan_bots::BotKind;
use catan_core::{GameOptions, Seat};
use catan_protocol::Code;
use catan_protocol::LobbyInfo;
use catan_protocol::Token;
use catan_protocol::TurnTimer;
use serde::{Deserialize, Serialize};
use std::net::{IpAddr, SocketAddr};
use uuid::Uuid;

/// The client's address, as [`crate::http_limits::Addresses`] finds it.
pub struct ClientIp(pub Option<IpAddr>);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, st: &AppState) -> Result<Self, Refusal> {
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>();
        Ok(ClientIp(st.addresses.client_ip(&parts.headers, peer)))
    }
}

/// The hash of the bearer token in the `Authorization` header.
pub struct Bearer(pub TokenHash);

impl<S: Send + Sync> FromRequestParts<S> for Bearer {
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Refusal> {
        parts
            .headers
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(|t| Bearer(Token::from_client(t.trim()).hash()))
            .ok_or_else(|| {
                Refusal::new(
                    Code::TokenRequired,
                    "send the token as `Authorization: Bearer <token>`",
                )
            })
    }
}

/// Where lobby `id` is served in a cluster (taking it over here when
/// nobody serves it and it is this node's to take); a store that cannot
/// tell is refused as unavailable.
async fn located(cluster: &Cluster, id: Uuid) -> Result<Located, Refusal> {
    cluster.locate(id).await.map_err(|e| {
        tracing::warn!(lobby_id = %id, error = %e, "cannot tell where the lobby is");
        Refusal::new(
            Code::StorageUnavailable,
            "cannot tell which server holds this lobby right now; try again",
        )
    })
}

/// The refusal for an id no lobby has.
fn lobby_not_found() -> Refusal {
    Refusal::new(Code::LobbyNotFound, "there is no lobby with that id")
}

/// Parses a lobby id and finds its handle: a live lobby, or an unfinished
/// game in the store whose lobby was unloaded while idle, resumed now.
pub async fn lobby(st: &AppState, id: &str) -> Result<LobbyHandle, Refusal> {
    let id = Uuid::parse_str(id).map_err(|_| lobby_not_found())?;
    if let Some(handle) = st.registry.get(id) {
        return Ok(handle);
    }
    if let Some(cluster) = &st.cluster {
        return match located(cluster, id).await? {
            Located::Here(handle) => Ok(handle),
            Located::There(_) | Located::Moving => Err(Refusal::new(
                Code::LobbyMoved,
                "another server serves this lobby; ask GET /api/lobbies/{id} where",
            )),
            Located::Nowhere => Err(lobby_not_found()),
        };
    }
    match &st.store {
        Some(store) => crate::persist::resume_on_demand(&st.registry, store, id)
            .await
            .ok_or_else(lobby_not_found),
        None => Err(lobby_not_found()),
    }
}

fn default_true() -> bool {
    true
}

/// `POST /api/lobbies` body.
#[derive(Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateLobby {
    #[schemars(length(min = 1, max = crate::settings::MAX_NAME_CHARS))]
    name: String,
    #[serde(default = "default_true")]
    public: bool,
    #[serde(default)]
    options: GameOptions,
    #[serde(default)]
    turn_timer: TurnTimer,
    #[serde(default)]
    #[schemars(range(max = crate::settings::MAX_BOT_DELAY_MS))]
    bot_delay_ms: Option<u64>,
}

/// `POST /api/lobbies` answer.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Created {
    lobby: LobbyInfo,
    /// The host's secret, shown once.
    host_token: String,
}

/// Creates a lobby; the creator gets the host token.
pub async fn create(
    State(st): State<AppState>,
    ClientIp(ip): ClientIp,
    StrictJson(req): StrictJson<CreateLobby>,
) -> Result<(StatusCode, Json<Created>), Refusal> {
    let mut settings = LobbySettings {
        name: req.name,
        public: req.public,
        options: req.options,
        turn_timer: req.turn_timer,
        bot_delay_ms: req.bot_delay_ms.unwrap_or(st.config.bot_delay_ms),
    };
    if settings.options.turn_limit.is_none() && st.config.turn_limit > 0 {
        settings.options.turn_limit = Some(st.config.turn_limit);
    }
    settings.validate()?;
    let host = Token::generate();
    if st.cluster.as_ref().is_some_and(|c| c.draining()) {
        return Err(Refusal::new(
            Code::ShuttingDown,
            "this server is stopping; create the lobby on another one",
        ));
    }
    if st.cluster.as_ref().is_some_and(|c| c.busy()) {
        return Err(too_busy());
    }
    let (handle, lobby) = st.registry.create(settings, host.hash(), ip)?;
    if let Some(cluster) = &st.cluster {
        // Leased, then stored, before anyone hears of it: a room the
        // client was told about outlives this node.
        let recorded = match cluster.claim_new(lobby.id).await {
            Ok(()) => handle.save_room().await.map_err(|r| (r.message, false)),
            Err(e) => Err((
                e.to_string(),
                matches!(e, catan_store::StoreError::LeaseLapsed),
            )),
        };
        if let Err((e, lapsed)) = recorded {
            tracing::warn!(lobby_id = %lobby.id, error = %e, "cannot record the new lobby");
            let _ = handle.stop(catan_protocol::CloseReason::LOBBY_CLOSED).await;
            // A node that just gave its lobbies up holds no lease until its
            // next beat: busy, not broken.
            return Err(if lapsed {
                too_busy()
            } else {
                Refusal::new(
                    Code::StorageUnavailable,
                    "the lobby could not be recorded; try again",
                )
            });
        }
    }
    tracing::info!(lobby_id = %lobby.id, public = lobby.public, "lobby created");
    Ok((
        StatusCode::CREATED,
        Json(Created {
            lobby,
            host_token: host.reveal().to_string(),
        }),
    ))
}

/// The refusal of a new lobby by a cluster node that cannot take more work
/// right now (its renewals are slow, or it holds no lease this moment).
fn too_busy() -> Refusal {
    Refusal::new(
        Code::ServerBusy,
        "this server is too busy for a new lobby right now; try again in a few seconds",
    )
}

/// `GET /api/lobbies` answer.
#[derive(Serialize, schemars::JsonSchema)]
pub struct LobbyList {
    lobbies: Vec<LobbyInfo>,
}

/// Lists public lobbies.
pub async fn list(State(st): State<AppState>) -> Json<LobbyList> {
    let mut lobbies = st.registry.list_public();
    if let Some(cluster) = &st.cluster {
        // Every node's public lobbies, as their owners last published them
        // (within a beat); this node's own from memory.
        let here: std::collections::HashSet<Uuid> = st.registry.ids().into_iter().collect();
        match cluster.listings().await {
            Ok(others) => lobbies.extend(
                others
                    .into_iter()
                    .filter(|l| l.public && !here.contains(&l.lobby_id))
                    .filter_map(|l| serde_json::from_str::<LobbyInfo>(&l.info).ok()),
            ),
            Err(e) => tracing::warn!(error = %e, "cannot list the other nodes' lobbies"),
        }
        lobbies.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
    }
    Json(LobbyList { lobbies })
}

/// `GET /api/nodes` answer.
#[derive(Serialize, schemars::JsonSchema)]
pub struct NodeList {
    /// Whether this server is one node of a cluster.
    clustered: bool,
    /// The node that answered (its id), in a cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    this_node: Option<String>,
    /// The live nodes, by id (empty on a single server).
    nodes: Vec<catan_store::NodeRecord>,
}

/// The cluster's live nodes with their load (docs/CLUSTER.md).
pub async fn nodes(State(st): State<AppState>) -> Result<Json<NodeList>, Refusal> {
    let Some(cluster) = &st.cluster else {
        return Ok(Json(NodeList {
            clustered: false,
            this_node: None,
            nodes: Vec::new(),
        }));
    };
    let nodes = cluster.nodes().await.map_err(|e| {
        tracing::warn!(error = %e, "cannot list nodes");
        Refusal::new(Code::StorageUnavailable, "cannot list the nodes right now")
    })?;
    Ok(Json(NodeList {
        clustered: true,
        this_node: Some(cluster.id().to_string()),
        nodes,
    }))
}

/// One lobby (public or private: knowing the id is the invitation).
pub async fn get_one(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<LobbyInfo>, Refusal> {
    Ok(Json(lobby(&st, &id).await?.info().await?))
}

/// `GET /api/lobbies/{id}/node` answer.
#[derive(Serialize, schemars::JsonSchema)]
pub struct NodeOfLobby {
    /// In a cluster: the base URL of the node that serves the lobby; open
    /// its WebSocket there. Absent on a single server.
    #[serde(skip_serializing_if = "Option::is_none")]
    node_url: Option<String>,
}

/// Where a lobby's socket is served, answered by the node asked (never
/// forwarded): a reconnecting client's lookup. `GET /api/lobbies/{id}`
/// answers the same `node_url` inside the whole lobby, from the owner, at
/// the cost of a hop to it for half of a dead node's clients; this answer
/// costs the owner nothing (docs/CLUSTER.md, "Routing").
pub async fn node_of(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<NodeOfLobby>, Refusal> {
    let Some(cluster) = &st.cluster else {
        // A single server: the lobby is here if anywhere (an unfinished
        // game unloaded while idle is resumed, as its socket would).
        lobby(&st, &id).await?;
        return Ok(Json(NodeOfLobby { node_url: None }));
    };
    let id = Uuid::parse_str(&id).map_err(|_| lobby_not_found())?;
    let node_url = match located(cluster, id).await? {
        Located::Here(_) => cluster.url().to_string(),
        Located::There(url) => url,
        Located::Nowhere => return Err(lobby_not_found()),
        Located::Moving => return Err(crate::cluster::route::moving()),
    };
    Ok(Json(NodeOfLobby {
        node_url: Some(node_url),
    }))
}

/// `POST /api/lobbies/{id}/join` body.
#[derive(Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinReq {
    #[schemars(length(min = 1, max = crate::settings::MAX_NAME_CHARS))]
    name: String,
    #[serde(default)]
    seat: Option<Seat>,
}

/// `POST /api/lobbies/{id}/join` answer.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Joined {
    seat: Seat,
    /// The seat's secret, shown once.
    token: String,
    lobby: LobbyInfo,
}

/// Takes a seat.
pub async fn join(
    State(st): State<AppState>,
    Path(id): Path<String>,
    StrictJson(req): StrictJson<JoinReq>,
) -> Result<Json<Joined>, Refusal> {
    let handle = lobby(&st, &id).await?;
    let token = Token::generate();
    let (seat, lobby) = handle.join(req.name, req.seat, token.hash()).await?;
    Ok(Json(Joined {
        seat,
        token: token.reveal().to_string(),
        lobby,
    }))
}

/// `{ "lobby": ... }`.
#[derive(Serialize, schemars::JsonSchema)]
pub struct LobbyOnly {
    lobby: LobbyInfo,
}

/// Leaves one's seat (seat token).
pub async fn leave(
    State(st): State<AppState>,
    Path(id): Path<String>,
    Bearer(token): Bearer,
) -> Result<Json<LobbyOnly>, Refusal> {
    let lobby = lobby(&st, &id).await?.leave(token).await?;
    Ok(Json(LobbyOnly { lobby }))
}

/// `POST /api/lobbies/{id}/bots` body.
#[derive(Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddBotReq {
    #[serde(default = "default_kind")]
    kind: BotKind,
    #[serde(default)]
    seat: Option<Seat>,
}

fn default_kind() -> BotKind {
    BotKind::Normal
}

/// One entry of `GET /api/bot-kinds`.
#[derive(Serialize, schemars::JsonSchema)]
pub struct BotKindInfo {
    kind: BotKind,
    description: &'static str,
}

/// `GET /api/bot-kinds` answer.
#[derive(Serialize, schemars::JsonSchema)]
pub struct BotKinds {
    kinds: Vec<BotKindInfo>,
    default: BotKind,
}

/// The bot kinds a lobby can seat, weakest first, and the default.
pub async fn bot_kinds() -> Json<BotKinds> {
    Json(BotKinds {
        kinds: BotKind::ALL
            .into_iter()
            .map(|kind| BotKindInfo {
                kind,
                description: kind.description(),
            })
            .collect(),
        default: default_kind(),
    })
}

/// `GET /api/config` answer: what the pages need to know about this server.
#[derive(Serialize, schemars::JsonSchema)]
pub struct PageConfig {
    /// Whether the pages may turn on their browser-test hooks.
    test_hooks: bool,
}

/// `GET /api/openapi.json`: the HTTP API's OpenAPI document (built once).
pub async fn openapi() -> impl axum::response::IntoResponse {
    static DOC: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| crate::openapi::document().to_string());
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        DOC.as_str(),
    )
}

/// The settings the pages read at start (see [`PageConfig`]).
pub async fn page_config(State(st): State<AppState>) -> Json<PageConfig> {
    Json(PageConfig {
        test_hooks: st.config.test_hooks,
    })
}

/// `POST /api/lobbies/{id}/bots` answer.
#[derive(Serialize, schemars::JsonSchema)]
pub struct BotAdded {
    seat: Seat,
    lobby: LobbyInfo,
}

/// Seats a bot (host token).
pub async fn add_bot(
    State(st): State<AppState>,
    Path(id): Path<String>,
    Bearer(host): Bearer,
    StrictJson(req): StrictJson<AddBotReq>,
) -> Result<Json<BotAdded>, Refusal> {
    let handle = lobby(&st, &id).await?;
    let (seat, lobby) = handle.add_bot(host, req.kind, req.seat).await?;
    Ok(Json(BotAdded { seat, lobby }))
}

/// Removes a bot (host token).
pub async fn remove_bot(
    State(st): State<AppState>,
    Path((id, seat)): Path<(String, String)>,
    Bearer(host): Bearer,
) -> Result<Json<LobbyOnly>, Refusal> {
    let handle = lobby(&st, &id).await?;
    let seat: u8 = seat
        .parse()
        .map_err(|_| Refusal::new(Code::NoSuchSeat, "a seat is a small number"))?;
    let lobby = handle.remove_bot(host, Seat(seat)).await?;
    Ok(Json(LobbyOnly { lobby }))
}

/// Starts the game (host token).
pub async fn start(
    State(st): State<AppState>,
    Path(id): Path<String>,
    Bearer(host): Bearer,
) -> Result<Json<LobbyOnly>, Refusal> {
    let lobby = lobby(&st, &id).await?.start(host).await?;
    Ok(Json(LobbyOnly { lobby }))
}

/// `GET /healthz`: liveness (the process serves requests).
pub async fn healthz(State(st): State<AppState>) -> Json<serde_json::Value> {
    Json(serde_json::json!({ "status": "ok", "lobbies": st.registry.len() }))
}

/// How long readiness waits for the store's answer.
const READY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// `GET /readyz`: readiness. 200 while the game store answers and the
/// server is not stopping; 503 otherwise, so a load balancer sends no new
/// players here.
pub async fn readyz(State(st): State<AppState>) -> (StatusCode, Json<serde_json::Value>) {
    let store = match &st.store {
        None => Ok(()),
        Some(store) => match tokio::time::timeout(READY_TIMEOUT, store.ping()).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("no answer within {READY_TIMEOUT:?}")),
        },
    };
    let stopping = *st.shutdown_signal().borrow();
    match (store, stopping) {
        (Ok(()), false) => (
            StatusCode::OK,
            Json(serde_json::json!({ "status": "ready", "store": "ok" })),
        ),
        (store, stopping) => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(serde_json::json!({
                "status": "unavailable",
                "store": store.err().unwrap_or_else(|| "ok".into()),
                "stopping": stopping,
            })),
        ),
    }
}

/// `GET /metrics`: Prometheus metrics (OpenMetrics text).
pub async fn metrics(State(st): State<AppState>) -> impl axum::response::IntoResponse {
    let m = crate::metrics::metrics();
    m.lobbies
        .set(i64::try_from(st.registry.len()).unwrap_or(i64::MAX));
    m.sockets
        .set(i64::try_from(st.open_sockets()).unwrap_or(i64::MAX));
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        m.render(),
    )
}
