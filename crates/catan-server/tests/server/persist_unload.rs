//! A running game nobody is connected to is unloaded from memory after the
//! lobby idle time (it does not hold a lobby slot for ever), and comes back
//! from its log, unchanged, as soon as someone asks for it.

use crate::harness;

use harness::*;
use std::time::Duration;
use uuid::Uuid;

async fn idle_game_is_unloaded_and_resumed_on_demand(backend: Backend) {
    let db = TestDb::new(backend).await;
    // Only running games are unloaded this soon: the waiting room keeps
    // the lobby idle time, so setting the game up on a loaded machine
    // cannot see it closed under its feet.
    let srv = start_in_process_with(&db, |c| c.game_unload_ms = 300).await;
    let (lobby, people) = started_lobby(srv.addr, &["Alice"], 3).await;
    let (seat, token) = people[0].clone();
    let id = Uuid::parse_str(&lobby).unwrap();

    // Alice plays a little (the bots answer at once), stops when the game
    // waits for her, and leaves: nobody is connected any more.
    let alice = Player::connect(srv.addr, &lobby, Some((seat, &token))).await;
    let alice = alice.play(Some(10)).await;
    let before = (alice.version, alice.view.clone(), alice.legal.clone());
    assert!(!before.2.is_empty(), "the game waits for Alice");
    drop(alice);

    // Nobody connected and the idle time passed: the lobby leaves memory.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while srv.state.registry.get(id).is_some() {
        assert!(tokio::time::Instant::now() < deadline, "never unloaded");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (st, list) = http(srv.addr, "GET", "/api/lobbies", None, None).await;
    assert_eq!(st, 200);
    assert!(
        !list.to_string().contains(&lobby),
        "an unloaded game is not listed: {list}"
    );

    // Alice comes back by her link: the same position, her seat, her moves.
    let (st, info) = http(
        srv.addr,
        "GET",
        &format!("/api/lobbies/{lobby}"),
        None,
        None,
    )
    .await;
    assert_eq!(st, 200, "{info}");
    assert_eq!(info["status"], "playing");
    let mut alice = Player::connect(srv.addr, &lobby, Some((seat, &token))).await;
    assert!(srv.state.registry.get(id).is_some(), "resumed into memory");
    // The game was waiting for Alice: it comes back exactly as she left it.
    assert_eq!(alice.version, before.0);
    assert_eq!(alice.view, before.1);
    assert_eq!(alice.legal, before.2);
    // And it plays on from there.
    let target = alice.version + 3;
    alice = alice.play(Some(target)).await;
    assert!(alice.version >= target || alice.over.is_some());
    // A bot may move between Alice's look and her action (stale_version,
    // which she retries); nothing else may be refused.
    assert!(
        alice.refusals.iter().all(|c| c == "stale_version"),
        "{:?}",
        alice.refusals
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_game_is_unloaded_and_resumed_on_demand_on_postgres() {
    idle_game_is_unloaded_and_resumed_on_demand(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_game_is_unloaded_and_resumed_on_demand_on_sqlite() {
    idle_game_is_unloaded_and_resumed_on_demand(Backend::Sqlite).await;
}
