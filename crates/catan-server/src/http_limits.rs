//! Limits on plain HTTP requests: a deadline per request and a per-address
//! rate limit on the routes that change things (create, join, leave, bots,
//! start), so that no client can hold connections open or hammer the lobby
//! actors. The WebSocket's own limits live in `ws` and `ratelimit`.

use crate::config::Config;
use crate::error::Refusal;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderMap, HeaderName, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use catan_protocol::Code;
use governor::middleware::NoOpMiddleware;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tower_governor::GovernorError;
use tower_governor::governor::{GovernorConfig, GovernorConfigBuilder};
use tower_governor::key_extractor::KeyExtractor;

/// The header in which a node forwarding a request to another names the
/// client's address (as the forwarding node found it).
pub const FORWARDED_CLIENT: HeaderName = HeaderName::from_static("x-catan-client");
/// The header with which a forwarding node proves it is a node of the
/// cluster: the cluster's shared key (`catan_store::Store::cluster_key`).
pub const CLUSTER_KEY: HeaderName = HeaderName::from_static("x-catan-cluster-key");

/// How the server finds a request's client address, for the per-client
/// limits. Cheap to clone; clones share what [`Addresses::trust_nodes`]
/// sets.
#[derive(Clone, Debug, Default)]
pub struct Addresses {
    trust_forwarded_for: bool,
    cluster_key: Arc<OnceLock<String>>,
}

impl Addresses {
    /// Addresses from the TCP peer, or from the first `X-Forwarded-For`
    /// entry when `trust_forwarded_for` (behind a trusted proxy).
    pub fn new(trust_forwarded_for: bool) -> Addresses {
        Addresses {
            trust_forwarded_for,
            cluster_key: Arc::default(),
        }
    }

    /// From now on, believe the client address a request names in
    /// [`FORWARDED_CLIENT`] when it carries `key` in [`CLUSTER_KEY`]: it
    /// was forwarded by another node of the cluster, and its TCP peer is
    /// that node, not the client. (Set once; a second key is ignored.)
    pub fn trust_nodes(&self, key: String) {
        let _ = self.cluster_key.set(key);
    }

    /// The cluster key to send with forwarded requests, once known.
    pub fn cluster_key(&self) -> Option<&str> {
        self.cluster_key.get().map(String::as_str)
    }

    /// The client's address: the one a node of the cluster names, else the
    /// first `X-Forwarded-For` entry when the server trusts a proxy, else
    /// the TCP peer.
    pub fn client_ip(
        &self,
        headers: &HeaderMap,
        peer: Option<&ConnectInfo<SocketAddr>>,
    ) -> Option<IpAddr> {
        if let Some(key) = self.cluster_key.get()
            && headers
                .get(&CLUSTER_KEY)
                .is_some_and(|sent| same_secret(sent.as_bytes(), key.as_bytes()))
            && let Some(ip) = headers
                .get(&FORWARDED_CLIENT)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse().ok())
        {
            return Some(ip);
        }
        if self.trust_forwarded_for
            && let Some(ip) = headers
                .get("x-forwarded-for")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(',').next())
                .and_then(|v| v.trim().parse().ok())
        {
            return Some(ip);
        }
        peer.map(|c| c.0.ip())
    }
}

/// Whether two secrets are equal, in time that does not depend on where
/// they first differ (a guess cannot be refined byte by byte).
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// Keys the rate limit by client address, as [`Addresses`] finds it.
#[derive(Clone, Debug)]
pub struct ClientKey {
    addresses: Addresses,
}

impl KeyExtractor for ClientKey {
    type Key = IpAddr;

    fn extract<T>(&self, req: &axum::http::Request<T>) -> Result<IpAddr, GovernorError> {
        let peer = req.extensions().get::<ConnectInfo<SocketAddr>>();
        // A request without a known address (served without connect info)
        // shares one bucket with all such requests rather than escaping.
        Ok(self
            .addresses
            .client_ip(req.headers(), peer)
            .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED)))
    }
}

/// The rate limiter's shared state.
pub type PostLimiter = Arc<GovernorConfig<ClientKey, NoOpMiddleware>>;

/// The per-address limit on POST requests from the configuration:
/// [`Config::http_rate_burst`] at once, refilled at
/// [`Config::http_rate_per_sec`].
pub fn post_limiter(cfg: &Config, addresses: &Addresses) -> PostLimiter {
    // One request back every `1 / rate` seconds; at least one a day.
    let rate = cfg.http_rate_per_sec.max(1.0 / 86_400.0);
    let period_ns = (1e9 / rate).min(u64::MAX as f64) as u64;
    let built = GovernorConfigBuilder::default()
        .key_extractor(ClientKey {
            addresses: addresses.clone(),
        })
        .per_nanosecond(period_ns.max(1))
        .burst_size(cfg.http_rate_burst.max(1))
        .methods(vec![Method::POST])
        .finish();
    // `finish` refuses only a zero period or burst, both excluded above.
    Arc::new(built.unwrap_or_else(|| panic!("rate limit settings out of range")))
}

/// The layer that applies [`post_limiter`], answering in the API's own
/// error shape (`rate_limited`, 429, with `Retry-After`).
pub fn post_limit_layer(
    limiter: &PostLimiter,
) -> tower_governor::GovernorLayer<ClientKey, NoOpMiddleware, Body> {
    tower_governor::GovernorLayer::new(limiter.clone()).error_handler(|e| match e {
        GovernorError::TooManyRequests { wait_time, .. } => {
            let mut r = Refusal::new(
                Code::RateLimited,
                format!("too many requests from your address; try again in {wait_time} s"),
            )
            .into_response();
            if let Ok(v) = wait_time.to_string().parse() {
                r.headers_mut().insert("retry-after", v);
            }
            r
        }
        other => Refusal::new(Code::Internal, other.to_string()).into_response(),
    })
}

/// Drops the limiter's memory of addresses that have been quiet, so that
/// many one-off clients cannot grow it without end.
pub async fn forget_quiet_clients(limiter: PostLimiter) {
    let mut tick = tokio::time::interval(Duration::from_secs(60));
    loop {
        tick.tick().await;
        limiter.limiter().retain_recent();
        limiter.limiter().shrink_to_fit();
    }
}

/// Answers a request that takes longer than the configured deadline (slow
/// body included) with `request_timeout` (408).
pub async fn deadline(limit: Duration, req: Request, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(r) => r,
        Err(_) => Refusal::new(
            Code::RequestTimeout,
            "the request took too long to arrive; send it again",
        )
        .into_response(),
    }
}
