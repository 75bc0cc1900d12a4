//! Routing in a cluster: an HTTP request for a lobby another node serves is
//! forwarded to that node and its answer passed back, so every node's API
//! works for every lobby (the owner's `GET /api/lobbies/{id}` names its own
//! URL in `node_url`). A WebSocket is not forwarded: one opened on the
//! wrong node is accepted and closed at once with 4010 and the owner's URL
//! as the reason, and the client reconnects there (docs/CLUSTER.md says
//! why: a forwarded socket would cost the wrong node a socket and a task
//! per player for the whole game, and a failure of either node would drop
//! it).

use super::Located;
use crate::error::Refusal;
use crate::http_limits::{CLUSTER_KEY, FORWARDED_CLIENT};
use crate::state::AppState;
use axum::body::Body;
use axum::extract::{ConnectInfo, OriginalUri, Request, State};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use catan_protocol::Code;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use std::net::SocketAddr;
use std::sync::OnceLock;
use uuid::Uuid;

/// Marks a request one node forwarded to another, so that it is never
/// forwarded twice (two nodes that disagree for a moment about the owner
/// would otherwise bounce it).
pub const FORWARDED_BY: HeaderName = HeaderName::from_static("x-catan-forwarded-by");

/// Headers a forwarded request keeps (everything a handler reads). The
/// client's address goes as the forwarding node found it, in
/// `http_limits::FORWARDED_CLIENT` with the cluster's key, so that the
/// owner's per-client limits count the client, not the forwarding node.
const KEPT: [&str; 4] = ["authorization", "content-type", "accept", "x-request-id"];

type HttpClient = Client<HttpConnector, Full<axum::body::Bytes>>;

/// Connections to one other node kept open for later forwards. A node's
/// death sends thousands of lookups to the survivors at once, half of them
/// forwarded to the other survivor; with hyper's defaults (no bound, 90 s)
/// every connection opened then stayed open, a descriptor at both ends,
/// 540-900 a node, and took the survivors to their open-file limit while a
/// killed node's clients came back (docs/PERFORMANCE.md, "Forwarding
/// connections"). Steady forwarding needs few: a request takes
/// milliseconds.
const IDLE_PER_NODE: usize = 16;
/// How long a kept connection may stay unused before it is closed.
const IDLE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

fn client() -> &'static HttpClient {
    static CLIENT: OnceLock<HttpClient> = OnceLock::new();
    CLIENT.get_or_init(|| {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        Client::builder(TokioExecutor::new())
            .pool_max_idle_per_host(IDLE_PER_NODE)
            .pool_idle_timeout(IDLE_TIMEOUT)
            .pool_timer(hyper_util::rt::TokioTimer::new())
            .build(connector)
    })
}

/// The lobby id of an API path `/api/lobbies/{id}[/...]`, unless it is the
/// WebSocket's path (the socket handler routes those itself).
fn lobby_of(path: &str) -> Option<Uuid> {
    let rest = path.strip_prefix("/api/lobbies/")?;
    let (id, tail) = rest.split_once('/').unwrap_or((rest, ""));
    if tail == "ws" {
        return None;
    }
    Uuid::parse_str(id).ok()
}

/// The refusal for a lobby that is moving between nodes (or whose lookups
/// are too many to wait): the client asks again in a moment.
pub fn moving() -> Refusal {
    Refusal::new(
        Code::LobbyMoved,
        "this lobby is moving to another server; try again in a moment",
    )
}

fn unreachable_owner() -> Response {
    Refusal::new(
        Code::LobbyMoved,
        "the server of this lobby cannot be reached; try again in a moment",
    )
    .into_response()
}

/// The middleware: forwards requests for lobbies another node serves,
/// takes over lobbies nobody serves, and lets everything else through.
pub async fn forward(State(st): State<AppState>, req: Request, next: Next) -> Response {
    let Some(cluster) = st.cluster.clone() else {
        return next.run(req).await;
    };
    let path = req
        .extensions()
        .get::<OriginalUri>()
        .map_or_else(|| req.uri().clone(), |o| o.0.clone());
    let Some(id) = lobby_of(path.path()) else {
        return next.run(req).await;
    };
    if st.registry.get(id).is_some() {
        return next.run(req).await;
    }
    match cluster.locate(id).await {
        Ok(Located::Here(_) | Located::Nowhere) => next.run(req).await,
        Ok(Located::Moving) => moving().into_response(),
        Ok(Located::There(url)) if req.headers().contains_key(&FORWARDED_BY) => {
            tracing::info!(lobby_id = %id, owner = %url, "forwarded request for a lobby not here");
            moving().into_response()
        }
        Ok(Located::There(url)) => forward_there(&st, &cluster, id, &url, req, next).await,
        Err(e) => {
            tracing::warn!(lobby_id = %id, error = %e, "cannot tell where the lobby is");
            Refusal::new(
                Code::StorageUnavailable,
                "cannot tell which server holds this lobby right now; try again",
            )
            .into_response()
        }
    }
}

/// Forwards a request for lobby `id` to its owner at `url`; when the owner
/// cannot be reached, waits for its lease and serves the lobby here if this
/// node takes it over, or forwards once to whichever node did.
async fn forward_there(
    st: &AppState,
    cluster: &super::Cluster,
    id: Uuid,
    url: &str,
    req: Request,
    next: Next,
) -> Response {
    let (parts, body) = req.into_parts();
    let tail = parts
        .extensions
        .get::<OriginalUri>()
        .map_or_else(|| parts.uri.clone(), |o| o.0.clone());
    let tail = tail.path_and_query().map_or("", |p| p.as_str()).to_string();
    let body = match axum::body::to_bytes(body, crate::MAX_BODY).await {
        Ok(b) => b,
        // Over the size limit, or the client went away.
        Err(e) => {
            return Refusal::new(Code::BadJson, format!("cannot read the body: {e}"))
                .into_response();
        }
    };
    let limit = st.config.http_timeout();
    let from = Forwarder {
        node: cluster.id(),
        key: cluster.key(),
        client: st.addresses.client_ip(
            &parts.headers,
            parts.extensions.get::<ConnectInfo<SocketAddr>>(),
        ),
    };
    let why = match proxy(&from, &format!("{url}{tail}"), &parts, body.clone(), limit).await {
        Ok(answer) => return answer,
        Err(why) => why,
    };
    tracing::warn!(lobby_id = %id, owner = %url, %why, "cannot forward to the lobby's node");
    // Its node may have died: wait for its lease and take the lobby over.
    match cluster.locate_unreachable(id, url).await {
        Ok(Located::Here(_)) => next.run(Request::from_parts(parts, Body::from(body))).await,
        Ok(Located::There(now)) if now != url => {
            proxy(&from, &format!("{now}{tail}"), &parts, body, limit)
                .await
                .unwrap_or_else(|_| unreachable_owner())
        }
        _ => unreachable_owner(),
    }
}

/// Who forwards a request, and for which client.
struct Forwarder<'a> {
    /// This node's id.
    node: &'a str,
    /// The cluster's key.
    key: &'a str,
    /// The client's address, as this node found it.
    client: Option<std::net::IpAddr>,
}

/// Sends the request (`parts` and `body`) to `target` and answers with its
/// response.
async fn proxy(
    from: &Forwarder<'_>,
    target: &str,
    parts: &axum::http::request::Parts,
    body: axum::body::Bytes,
    limit: std::time::Duration,
) -> Result<Response, String> {
    let mut out = hyper::Request::builder()
        .method(parts.method.clone())
        .uri(target);
    for name in KEPT {
        for v in parts.headers.get_all(name) {
            out = out.header(name, v);
        }
    }
    if let Some(ip) = from.client {
        out = out
            .header(&FORWARDED_CLIENT, ip.to_string())
            .header(&CLUSTER_KEY, from.key);
    }
    let me = HeaderValue::from_str(from.node).map_err(|e| e.to_string())?;
    let out = out
        .header(&FORWARDED_BY, me)
        .body(Full::new(body))
        .map_err(|e| e.to_string())?;
    let answer = tokio::time::timeout(limit, client().request(out))
        .await
        .map_err(|_| "no answer in time".to_string())?
        .map_err(|e| e.to_string())?;
    let (parts, body) = answer.into_parts();
    let bytes = tokio::time::timeout(limit, body.collect())
        .await
        .map_err(|_| "answer body not in time".to_string())?
        .map_err(|e| e.to_string())?
        .to_bytes();
    Ok(Response::from_parts(parts, Body::from(bytes)))
}

/// The close reason telling a client where its lobby lives (a WebSocket
/// close reason holds at most 123 bytes; a longer URL is left out, and the
/// client asks `GET /api/lobbies/{id}`).
pub fn moved_reason(url: &str) -> String {
    let reason = format!("moved to {url}");
    if reason.len() <= 123 {
        reason
    } else {
        "moved to another server; ask GET /api/lobbies/{id}".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lobby_paths_are_routed_but_not_sockets() {
        let id = Uuid::new_v4();
        assert_eq!(lobby_of(&format!("/api/lobbies/{id}")), Some(id));
        assert_eq!(lobby_of(&format!("/api/lobbies/{id}/join")), Some(id));
        assert_eq!(lobby_of(&format!("/api/lobbies/{id}/ws")), None);
        assert_eq!(lobby_of("/api/lobbies/not-a-uuid"), None);
        assert_eq!(lobby_of("/api/lobbies"), None);
        assert_eq!(lobby_of("/api/games/x"), None);
    }

    #[test]
    fn long_urls_leave_the_reason_short() {
        assert_eq!(moved_reason("http://b:1"), "moved to http://b:1");
        assert!(moved_reason(&"x".repeat(200)).len() <= 123);
    }
}
