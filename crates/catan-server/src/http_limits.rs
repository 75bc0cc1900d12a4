//! Limits on plain HTTP requests: a deadline per request and a per-address
//! rate limit on the routes that change things (create, join, leave, bots,
//! start), so that no client can hold connections open or hammer the lobby
//! actors. The WebSocket's own limits live in `ws` and `ratelimit`.

use crate::config::Config;
use crate::error::Refusal;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use catan_protocol::Code;
use governor::middleware::NoOpMiddleware;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tower_governor::GovernorError;
use tower_governor::governor::{GovernorConfig, GovernorConfigBuilder};
use tower_governor::key_extractor::KeyExtractor;

/// The client's address: the first `X-Forwarded-For` entry when the server
/// trusts a proxy, else the TCP peer.
pub fn client_ip(
    headers: &HeaderMap,
    peer: Option<&ConnectInfo<SocketAddr>>,
    trust_forwarded_for: bool,
) -> Option<IpAddr> {
    if trust_forwarded_for
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

/// Keys the rate limit by client address, as [`client_ip`] finds it.
#[derive(Clone, Copy, Debug)]
pub struct ClientKey {
    trust_forwarded_for: bool,
}

impl KeyExtractor for ClientKey {
    type Key = IpAddr;

    fn extract<T>(&self, req: &axum::http::Request<T>) -> Result<IpAddr, GovernorError> {
        let peer = req.extensions().get::<ConnectInfo<SocketAddr>>();
        // A request without a known address (served without connect info)
        // shares one bucket with all such requests rather than escaping.
        Ok(client_ip(req.headers(), peer, self.trust_forwarded_for)
            .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED)))
    }
}

/// The rate limiter's shared state.
pub type PostLimiter = Arc<GovernorConfig<ClientKey, NoOpMiddleware>>;

/// The per-address limit on POST requests from the configuration:
/// [`Config::http_rate_burst`] at once, refilled at
/// [`Config::http_rate_per_sec`].
pub fn post_limiter(cfg: &Config) -> PostLimiter {
    // One request back every `1 / rate` seconds; at least one a day.
    let rate = cfg.http_rate_per_sec.max(1.0 / 86_400.0);
    let period_ns = (1e9 / rate).min(u64::MAX as f64) as u64;
    let built = GovernorConfigBuilder::default()
        .key_extractor(ClientKey {
            trust_forwarded_for: cfg.trust_forwarded_for,
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
