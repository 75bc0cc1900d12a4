//! The file guard of a cluster node (docs/CLUSTER.md, "Limits"), with real
//! processes: a node started under a small open-file limit takes over only
//! as many of a killed node's lobbies as it has the files for, answers
//! `lobby_moved` for the others (its clients ask again, as they do while a
//! lobby moves), and a node with room takes the rest. Before the guard, a
//! survivor took every orphan it was asked for, ran out of files and could
//! accept no connection any more.

use crate::cluster::{LEASE_MS, addr_of, held_by, served_by, url_of};
use crate::harness::{Backend, ServerProcess, TestDb, free_port, http, started_lobby_via};
use serde_json::json;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// The open-file limit of the node short of files.
const FILES: u32 = 200;
/// The lobbies it has room for under [`FILES`] with none of its own: a
/// quarter of the limit is kept for everything but the lobbies' sockets,
/// and each lobby is reckoned at four sockets ((200 - 50) / 4).
const ROOM: usize = 37;
/// Lobbies of the node that is killed: more than [`ROOM`].
const LOBBIES: usize = 48;

/// Where `lobby` is served, asked of `node`: `Ok(owner)` or `Err(code)`
/// of a refusal.
async fn ask(node: SocketAddr, lobby: &str) -> Result<SocketAddr, String> {
    let (st, v) = http(node, "GET", &format!("/api/lobbies/{lobby}"), None, None).await;
    match v["node_url"].as_str() {
        Some(url) if st == 200 => Ok(addr_of(url)),
        _ => Err(format!(
            "{st} {}",
            v["error"]["code"].as_str().unwrap_or("none")
        )),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_short_of_files_takes_over_only_what_it_has_room_for() {
    let db = TestDb::new(Backend::Postgres).await;
    let port = free_port().await;
    // One client makes all of a's lobbies.
    let many = [("CATAN_MAX_LOBBIES_PER_CLIENT", "100")];
    let a = ServerProcess::start_node_with(&db, 0, port, "a", LEASE_MS, &many).await;
    let lease = LEASE_MS.to_string();
    let node_env = |port: u16, name: &'static str| {
        vec![
            ("CATAN_NODE_URL", format!("http://127.0.0.1:{port}")),
            ("CATAN_NODE_ID", name.to_string()),
            ("CATAN_LEASE_MS", lease.clone()),
        ]
    };
    let port_b = free_port().await;
    let env_b = node_env(port_b, "b");
    let env_b: Vec<(&str, &str)> = env_b.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let b = ServerProcess::start_limited(&db, 1, port_b, &env_b, Some(FILES)).await;
    // Games on a that wait for a person who never connects (so they stay
    // loaded, and a survivor must take each of them over).
    let mut lobbies = Vec::new();
    for i in 0..LOBBIES {
        let create = json!({
            "name": format!("Room {i}"),
            "bot_delay_ms": 0,
            "options": { "players": 3 },
        });
        let (id, _) = started_lobby_via(a.addr, a.addr, create, &["Ann"], 2).await;
        lobbies.push(id);
    }
    served_by(&[a.addr], LOBBIES).await;
    a.kill();

    // b takes its room's worth (a bound for a hang, not a time goal) ...
    served_by(&[b.addr], ROOM).await;
    // ... and no more, for four lease times, while it is asked for all.
    let watch = Instant::now() + Duration::from_millis(4 * LEASE_MS);
    let mut moved = Vec::new();
    while Instant::now() < watch {
        moved.clear();
        let mut here = 0;
        for lobby in &lobbies {
            match ask(b.addr, lobby).await {
                Ok(owner) => {
                    assert_eq!(owner, b.addr, "{lobby} served elsewhere");
                    here += 1;
                }
                Err(code) => {
                    assert!(code.ends_with(" lobby_moved"), "{lobby}: {code}");
                    moved.push(lobby.clone());
                }
            }
        }
        assert!(here <= ROOM, "b serves {here} lobbies, room for {ROOM}");
        assert!(
            held_by(&[b.addr]).await <= ROOM as i64,
            "b lists more lobbies than it has room for"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(moved.len(), LOBBIES - ROOM, "{moved:?}");

    // A node with files to spare takes the rest, and every lobby is found
    // through b again.
    let port_c = free_port().await;
    let env_c = node_env(port_c, "c");
    let env_c: Vec<(&str, &str)> = env_c.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let c = ServerProcess::start_limited(&db, 2, port_c, &env_c, None).await;
    served_by(&[b.addr, c.addr], LOBBIES).await;
    let give_up = Instant::now() + Duration::from_secs(60);
    for lobby in &moved {
        loop {
            match ask(b.addr, lobby).await {
                Ok(owner) => {
                    assert_eq!(url_of(owner), url_of(c.addr), "{lobby}");
                    break;
                }
                Err(code) => assert!(code.ends_with(" lobby_moved"), "{lobby}: {code}"),
            }
            assert!(Instant::now() < give_up, "{lobby} was never taken over");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    assert!(held_by(&[b.addr]).await <= ROOM as i64);
    drop((b, c));
}
