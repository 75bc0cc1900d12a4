//! The HTTP JSON API: lobbies, seats, bots, start, errors and limits in
//! process (`oneshot`, no socket needed); cleanup, static files, Origin,
//! shutdown and stalled requests over a real socket.

use crate::common;

use common::*;
use serde_json::json;
use std::time::Duration;

#[tokio::test]
async fn lobby_lifecycle_and_errors() {
    let srv = start(test_config()).await;
    let a = &srv.state;
    let (s, v) = http(a, "GET", "/healthz", None, None).await;
    assert_eq!((s, v["status"].as_str()), (200, Some("ok")));

    let public = create_lobby(a, json!({ "name": "Open", "options": { "players": 3 } })).await;
    let private = create_lobby(a, json!({ "name": "Secret", "public": false })).await;
    let (_, list) = http(a, "GET", "/api/lobbies", None, None).await;
    let ids: Vec<&str> = list["lobbies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&public.id.as_str()));
    assert!(
        !ids.contains(&private.id.as_str()),
        "private lobbies are not listed"
    );
    // A private lobby is reachable by its id.
    let (s, v) = http(
        a,
        "GET",
        &format!("/api/lobbies/{}", private.id),
        None,
        None,
    )
    .await;
    assert_eq!((s, v["public"].as_bool()), (200, Some(false)));
    assert_eq!(v["seats"].as_array().unwrap().len(), 4);

    let (s, v) = http(a, "GET", "/api/lobbies/not-a-uuid", None, None).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (404, Some("lobby_not_found"))
    );
    // Where a lobby's socket lives: on a single server, here (no node
    // named); no lobby, no answer.
    let (s, v) = http(
        a,
        "GET",
        &format!("/api/lobbies/{}/node", private.id),
        None,
        None,
    )
    .await;
    assert_eq!((s, &v), (200, &json!({})));
    for id in ["not-a-uuid", "00000000-0000-0000-0000-000000000000"] {
        let (s, v) = http(a, "GET", &format!("/api/lobbies/{id}/node"), None, None).await;
        assert_eq!(
            (s, v["error"]["code"].as_str()),
            (404, Some("lobby_not_found")),
            "{id}"
        );
    }
    let (s, v) = http(
        a,
        "POST",
        "/api/lobbies",
        None,
        Some(json!({ "name": "x", "options": { "players": 7 } })),
    )
    .await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (400, Some("invalid_options"))
    );
    let (s, v) = http(a, "POST", "/api/lobbies", None, Some(json!({ "nom": 1 }))).await;
    assert_eq!((s, v["error"]["code"].as_str()), (400, Some("bad_json")));

    let path = |p: &str| format!("/api/lobbies/{}/{p}", public.id);
    let (s0, t0) = join(a, &public, "Ann").await;
    assert_eq!(s0, 0);
    assert_eq!(t0.len(), 64);
    let (s, v) = http(
        a,
        "POST",
        &path("join"),
        None,
        Some(json!({ "name": "Bob", "seat": 0 })),
    )
    .await;
    assert_eq!((s, v["error"]["code"].as_str()), (409, Some("seat_taken")));
    let (s, v) = http(
        a,
        "POST",
        &path("join"),
        None,
        Some(json!({ "name": "  " })),
    )
    .await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (400, Some("invalid_name"))
    );

    // Host-only operations.
    let (s, v) = http(a, "POST", &path("bots"), None, Some(json!({}))).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (401, Some("token_required"))
    );
    let (s, v) = http(a, "POST", &path("bots"), Some(&t0), Some(json!({}))).await;
    assert_eq!((s, v["error"]["code"].as_str()), (403, Some("not_host")));
    let (s, v) = http(a, "POST", &path("start"), Some(&public.host), None).await;
    assert_eq!((s, v["error"]["code"].as_str()), (409, Some("not_ready")));
    let b1 = add_bot(a, &public, "heuristic").await;
    let (s, v) = http(
        a,
        "DELETE",
        &path(&format!("bots/{b1}")),
        Some(&public.host),
        None,
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["lobby"]["seats_taken"], 1);
    let (s, v) = http(a, "DELETE", &path("bots/0"), Some(&public.host), None).await;
    assert_eq!((s, v["error"]["code"].as_str()), (409, Some("not_a_bot")));

    // Leaving frees the seat before the start.
    let (s, v) = http(a, "POST", &path("leave"), Some(&t0), None).await;
    assert_eq!((s, v["lobby"]["seats_taken"].as_u64()), (200, Some(0)));
    let (s, _) = http(a, "POST", &path("leave"), Some(&t0), None).await;
    assert_eq!(s, 401);

    let (_, t) = join(a, &public, "Cy").await;
    add_bot(a, &public, "random").await;
    add_bot(a, &public, "random").await;
    let (s, _) = http(
        a,
        "POST",
        &path("join"),
        None,
        Some(json!({ "name": "Late" })),
    )
    .await;
    assert_eq!(s, 409);
    start_game(a, &public).await;
    let (s, v) = http(a, "POST", &path("start"), Some(&public.host), None).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (409, Some("already_started"))
    );
    let (_, v) = http(a, "GET", &format!("/api/lobbies/{}", public.id), None, None).await;
    assert_eq!(v["status"], "playing");
    // Leaving a running game hands the seat to a bot.
    let (s, v) = http(a, "POST", &path("leave"), Some(&t), None).await;
    assert_eq!(s, 200, "{v}");
    assert!(
        v["lobby"]["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["kind"] == "bot")
    );
}

#[tokio::test]
async fn lobbies_per_client_are_limited() {
    let cfg = catan_server::Config {
        max_lobbies_per_client: 2,
        ..test_config()
    };
    let srv = start(cfg).await;
    let a = &srv.state;
    create_lobby(a, json!({ "name": "1" })).await;
    create_lobby(a, json!({ "name": "2" })).await;
    let (s, v) = http(
        a,
        "POST",
        "/api/lobbies",
        None,
        Some(json!({ "name": "3" })),
    )
    .await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (429, Some("too_many_lobbies"))
    );
}

#[tokio::test]
async fn idle_lobbies_are_cleaned_up() {
    let idle = Duration::from_millis(100);
    let cfg = catan_server::Config {
        lobby_idle_ms: idle.as_millis() as u64,
        ..test_config()
    };
    let srv = start(cfg).await;
    let status = |id: String| async move {
        http(srv.addr, "GET", &format!("/api/lobbies/{id}"), None, None)
            .await
            .0
    };
    // A waiting room with somebody connected stays past the idle time.
    let (l, c) = watched_lobby(srv.addr, idle).await;
    tokio::time::sleep(idle * 3).await;
    assert_eq!(status(l.id.clone()).await, 200);
    // Once they leave, it is closed (waited for, not slept on: a loaded
    // machine may run the lobby's timer late).
    c.close().await;
    let give_up = tokio::time::Instant::now() + WAIT;
    while status(l.id.clone()).await != 404 {
        assert!(tokio::time::Instant::now() < give_up, "never closed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(srv.state.registry.is_empty());
}

#[tokio::test]
async fn a_waiting_room_keeps_its_own_idle_time_whatever_a_game_s_is() {
    // Running games are unloaded at once; waiting rooms keep the default
    // (ten minutes): friends on their way still find the room.
    let cfg = catan_server::Config {
        game_unload_ms: 1,
        ..test_config()
    };
    let srv = start(cfg).await;
    let l = create_lobby(srv.addr, json!({ "name": "patient" })).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (s, v) = http(
        srv.addr,
        "GET",
        &format!("/api/lobbies/{}", l.id),
        None,
        None,
    )
    .await;
    assert_eq!((s, v["status"].as_str()), (200, Some("waiting")), "{v}");
}

/// A new lobby with a spectator connected. With a short idle time a loaded
/// machine may connect only after the empty room was rightly closed; that
/// is told apart from a room closed too soon by the time since the request
/// to create it (the room cannot be older), and then tried again.
async fn watched_lobby(addr: std::net::SocketAddr, idle: Duration) -> (Lobby, Client) {
    for _ in 0..20 {
        let asked = tokio::time::Instant::now();
        let l = create_lobby(addr, json!({ "name": "idle" })).await;
        match Client::try_watch(addr, &l.id).await {
            Some(c) => return (l, c),
            None => assert!(
                asked.elapsed() >= idle,
                "the lobby was closed before its idle time"
            ),
        }
    }
    panic!("never connected to a lobby within its idle time");
}

#[tokio::test]
async fn static_files_are_served() {
    let dir = std::env::temp_dir().join(format!("catan-static-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<h1>catan</h1>").unwrap();
    let cfg = catan_server::Config {
        static_dir: dir.clone(),
        ..test_config()
    };
    let srv = start(cfg).await;
    let mut s = tokio::net::TcpStream::connect(srv.addr).await.unwrap();
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    assert!(out.starts_with("HTTP/1.1 200"), "{out}");
    assert!(out.contains("<h1>catan</h1>"));
    assert!(out.to_ascii_lowercase().contains("x-request-id"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn origin_check_refuses_foreign_pages() {
    let cfg = catan_server::Config {
        allowed_origins: vec!["https://catan.example".into()],
        ..test_config()
    };
    let srv = start(cfg).await;
    let l = create_lobby(srv.addr, json!({ "name": "o" })).await;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let url = format!("ws://{}/api/lobbies/{}/ws", srv.addr, l.id);
    let mut req = url.clone().into_client_request().unwrap();
    req.headers_mut()
        .insert("origin", "https://evil.example".parse().unwrap());
    let err = tokio_tungstenite::connect_async(req).await.unwrap_err();
    assert!(err.to_string().contains("403"), "{err}");
    let mut req = url.into_client_request().unwrap();
    req.headers_mut()
        .insert("origin", "https://catan.example".parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_ok());
}

#[tokio::test]
async fn shutdown_closes_sockets_with_a_reason() {
    let srv = start(test_config()).await;
    let l = create_lobby(srv.addr, json!({ "name": "bye" })).await;
    let mut c = Client::connect(srv.addr, &l.id, None).await;
    c.until("welcome").await;
    srv.state.begin_shutdown();
    assert_eq!(
        c.until_closed().await,
        Closed::Frame(1001, "server shutting down".into())
    );
}

/// HTTP bodies follow the WebSocket's policy: unknown fields at any depth
/// and arrays where an object is documented are `bad_json`, and nothing is
/// created (before, `"options": [4]` made a lobby).
#[tokio::test]
async fn http_bodies_refuse_stray_fields_and_arrays() {
    let srv = start(test_config()).await;
    let a = &srv.state;
    for body in [
        json!({ "name": "x", "options": [4] }),
        json!({ "name": "x", "options": { "players": 4, "speed": 2 } }),
        json!({ "name": "x", "turn_timer": [true, 60] }),
        json!({ "name": "x", "turn_timer": { "enabled": true, "seconds": 60, "x": 1 } }),
        json!([{ "name": "x" }]),
    ] {
        let (s, v) = http(a, "POST", "/api/lobbies", None, Some(body.clone())).await;
        assert_eq!(
            (s, v["error"]["code"].as_str()),
            (400, Some("bad_json")),
            "{body}"
        );
    }
    let (_, list) = http(a, "GET", "/api/lobbies", None, None).await;
    assert_eq!(list["lobbies"].as_array().unwrap().len(), 0);

    let lobby = create_lobby(a, json!({ "name": "ok" })).await;
    let path = format!("/api/lobbies/{}/join", lobby.id);
    let (s, v) = http(
        a,
        "POST",
        &path,
        None,
        Some(json!({ "name": "Ann", "seat": [0] })),
    )
    .await;
    assert_eq!((s, v["error"]["code"].as_str()), (400, Some("bad_json")));
    let (s, _) = http(
        a,
        "POST",
        &path,
        None,
        Some(json!({ "name": "Ann", "seat": null })),
    )
    .await;
    assert_eq!(s, 200);
}

/// POST routes are rate limited per client address (burst, then refill),
/// answered with `rate_limited` in the API's error shape and a Retry-After;
/// reading is not limited, and nothing was done for a refused request.
#[tokio::test]
async fn post_routes_are_rate_limited_per_address() {
    let cfg = catan_server::Config {
        http_rate_burst: 3,
        // One request back every 100 s: the test cannot be slow enough to
        // earn one.
        http_rate_per_sec: 0.01,
        ..test_config()
    };
    let srv = start(cfg).await;
    let a = &srv.state;
    let lobby = create_lobby(a, json!({ "name": "busy" })).await;
    let path = format!("/api/lobbies/{}/join", lobby.id);
    let (s, _) = http(a, "POST", &path, None, Some(json!({ "name": "A" }))).await;
    assert_eq!(s, 200);
    let (s, _) = http(a, "POST", &path, None, Some(json!({ "name": "B" }))).await;
    assert_eq!(s, 200);
    let (s, v) = http(a, "POST", &path, None, Some(json!({ "name": "C" }))).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (429, Some("rate_limited")),
        "{v}"
    );
    let (s, info) = http(a, "GET", &format!("/api/lobbies/{}", lobby.id), None, None).await;
    assert_eq!(s, 200);
    assert_eq!(info["seats_taken"], 2, "the refused join seated nobody");
    for _ in 0..10 {
        let (s, _) = http(a, "GET", "/api/lobbies", None, None).await;
        assert_eq!(s, 200);
    }
}

/// A request whose body never finishes arriving is answered with
/// `request_timeout` (408) after the configured time, instead of holding
/// its connection and task for as long as the client likes.
#[tokio::test]
async fn a_stalled_request_times_out() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let cfg = catan_server::Config {
        http_timeout_ms: 300,
        ..test_config()
    };
    let srv = start(cfg).await;
    let mut s = tokio::net::TcpStream::connect(srv.addr).await.unwrap();
    let head = "POST /api/lobbies HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"name\":";
    s.write_all(head.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(WAIT, s.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "the server kept waiting for the body");
    let text = String::from_utf8_lossy(&buf);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("request_timeout"), "{text}");
}
