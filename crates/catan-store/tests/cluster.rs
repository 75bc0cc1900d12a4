//! The cluster tables on a real PostgreSQL (issue 13): node registration
//! refuses a second live process under one id; a lease goes to exactly one
//! of many nodes claiming it at once; a takeover raises the epoch; renewals
//! tell a node which leases it lost; a lease parked by an idle unload is
//! no orphan; renewals touch no index; a waiting room is written and
//! deleted only under its lease and can be taken over until its game
//! starts; and every journal append is fenced: an
//! old owner's append after a takeover writes nothing, even when it races
//! the takeover, so the log never forks.

#![allow(clippy::unwrap_used)]

#[path = "support/db.rs"]
mod db;

use catan_core::record::RecordedAction;
use catan_core::{Action, Seat};
use catan_store::{
    Claim, GroupCommit, GroupCommitConfig, Lease, Listing, NodeLoad, Store, StoreError, format_time,
};
use chrono::Utc;
use db::{drop_db, fresh_db, new_game, url_of};
use std::time::Duration;
use uuid::Uuid;

const TTL: Duration = Duration::from_secs(30);
const DEADLINE: Duration = Duration::from_secs(5);

/// A store on a fresh database, and the database's name.
async fn fresh() -> (Store, String) {
    let name = fresh_db("catan_cluster_test").await;
    (Store::connect(&url_of(&name)).await.unwrap(), name)
}

async fn drop_store(store: Store, name: &str) {
    store.close().await;
    drop_db(name).await;
}

fn action(seq: u64, seat: u8) -> RecordedAction {
    RecordedAction {
        seq,
        seat: Seat(seat),
        action: Action::EndTurn,
        outcome: Default::default(),
        time: format_time(Utc::now()),
        stand_in: false,
    }
}

/// The ids of the orphaned games, in the store's order.
async fn orphan_ids(store: &Store) -> Vec<Uuid> {
    let orphans = store.orphaned_games(10, TTL).await.unwrap();
    orphans.iter().map(|o| o.game_id).collect()
}

/// Forces a lease to look expired (as if its holder stopped renewing long ago).
async fn expire(store: &Store, lobby: Uuid) {
    let Store::Postgres(p) = store else {
        unreachable!()
    };
    sqlx::query(
        "UPDATE lobby_leases SET expires = now() - interval '1 second' WHERE lobby_id = $1",
    )
    .bind(lobby)
    .execute(p)
    .await
    .unwrap();
}

#[tokio::test]
async fn a_node_id_is_held_by_one_live_process() {
    let (store, db) = fresh().await;
    let (first, second) = (Uuid::new_v4(), Uuid::new_v4());
    store
        .register_node("a", "http://127.0.0.1:1", first, TTL)
        .await
        .unwrap();
    let taken = store
        .register_node("a", "http://127.0.0.1:2", second, TTL)
        .await;
    assert!(
        matches!(taken, Err(StoreError::NodeIdInUse(_))),
        "{taken:?}"
    );
    // The first process beats on; a process whose row was taken hears so.
    let load = NodeLoad {
        lobbies: 3,
        sockets: 7,
        ..NodeLoad::default()
    };
    assert!(store.node_beat("a", first, &load).await.unwrap());
    assert!(!store.node_beat("a", second, &load).await.unwrap());
    let nodes = store.live_nodes(TTL).await.unwrap();
    assert_eq!(nodes.len(), 1);
    assert_eq!(
        (nodes[0].url.as_str(), nodes[0].lobbies, nodes[0].sockets),
        ("http://127.0.0.1:1", 3, 7)
    );
    // A row that stopped beating for longer than the ttl can be taken.
    assert!(
        store
            .register_node("a", "http://127.0.0.1:2", second, Duration::ZERO)
            .await
            .is_ok()
    );
    store.leave_cluster("a", second).await.unwrap();
    assert!(store.live_nodes(TTL).await.unwrap().is_empty());
    drop_store(store, &db).await;
}

#[tokio::test]
async fn one_claim_wins_and_takeovers_raise_the_epoch() {
    let (store, db) = fresh().await;
    let lobby = Uuid::new_v4();
    // Eight nodes claim one new lobby at once: exactly one gets it.
    let claims = (0..8).map(|i| {
        let store = store.clone();
        async move { store.claim_lease(lobby, &format!("n{i}"), TTL).await }
    });
    let won: Vec<_> = futures_util::future::join_all(claims)
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(won.iter().filter(|w| w.is_some()).count(), 1, "{won:?}");
    assert_eq!(won.iter().flatten().next(), Some(&1));
    let owner = store.lease_owner(lobby).await.unwrap().unwrap();
    let holder = owner.node_id.clone().unwrap();
    assert!(owner.live);
    // The time left is the database's; the holder never registered, so it
    // has no beat (a client asking is told to wait for the lease).
    assert!(owner.expires_in > TTL - Duration::from_secs(5) && owner.expires_in <= TTL);
    assert_eq!(owner.expired_for, Duration::ZERO);
    assert_eq!(owner.beat_age, None);
    store
        .register_node(&holder, "http://127.0.0.1:3", Uuid::new_v4(), TTL)
        .await
        .unwrap();
    let beat = store.lease_owner(lobby).await.unwrap().unwrap().beat_age;
    assert!(beat.is_some_and(|b| b < Duration::from_secs(5)), "{beat:?}");
    // The holder claiming again is a takeover too (epoch 2); another node
    // is refused while the lease lives.
    assert_eq!(
        store.claim_lease(lobby, &holder, TTL).await.unwrap(),
        Some(2)
    );
    let other = if holder == "n0" { "n1" } else { "n0" };
    assert_eq!(store.claim_lease(lobby, other, TTL).await.unwrap(), None);
    // Expired: another node takes it over at epoch 3; the old holder's
    // renewal no longer holds it.
    expire(&store, lobby).await;
    let expired = store.lease_owner(lobby).await.unwrap().unwrap();
    assert!(!expired.live && expired.expires_in == Duration::ZERO);
    assert!(
        expired.expired_for >= Duration::from_millis(900)
            && expired.expired_for < Duration::from_secs(60),
        "{expired:?}"
    );
    assert_eq!(store.claim_lease(lobby, other, TTL).await.unwrap(), Some(3));
    let old = [Lease {
        lobby_id: lobby,
        epoch: 2,
    }];
    assert!(
        store
            .renew_leases(&holder, &old, &[], TTL)
            .await
            .unwrap()
            .is_empty()
    );
    let current = [Lease {
        lobby_id: lobby,
        epoch: 3,
    }];
    assert_eq!(
        store
            .renew_leases(other, &current, &[], TTL)
            .await
            .unwrap()
            .len(),
        1
    );
    // Released: taken at once, at epoch 4; an epoch never repeats.
    store.release_leases(other, &current).await.unwrap();
    let released = store.lease_owner(lobby).await.unwrap().unwrap();
    assert!(!released.live && released.node_id.is_none());
    assert_eq!(
        store.claim_lease(lobby, &holder, TTL).await.unwrap(),
        Some(4)
    );
    drop_store(store, &db).await;
}

#[tokio::test]
async fn renewals_publish_listings_and_orphans_are_found() {
    let (store, db) = fresh().await;
    let (mine, gone) = (Uuid::new_v4(), Uuid::new_v4());
    for id in [mine, gone] {
        store.create_game(&new_game(id)).await.unwrap();
    }
    let e_mine = store.claim_lease(mine, "a", TTL).await.unwrap().unwrap();
    let e_gone = store.claim_lease(gone, "b", TTL).await.unwrap().unwrap();
    let listing = Listing {
        lobby_id: mine,
        public: true,
        info: r#"{"name":"Mine"}"#.into(),
    };
    let held = store
        .renew_leases(
            "a",
            &[Lease {
                lobby_id: mine,
                epoch: e_mine,
            }],
            &[listing],
            TTL,
        )
        .await
        .unwrap();
    assert!(held.contains(&mine));
    let listed = store.live_listings().await.unwrap();
    assert_eq!(
        listed.len(),
        1,
        "the unlisted lease is not shown: {listed:?}"
    );
    assert!(listed[0].public && listed[0].info.contains("Mine"));
    // Nothing is orphaned while both leases live; b's game is once b's
    // lease expires; a game with no lease at all is too.
    assert!(store.orphaned_games(10, TTL).await.unwrap().is_empty());
    expire(&store, gone).await;
    let orphans = store.orphaned_games(10, TTL).await.unwrap();
    assert_eq!(orphans.len(), 1);
    assert_eq!(orphans[0].game_id, gone);
    // b never registered as a node: its expired lease is a dead holder's;
    // once b beats, it is a live holder's whose renewal is late.
    assert!(!orphans[0].holder_live, "{orphans:?}");
    store
        .register_node("b", "http://127.0.0.1:9", Uuid::new_v4(), TTL)
        .await
        .unwrap();
    assert!(store.orphaned_games(10, TTL).await.unwrap()[0].holder_live);
    assert!(
        orphans[0].orphaned_for < Duration::from_secs(60),
        "{orphans:?}"
    );
    let never = Uuid::new_v4();
    store.create_game(&new_game(never)).await.unwrap();
    let orphans = orphan_ids(&store).await;
    assert_eq!(orphans.len(), 2);
    assert!(orphans.contains(&never) && orphans.contains(&gone));
    // Taking them over: the expired lease at its next epoch, the never
    // leased at 1; a live lease is held; an id with no stored game in
    // progress gets no lease at all.
    assert_eq!(
        store.claim_game(gone, "a", TTL).await.unwrap(),
        Claim::Won(e_gone + 1)
    );
    assert_eq!(
        store.claim_game(never, "a", TTL).await.unwrap(),
        Claim::Won(1)
    );
    assert_eq!(store.claim_game(mine, "b", TTL).await.unwrap(), Claim::Held);
    let unknown = Uuid::new_v4();
    assert_eq!(
        store.claim_game(unknown, "a", TTL).await.unwrap(),
        Claim::NoGame
    );
    assert_eq!(store.lease_owner(unknown).await.unwrap(), None);
    assert!(store.orphaned_games(10, TTL).await.unwrap().is_empty());
    drop_store(store, &db).await;
}

#[tokio::test]
async fn an_old_owner_cannot_change_seats_after_a_takeover() {
    let (store, db) = fresh().await;
    let id = Uuid::new_v4();
    let mut game = new_game(id);
    store.create_game(&game).await.unwrap();
    let first = store.claim_lease(id, "a", TTL).await.unwrap().unwrap();
    // The holder changes a seat: written.
    game.record.seats[1].name = "Bot 2".into();
    game.record.seats[1].bot = Some("normal".into());
    store.update_seats_fenced(&game, first).await.unwrap();
    // b takes the lobby over; a, paused meanwhile, writes a seat change at
    // its old epoch: refused, and the seats stay as they were.
    expire(&store, id).await;
    let second = store.claim_lease(id, "b", TTL).await.unwrap().unwrap();
    let mut stale = game.clone();
    stale.record.seats[0].name = "Overwritten".into();
    let e = store.update_seats_fenced(&stale, first).await.unwrap_err();
    assert!(e.is_fenced(), "{e}");
    let stored = store.load_game(id).await.unwrap().unwrap();
    assert_eq!(stored.record.seats, game.record.seats);
    // The new owner's change goes through.
    store.update_seats_fenced(&stale, second).await.unwrap();
    let stored = store.load_game(id).await.unwrap().unwrap();
    assert_eq!(stored.record.seats[0].name, "Overwritten");
    // Without a lease at that epoch nothing is written, stored game or not.
    let other = new_game(Uuid::new_v4());
    assert!(matches!(
        store.update_seats_fenced(&other, 1).await,
        Err(StoreError::Fenced { .. })
    ));
    drop_store(store, &db).await;
}

#[tokio::test]
async fn a_waiting_room_is_fenced_taken_over_and_left_behind_by_its_game() {
    let (store, db) = fresh().await;
    let id = Uuid::new_v4();
    let room = |n: u32| serde_json::json!({ "seats": n });
    // Nothing stored: a claim for the id leases nothing.
    assert_eq!(store.claim_game(id, "a", TTL).await.unwrap(), Claim::NoGame);
    // A new lobby is leased, then its room stored at that epoch.
    let first = store.claim_lease(id, "a", TTL).await.unwrap().unwrap();
    store.save_waiting_room(id, first, &room(1)).await.unwrap();
    store.save_waiting_room(id, first, &room(2)).await.unwrap();
    assert_eq!(store.waiting_room(id).await.unwrap(), Some(room(2)));
    // Its node dies: another claims the room (no game is stored) at the
    // next epoch.
    expire(&store, id).await;
    let second = match store.claim_game(id, "b", TTL).await.unwrap() {
        Claim::Won(e) => e,
        other => panic!("the room was not claimed: {other:?}"),
    };
    assert!(second > first);
    // The old owner, paused meanwhile, can neither overwrite nor delete it.
    let e = store
        .save_waiting_room(id, first, &room(9))
        .await
        .unwrap_err();
    assert!(e.is_fenced(), "{e}");
    let e = store.delete_waiting_room(id, first).await.unwrap_err();
    assert!(e.is_fenced(), "{e}");
    assert_eq!(store.waiting_room(id).await.unwrap(), Some(room(2)));
    // The new owner's change goes through.
    store.save_waiting_room(id, second, &room(3)).await.unwrap();
    assert_eq!(store.waiting_room(id).await.unwrap(), Some(room(3)));
    // Its game starts: the room beside it is never read again, and once
    // the game is over nothing is claimed for the id.
    let game = new_game(id);
    store.create_game(&game).await.unwrap();
    assert_eq!(store.waiting_room(id).await.unwrap(), None);
    store
        .finish_game(
            id,
            catan_core::record::GameStatus::Abandoned,
            None,
            Utc::now(),
        )
        .await
        .unwrap();
    expire(&store, id).await;
    assert_eq!(store.claim_game(id, "c", TTL).await.unwrap(), Claim::NoGame);
    // A room that closed is gone; deleting it again is no error.
    let closed = Uuid::new_v4();
    let e = store.claim_lease(closed, "a", TTL).await.unwrap().unwrap();
    store.save_waiting_room(closed, e, &room(1)).await.unwrap();
    store.delete_waiting_room(closed, e).await.unwrap();
    store.delete_waiting_room(closed, e).await.unwrap();
    assert_eq!(store.waiting_room(closed).await.unwrap(), None);
    expire(&store, closed).await;
    assert_eq!(
        store.claim_game(closed, "b", TTL).await.unwrap(),
        Claim::NoGame
    );
    drop_store(store, &db).await;
}

#[tokio::test]
async fn a_parked_lease_waits_to_be_asked_for_and_a_released_one_does_not() {
    let (store, db) = fresh().await;
    let (idle, drained) = (Uuid::new_v4(), Uuid::new_v4());
    for id in [idle, drained] {
        store.create_game(&new_game(id)).await.unwrap();
    }
    let lease = |lobby_id, epoch| Lease { lobby_id, epoch };
    let e_idle = store.claim_lease(idle, "a", TTL).await.unwrap().unwrap();
    let e_drained = store.claim_lease(drained, "a", TTL).await.unwrap().unwrap();
    // Unloaded while idle: parked, so no reaper resumes it; handed away by
    // a drain: released, an orphan at once.
    store
        .park_leases("a", &[lease(idle, e_idle)])
        .await
        .unwrap();
    store
        .release_leases("a", &[lease(drained, e_drained)])
        .await
        .unwrap();
    let orphans = orphan_ids(&store).await;
    assert_eq!(orphans, vec![drained], "a parked game is not an orphan");
    // Orphans come most recent first: a game orphaned an hour ago after
    // the one just released.
    let old = Uuid::new_v4();
    store.create_game(&new_game(old)).await.unwrap();
    store.claim_lease(old, "z", TTL).await.unwrap().unwrap();
    let Store::Postgres(p) = &store else {
        unreachable!()
    };
    sqlx::query("UPDATE lobby_leases SET expires = now() - interval '1 hour' WHERE lobby_id = $1")
        .bind(old)
        .execute(p)
        .await
        .unwrap();
    let orphans = orphan_ids(&store).await;
    assert_eq!(orphans, vec![drained, old]);
    // Still nobody's: the first node a client asks takes it over, at the
    // next epoch.
    let parked = store.lease_owner(idle).await.unwrap().unwrap();
    assert!(!parked.live && parked.node_id.is_none());
    assert_eq!(
        store.claim_game(idle, "b", TTL).await.unwrap(),
        Claim::Won(e_idle + 1)
    );
    // The claim cleared the mark: when b dies, the game is an orphan again.
    expire(&store, idle).await;
    let orphans = orphan_ids(&store).await;
    assert!(orphans.contains(&idle), "{orphans:?}");
    // A batch claim clears it too.
    store
        .park_leases("b", &[lease(idle, e_idle + 1)])
        .await
        .unwrap();
    let won = store.claim_games(&[idle], "c", TTL).await.unwrap();
    assert_eq!(won, vec![(idle, e_idle + 2)]);
    expire(&store, idle).await;
    assert!(
        store
            .orphaned_games(10, TTL)
            .await
            .unwrap()
            .iter()
            .any(|o| o.game_id == idle)
    );
    drop_store(store, &db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_claim_takes_only_orphans_and_batch_loads_match() {
    let (store, db) = fresh().await;
    let ids: Vec<Uuid> = (0..40).map(|_| Uuid::new_v4()).collect();
    for (i, &id) in ids.iter().enumerate() {
        store.create_game(&new_game(id)).await.unwrap();
        for seq in 1..=(i as u64 % 4) {
            store.append_action(id, &action(seq, 0)).await.unwrap();
        }
    }
    // Half held live by b, a quarter expired, a quarter never leased.
    let mut epochs = std::collections::HashMap::new();
    for &id in &ids[..30] {
        epochs.insert(id, store.claim_lease(id, "b", TTL).await.unwrap().unwrap());
    }
    for &id in &ids[20..30] {
        expire(&store, id).await;
    }
    let unknown = Uuid::new_v4();
    let mut want = ids.clone();
    want.push(unknown);
    // Two nodes claim the whole set at once, twice over: every orphan goes
    // to exactly one of them, at its next epoch, live leases stay b's, the
    // unknown id gets nothing, and neither claim deadlocks.
    let (a, c) = tokio::join!(
        store.claim_games(&want, "a", TTL),
        store.claim_games(&want, "c", TTL)
    );
    let (a, c) = (a.unwrap(), c.unwrap());
    let mut won: Vec<(Uuid, u64)> = a.iter().chain(&c).copied().collect();
    won.sort();
    let mut orphans: Vec<(Uuid, u64)> = ids[20..]
        .iter()
        .map(|&id| (id, epochs.get(&id).map_or(1, |e| e + 1)))
        .collect();
    orphans.sort();
    assert_eq!(won, orphans, "a won {a:?}, c won {c:?}");
    for &id in &ids[..20] {
        let owner = store.lease_owner(id).await.unwrap().unwrap();
        assert_eq!(owner.node_id.as_deref(), Some("b"));
    }
    assert_eq!(store.lease_owner(unknown).await.unwrap(), None);
    assert!(store.claim_games(&want, "d", TTL).await.unwrap().is_empty());
    assert!(store.claim_games(&[], "d", TTL).await.unwrap().is_empty());
    // The batch load gives what loading one by one gives, unknown ids left out.
    let loaded = store.load_games(&want).await.unwrap();
    assert_eq!(loaded.len(), ids.len());
    for game in &loaded {
        let one = store.load_game(game.id).await.unwrap().unwrap();
        assert_eq!(game, &one);
    }
    assert!(loaded.iter().any(|g| g.record.actions.len() == 3));
    drop_store(store, &db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_old_owner_cannot_append_after_a_takeover() {
    let (store, db) = fresh().await;
    let writer = GroupCommit::spawn(
        store.clone(),
        GroupCommitConfig {
            deadline: DEADLINE,
            ..GroupCommitConfig::default()
        },
    );
    let (game, other) = (Uuid::new_v4(), Uuid::new_v4());
    for id in [game, other] {
        store.create_game(&new_game(id)).await.unwrap();
    }
    let old = store.claim_lease(game, "old", TTL).await.unwrap().unwrap();
    let e_other = store.claim_lease(other, "old", TTL).await.unwrap().unwrap();
    writer
        .append_fenced(game, action(1, 0), Some(old))
        .await
        .unwrap();
    expire(&store, game).await;
    let new = store.claim_lease(game, "new", TTL).await.unwrap().unwrap();
    assert_eq!(new, old + 1);
    // The old owner's next append is fenced out; its other game, still
    // its own, is written in the same batch.
    let (fenced, kept) = tokio::join!(
        writer.append_fenced(game, action(2, 1), Some(old)),
        writer.append_fenced(other, action(1, 0), Some(e_other)),
    );
    assert!(
        matches!(fenced, Err(StoreError::Fenced { .. })),
        "{fenced:?}"
    );
    kept.unwrap();
    // Settling an in-doubt append is fenced too.
    let settled = store
        .ensure_action_fenced(game, &action(2, 1), Some(old), DEADLINE)
        .await;
    assert!(
        matches!(settled, Err(StoreError::Fenced { .. })),
        "{settled:?}"
    );
    // The new owner writes seq 2; the log holds exactly its actions.
    writer
        .append_fenced(game, action(2, 0), Some(new))
        .await
        .unwrap();
    let log = store.load_game(game).await.unwrap().unwrap().record.actions;
    let seats: Vec<(u64, u8)> = log.iter().map(|a| (a.seq, a.seat.0)).collect();
    assert_eq!(seats, vec![(1, 0), (2, 0)]);
    drop_store(store, &db).await;
}

/// An append racing a takeover: either it is stored before the takeover
/// commits (and the new owner reads it), or it is fenced out. Never stored
/// after the new owner read the log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appends_racing_takeovers_never_fork_the_log() {
    let (store, db) = fresh().await;
    for round in 0..40u64 {
        let game = Uuid::new_v4();
        store.create_game(&new_game(game)).await.unwrap();
        let old = store.claim_lease(game, "old", TTL).await.unwrap().unwrap();
        expire(&store, game).await;
        let append = {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .append_fenced_within(&[(game, action(1, 0), Some(old))], DEADLINE)
                    .await
            })
        };
        let takeover = {
            let store = store.clone();
            tokio::spawn(async move {
                let epoch = store.claim_lease(game, "new", TTL).await.unwrap();
                // The new owner reads the log right after its takeover.
                let seen = store.load_game(game).await.unwrap().unwrap().record.actions;
                (epoch, seen.len())
            })
        };
        let fenced = append.await.unwrap().unwrap();
        let (epoch, seen) = takeover.await.unwrap();
        assert_eq!(epoch, Some(old + 1));
        let stored = store.load_game(game).await.unwrap().unwrap().record.actions;
        if fenced.contains(&game) {
            assert!(stored.is_empty(), "round {round}: fenced yet stored");
        } else {
            assert_eq!(stored.len(), 1, "round {round}");
            assert_eq!(
                seen, 1,
                "round {round}: stored after the new owner read the log"
            );
        }
    }
    drop_store(store, &db).await;
}

/// Every node renews all its leases every beat, so a renewal must be the
/// cheapest write PostgreSQL has: a heap-only (HOT) update, which touches
/// no index (migration 0005; docs/PERFORMANCE.md, "Lease renewals"). An
/// index over a column a renewal writes, or pages with no room left for
/// the new row versions, would make every renewal a full update.
#[tokio::test]
async fn lease_renewals_touch_no_index() {
    let (store, db) = fresh().await;
    // Few enough leases that every new row version fits on the rows' own
    // page without waiting for the old ones to be pruned (which a snapshot
    // held anywhere in the database may delay): the test checks what makes
    // a renewal heap-only or not, the schema, not how soon pages are
    // cleaned.
    let mut held = Vec::new();
    for _ in 0..8 {
        let id = Uuid::new_v4();
        store.create_game(&new_game(id)).await.unwrap();
        let epoch = store.claim_lease(id, "a", TTL).await.unwrap().unwrap();
        held.push(Lease {
            lobby_id: id,
            epoch,
        });
    }
    const RENEWALS: i64 = 4;
    for round in 0..RENEWALS {
        // The listings change too on the first round, as a node's do.
        let listings: Vec<Listing> = if round == 0 {
            held.iter()
                .map(|l| Listing {
                    lobby_id: l.lobby_id,
                    public: true,
                    info: r#"{"name":"Lobby"}"#.into(),
                })
                .collect()
        } else {
            Vec::new()
        };
        let renewed = store
            .renew_leases("a", &held, &listings, TTL)
            .await
            .unwrap();
        assert_eq!(renewed.len(), held.len());
    }
    // The store's connections report their counts when they end; wait for
    // the statistics to show every renewal, then compare.
    store.close().await;
    let pg = sqlx::PgPool::connect(&url_of(&db)).await.unwrap();
    let expected = RENEWALS * held.len() as i64;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    let (updates, hot) = loop {
        sqlx::query("SELECT pg_stat_clear_snapshot()")
            .execute(&pg)
            .await
            .unwrap();
        let (updates, hot): (i64, i64) = sqlx::query_as(
            "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables \
             WHERE relname = 'lobby_leases'",
        )
        .fetch_one(&pg)
        .await
        .unwrap();
        if updates >= expected || tokio::time::Instant::now() > deadline {
            break (updates, hot);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    pg.close().await;
    assert_eq!(updates, expected, "every renewal is counted");
    assert_eq!(hot, updates, "every renewal is a heap-only update");
    drop_db(&db).await;
}

/// A batch claim locks only the rows it can take, and skips those another
/// transaction holds: a live lease whose renewal is in flight is neither
/// waited for nor locked (after a node died, survivors' renewals waited
/// for each other's batch claims until they gave their own leases up), and
/// an orphan whose old owner's append is in flight is left for the next
/// round rather than waited for.
#[tokio::test]
async fn a_batch_claim_neither_waits_for_nor_blocks_a_renewal() {
    use sqlx::Connection;
    let (store, db) = fresh().await;
    let (live, orphan, busy) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
    for id in [live, orphan, busy] {
        store.create_game(&new_game(id)).await.unwrap();
    }
    let e_live = store.claim_lease(live, "b", TTL).await.unwrap().unwrap();
    for id in [orphan, busy] {
        store.claim_lease(id, "b", TTL).await.unwrap().unwrap();
        expire(&store, id).await;
    }
    // b's renewal of `live` is in flight: its row is locked for update,
    // and so is `busy`'s (an append of b's, say).
    let mut renewal = sqlx::PgConnection::connect(&url_of(&db)).await.unwrap();
    sqlx::query("BEGIN").execute(&mut renewal).await.unwrap();
    sqlx::query("SELECT 1 FROM lobby_leases WHERE lobby_id = ANY($1) FOR NO KEY UPDATE")
        .bind(vec![live, busy])
        .execute(&mut renewal)
        .await
        .unwrap();
    // A bound for a hang, not a time goal: before, the claim waited for
    // the renewal until its statement timed out.
    let won = tokio::time::timeout(DEADLINE, store.claim_games(&[live, orphan, busy], "a", TTL))
        .await
        .expect("the claim waited for the renewal")
        .unwrap();
    let ids: Vec<Uuid> = won.iter().map(|w| w.0).collect();
    assert_eq!(ids, vec![orphan], "only the free orphan is taken");
    // The live lease is still b's to renew.
    sqlx::query("COMMIT").execute(&mut renewal).await.unwrap();
    let renewed = store
        .renew_leases(
            "b",
            &[Lease {
                lobby_id: live,
                epoch: e_live,
            }],
            &[],
            TTL,
        )
        .await
        .unwrap();
    assert!(renewed.contains(&live));
    // Next round, with nothing in flight, the other orphan is taken.
    let won = store.claim_games(&[busy], "a", TTL).await.unwrap();
    assert_eq!(won.len(), 1);
    renewal.close().await.unwrap();
    drop_store(store, &db).await;
}
