//! The tests' HTTP client, shared by both harnesses: one request to a server
//! over a real socket (hyper's HTTP/1.1 client), or to the application in
//! process through `tower::ServiceExt::oneshot` where no socket is needed.

use catan_server::AppState;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Method, Request};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use std::net::SocketAddr;
use tokio::net::TcpStream;
use tower::ServiceExt;

/// The address the in-process application believes each request came from
/// (its per-client limits key on it).
const IN_PROCESS_PEER: ([u8; 4], u16) = ([127, 0, 0, 1], 40_000);

/// Something the tests send HTTP requests to: a server's address, or an
/// application state served in process.
#[allow(async_fn_in_trait)]
pub trait Http: Copy {
    /// One request; returns the status and the JSON body (Null if not JSON).
    async fn request(self, req: Request<Full<Bytes>>) -> (u16, Value);
}

impl Http for SocketAddr {
    async fn request(self, req: Request<Full<Bytes>>) -> (u16, Value) {
        over(TcpStream::connect(self).await.expect("connect"), req).await
    }
}

/// A server's address reached from a given local address (a loopback
/// alias such as 127.0.0.2), so that the server sees a client of its own.
#[derive(Clone, Copy, Debug)]
#[allow(dead_code)]
pub struct Via {
    /// The local address to send from.
    pub from: std::net::IpAddr,
    /// The server.
    pub to: SocketAddr,
}

impl Http for Via {
    async fn request(self, req: Request<Full<Bytes>>) -> (u16, Value) {
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket.bind(SocketAddr::new(self.from, 0)).expect("bind");
        over(socket.connect(self.to).await.expect("connect"), req).await
    }
}

/// One request over a connected stream.
async fn over(stream: TcpStream, req: Request<Full<Bytes>>) -> (u16, Value) {
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("HTTP handshake");
    tokio::spawn(conn);
    let res = sender.send_request(req).await.expect("HTTP response");
    let status = res.status().as_u16();
    let body = res.into_body().collect().await.expect("body").to_bytes();
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

impl Http for &AppState {
    async fn request(self, mut req: Request<Full<Bytes>>) -> (u16, Value) {
        req.extensions_mut()
            .insert(axum::extract::ConnectInfo(SocketAddr::from(
                IN_PROCESS_PEER,
            )));
        let res = catan_server::app(self.clone())
            .oneshot(req.map(axum::body::Body::new))
            .await
            .expect("the router is infallible");
        let status = res.status().as_u16();
        let body = res.into_body().collect().await.expect("body").to_bytes();
        (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
    }
}

/// One request with an optional bearer token and JSON body.
pub async fn http(
    to: impl Http,
    method: &str,
    path: &str,
    bearer: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let auth = bearer.map(|t| format!("Bearer {t}"));
    let headers: Vec<(&str, &str)> = auth.iter().map(|a| ("authorization", a.as_str())).collect();
    http_with(to, method, path, &headers, body).await
}

/// [`http`] with extra request headers.
pub async fn http_with(
    to: impl Http,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> (u16, Value) {
    let method = Method::from_bytes(method.as_bytes()).expect("method");
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header("host", "127.0.0.1")
        .header("content-type", "application/json");
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    to.request(req.body(Full::new(Bytes::from(body))).expect("request"))
        .await
}
