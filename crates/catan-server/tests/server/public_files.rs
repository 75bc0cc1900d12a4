//! The server serves only the front end's public files (`web/public/`), not
//! the browser tests, npm files or node modules beside them in `web/`, and
//! tells pages through `GET /api/config` whether their test hooks may run.

use crate::common;

use common::{http, start, test_config};
use std::net::SocketAddr;
use std::path::PathBuf;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The repository's `web/` directory (tests run in the crate's directory).
fn web_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web")
}

/// The status line and body of a plain GET (not JSON, unlike `http`).
async fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

/// A server whose static directory is the default's, resolved from the
/// repository root (where `cargo run` and the Dockerfile start it).
async fn server(test_hooks: bool) -> common::Server {
    let default = catan_server::Config::default().static_dir;
    start(catan_server::Config {
        static_dir: PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(default),
        test_hooks,
        ..test_config()
    })
    .await
}

#[tokio::test]
async fn only_the_public_files_are_served() {
    // The files that must not be served exist in the repository, so a
    // 404 below means "not served", not "not there".
    let web = web_dir();
    assert!(web.join("package.json").is_file());
    assert!(web.join("tests/table.spec.js").is_file());
    assert!(web.join("playwright.config.js").is_file());

    let srv = server(false).await;
    let (status, body) = get(srv.addr, "/").await;
    assert_eq!(status, 200);
    assert!(body.contains("<html"), "{body}");
    let (status, body) = get(srv.addr, "/js/game-page.js").await;
    assert_eq!(status, 200);
    assert!(body.contains("import"), "{body}");
    for path in [
        "/package.json",
        "/package-lock.json",
        "/playwright.config.js",
        "/tests/table.spec.js",
        "/tests/helpers.js",
        "/node_modules/@playwright/test/package.json",
        "/node_modules/.package-lock.json",
        "/public/index.html",
        "/../package.json",
        "/%2e%2e/package.json",
    ] {
        let (status, _) = get(srv.addr, path).await;
        assert_eq!(status, 404, "{path} must not be served");
    }
}

#[tokio::test]
async fn pages_learn_whether_test_hooks_may_run() {
    let srv = server(false).await;
    let (status, v) = http(srv.addr, "GET", "/api/config", None, None).await;
    assert_eq!(status, 200);
    assert_eq!(v["test_hooks"], false, "{v}");

    let srv = server(true).await;
    let (_, v) = http(srv.addr, "GET", "/api/config", None, None).await;
    assert_eq!(v["test_hooks"], true, "{v}");
}

#[test]
fn the_test_hooks_switch_is_a_flag() {
    use clap::Parser;
    let on = catan_server::Config::try_parse_from(["catan-server", "--test-hooks"]).unwrap();
    assert!(on.test_hooks);
    assert!(!catan_server::Config::default().test_hooks);
}
