//! A small HTTP/1.1 JSON client over one kept-alive connection (hyper), used
//! to set up lobbies, poll `/healthz` and read saved game records.

use super::net;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper::{Method, Request};
use hyper_util::rt::TokioIo;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// How long one request may take before it counts as failed.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// One HTTP connection to the server.
pub struct HttpConn {
    sender: SendRequest<Full<Bytes>>,
    host: String,
}

/// A response: status and body.
#[derive(Debug)]
pub struct Response {
    /// HTTP status code.
    pub status: u16,
    /// The body bytes.
    pub body: Bytes,
}

impl Response {
    /// The body as JSON, when the status is 2xx.
    pub fn json<T: serde::de::DeserializeOwned>(&self, what: &str) -> Result<T, String> {
        if !(200..300).contains(&self.status) {
            return Err(format!(
                "{what}: HTTP {} {}",
                self.status,
                String::from_utf8_lossy(&self.body)
                    .chars()
                    .take(200)
                    .collect::<String>()
            ));
        }
        serde_json::from_slice(&self.body).map_err(|e| format!("{what}: bad JSON answer: {e}"))
    }
}

impl HttpConn {
    /// Connects to `server` from `source`.
    pub async fn connect(server: SocketAddr, source: Option<IpAddr>) -> Result<HttpConn, String> {
        let stream = net::connect(server, source)
            .await
            .map_err(|e| format!("connect {server}: {e}"))?;
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| format!("HTTP handshake with {server}: {e}"))?;
        // The connection future drives the socket; it ends when we drop `sender`.
        tokio::spawn(async move {
            let _ = conn.await;
        });
        Ok(HttpConn {
            sender,
            host: server.to_string(),
        })
    }

    /// Sends one request; `body` is sent as JSON, `bearer` as the
    /// `Authorization` header.
    pub async fn request(
        &mut self,
        method: Method,
        path: &str,
        bearer: Option<&str>,
        body: Option<&serde_json::Value>,
    ) -> Result<Response, String> {
        let mut req = Request::builder()
            .method(method.clone())
            .uri(path)
            .header("host", &self.host);
        if let Some(token) = bearer {
            req = req.header("authorization", format!("Bearer {token}"));
        }
        let bytes = match body {
            Some(v) => {
                req = req.header("content-type", "application/json");
                Bytes::from(v.to_string())
            }
            None => Bytes::new(),
        };
        let req = req
            .body(Full::new(bytes))
            .map_err(|e| format!("{method} {path}: {e}"))?;
        let work = async {
            self.sender
                .ready()
                .await
                .map_err(|e| format!("{method} {path}: connection lost: {e}"))?;
            let resp = self
                .sender
                .send_request(req)
                .await
                .map_err(|e| format!("{method} {path}: {e}"))?;
            let status = resp.status().as_u16();
            let body = resp
                .into_body()
                .collect()
                .await
                .map_err(|e| format!("{method} {path}: reading the body: {e}"))?
                .to_bytes();
            Ok(Response { status, body })
        };
        tokio::time::timeout(REQUEST_TIMEOUT, work)
            .await
            .map_err(|_| format!("{method} {path}: no answer in {REQUEST_TIMEOUT:?}"))?
    }
}
