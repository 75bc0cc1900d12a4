//! End-to-end runs of `catan loadtest` against the real `catan-server`
//! binary on a fresh SQLite file: a small load with a mid-run SIGKILL and
//! restart (the fault run), and the refusal of non-loopback targets.
//! (`catan loadtest` is the `loadtest` feature of catan-cli.)

#![cfg(feature = "loadtest")]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `catan-server` binary the test drives: `CATAN_LOADTEST_SERVER` when
/// set (`scripts/test.sh` passes the one its build of the tests made: a
/// `cargo build` here resolves other features for the shared dependencies
/// than the test build did and recompiled tokio, sqlx and the workspace,
/// minutes inside the test run), else the one next to `catan`, built (or
/// brought up to date) with cargo so the test always drives the current
/// server.
fn server_binary() -> PathBuf {
    if let Some(given) = std::env::var_os("CATAN_LOADTEST_SERVER") {
        let server = PathBuf::from(given);
        assert!(
            server.exists(),
            "CATAN_LOADTEST_SERVER {} missing",
            server.display()
        );
        return server;
    }
    let catan = PathBuf::from(env!("CARGO_BIN_EXE_catan"));
    let dir = catan.parent().unwrap().to_path_buf();
    let profile_release = dir.ends_with("release");
    let mut cmd = Command::new(option_env!("CARGO").unwrap_or("cargo"));
    cmd.args(["build", "-q", "--workspace", "--bins", "--all-features"]);
    if profile_release {
        cmd.arg("--release");
    }
    let status = cmd.status().expect("cargo runs");
    assert!(status.success(), "building catan-server failed");
    let server = dir.join("catan-server");
    assert!(server.exists(), "{} missing", server.display());
    server
}

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("catan-loadtest-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn fault_run_reconnects_and_the_log_check_finds_nothing_lost() {
    let server = server_binary();
    let dir = tempdir("fault");
    let out = dir.join("summary.json");
    let db = format!("sqlite://{}/fault.db?mode=rwc", dir.display());
    let run = Command::new(env!("CARGO_BIN_EXE_catan"))
        .args(["loadtest", "--url"])
        .arg(format!("http://127.0.0.1:{}", free_port()))
        .arg("--spawn-server")
        .arg(&server)
        .args(["--database-url", &db])
        .args(["--games", "3", "--duration", "4s", "--pace-ms", "150"])
        .args(["--kill-after", "1500ms", "--report-every", "1s"])
        .args(["--source-ips", "127.0.0.1,127.0.0.2"])
        .arg("--server-log")
        .arg(dir.join("server.log"))
        .arg("--json")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "loadtest failed: {stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let s = json(&out);
    assert_eq!(s["games_ready"], 3, "{stdout}");
    assert_eq!(s["sockets_expected"], 15);
    assert_eq!(
        s["sockets_held"], 15,
        "every socket is back after the restart"
    );
    assert!(s["actions_accepted"].as_u64().unwrap() > 10, "{stdout}");
    assert!(s["latency"]["count"].as_u64().unwrap() > 0);
    assert!(s["reconnects"].as_u64().unwrap() >= 15, "{stdout}");
    assert!(s["fault"]["sockets_back_secs"].is_number(), "{stdout}");
    let check = &s["check"];
    assert_eq!(check["games_checked"], 3, "{stdout}");
    assert_eq!(check["lost"], 0);
    assert_eq!(check["duplicated"], 0);
    assert_eq!(check["unexplained"], 0);
    assert!(check["actions_confirmed"].as_u64().unwrap() > 10);
    assert!(stdout.contains("PASS"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn refuses_targets_that_are_not_loopback() {
    for args in [
        vec!["--url", "http://192.0.2.1:8080"],
        vec!["--source-ips", "192.0.2.7"],
    ] {
        let run = Command::new(env!("CARGO_BIN_EXE_catan"))
            .arg("loadtest")
            .args(&args)
            .args(["--games", "1", "--duration", "1s", "--no-check"])
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(err.contains("loopback"), "{err}");
    }
}
