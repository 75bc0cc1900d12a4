//! `GET /metrics` counts what happened: lobbies and sockets now, accepted
//! actions by who acted, journal latency, refusals by code and channel, and
//! (on a server with a real store) the group-commit batch sizes.
//! (One test in its own binary: the metrics are process-wide.)

#[path = "server/common/mod.rs"]
mod common;

use common::*;
use serde_json::json;

/// The value of the first sample line starting with `name` (labels
/// included in `name`).
fn sample(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(name) && l[name.len()..].starts_with(' '))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

async fn scrape(addr: std::net::SocketAddr) -> String {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    s.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8(buf).unwrap();
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(text.contains("application/openmetrics-text"), "{text}");
    text
}

#[tokio::test]
async fn metrics_count_what_happens() {
    let srv = start(test_config()).await;
    let (lobby, tokens) = started_people_only(srv.addr, 3).await;
    let mut c = Client::connect(srv.addr, &lobby.id, Some(&tokens[0])).await;
    let snap = c.until("snapshot").await;
    let active = snap["view"]["active"].as_u64().unwrap() as usize;
    c.close().await;
    let mut me = Client::connect(srv.addr, &lobby.id, Some(&tokens[active])).await;
    me.until("snapshot").await;
    let a = me.legal[0].clone();
    me.send(json!({ "type": "action", "id": "old", "version": 99, "action": a }))
        .await;
    assert_eq!(me.reply("old").await["code"], "stale_version");
    let id = me.act(a).await;
    assert_eq!(me.reply(&id).await["type"], "accepted");
    let (st, _) = http(srv.addr, "GET", "/api/lobbies/nope", None, None).await;
    assert_eq!(st, 404);

    let text = scrape(srv.addr).await;
    assert_eq!(sample(&text, "catan_lobbies"), Some(1.0), "{text}");
    assert_eq!(sample(&text, "catan_sockets"), Some(1.0), "{text}");
    assert_eq!(
        sample(&text, "catan_actions_total{by=\"player\"}"),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        sample(
            &text,
            "catan_refusals_total{code=\"stale_version\",via=\"ws\"}"
        ),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        sample(
            &text,
            "catan_refusals_total{code=\"lobby_not_found\",via=\"http\"}"
        ),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "catan_journal_append_seconds_count"),
        Some(1.0),
        "{text}"
    );
    for name in [
        "catan_slow_consumer_kicks_total",
        "catan_write_timeouts_total",
        "catan_lobby_panics_total",
        "catan_journal_failures_total",
        // The memory journal writes no batches.
        "catan_journal_batch_actions_count",
    ] {
        assert_eq!(sample(&text, name), Some(0.0), "{name}: {text}");
    }

    // A server on a real store (an SQLite file): its group-commit writer
    // reports each committed batch's size.
    let dir = std::env::temp_dir().join(format!("catan_metrics_{}", uuid::Uuid::new_v4()));
    let config = catan_server::Config {
        data_dir: dir.clone(),
        database_url: None,
        ..test_config()
    };
    let (state, _) = catan_server::persist::persistent_state(config)
        .await
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(catan_server::serve(listener, state, std::future::pending()));
    let (lobby, tokens) = started_people_only(addr, 3).await;
    let mut c = Client::connect(addr, &lobby.id, Some(&tokens[0])).await;
    let snap = c.until("snapshot").await;
    let active = snap["view"]["active"].as_u64().unwrap() as usize;
    c.close().await;
    let mut me = Client::connect(addr, &lobby.id, Some(&tokens[active])).await;
    me.until("snapshot").await;
    let a = me.legal[0].clone();
    let id = me.act(a).await;
    assert_eq!(me.reply(&id).await["type"], "accepted");
    let text = scrape(addr).await;
    assert_eq!(
        sample(&text, "catan_journal_batch_actions_count"),
        Some(1.0),
        "one batch: {text}"
    );
    assert_eq!(
        sample(&text, "catan_journal_batch_actions_sum"),
        Some(1.0),
        "of one action: {text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
