//! Operating the server: readiness follows the store, logs written to a
//! file carry no colour codes, JSON logs are one object per line, and the
//! process keeps freed memory as long as its allocator setting says.

use crate::harness;

use harness::*;
use std::time::Duration;

async fn ready(addr: std::net::SocketAddr) -> (u16, serde_json::Value) {
    http(addr, "GET", "/readyz", None, None).await
}

/// `/readyz` is 503 while PostgreSQL refuses the server and 200 again once
/// it is back; `/healthz` (liveness) stays 200 throughout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_follows_the_store() {
    let mut db = TestDb::new(Backend::Postgres).await;
    let srv = start_in_process(&db).await;
    let (st, v) = ready(srv.addr).await;
    assert_eq!((st, v["status"].as_str()), (200, Some("ready")), "{v}");

    db.make_unavailable().await;
    let (st, v) = ready(srv.addr).await;
    assert_eq!(
        (st, v["status"].as_str()),
        (503, Some("unavailable")),
        "{v}"
    );
    let (st, _) = http(srv.addr, "GET", "/healthz", None, None).await;
    assert_eq!(st, 200);

    db.make_available().await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let (st, v) = ready(srv.addr).await;
        if st == 200 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "never ready again: {v}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The binary's log written to a file: plain text without ANSI escapes by
/// default, one JSON object per line with `--log-format json`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_in_files_are_plain_or_json() {
    let db = TestDb::new(Backend::Sqlite).await;
    let text = ServerProcess::start(&db, 1).await;
    let log = text.log_text();
    assert!(log.contains("listening"), "{log}");
    assert!(
        !log.contains('\u{1b}'),
        "colour codes in a log file: {log:?}"
    );
    text.kill();

    let json = ServerProcess::start_with(&db, 2, &[("CATAN_LOG_FORMAT", "json")]).await;
    let log = json.log_text();
    let lines: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(!lines.is_empty());
    for line in &lines {
        let v: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
        assert!(v["level"].is_string() && v["fields"].is_object(), "{line}");
    }
    assert!(lines.iter().any(|l| l.contains("listening")), "{log}");
}

/// The allocator setting a process was started with (its environment as
/// the kernel shows it).
fn purge_delay_of(pid: u32) -> Option<String> {
    let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap();
    environ
        .split(|b| *b == 0)
        .filter_map(|kv| std::str::from_utf8(kv).ok())
        .find_map(|kv| kv.strip_prefix("MIMALLOC_PURGE_DELAY="))
        .map(str::to_string)
}

/// A server started without mimalloc's purge delay runs itself again with
/// ten seconds, in the same process (docs/PERFORMANCE.md, "Freed memory
/// kept ten seconds"), and serves; an operator's own value is kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_allocator_keeps_freed_memory_ten_seconds_unless_told_otherwise() {
    let db = TestDb::new(Backend::Sqlite).await;
    // The harness clears the environment: nothing sets the delay.
    let plain = ServerProcess::start(&db, 1).await;
    assert_eq!(purge_delay_of(plain.pid()).as_deref(), Some("10000"));
    let (st, _) = http(plain.addr, "GET", "/api/lobbies", None, None).await;
    assert_eq!(st, 200);
    plain.kill();

    let own = ServerProcess::start_with(&db, 2, &[("MIMALLOC_PURGE_DELAY", "250")]).await;
    assert_eq!(purge_delay_of(own.pid()).as_deref(), Some("250"));
    own.kill();
}
