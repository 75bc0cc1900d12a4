//! The cluster tables on a real PostgreSQL (issue 13): node registration
//! refuses a second live process under one id; a node's lease is renewed
//! by one row whatever it holds, and a new generation gives up every lobby
//! of the old one; a lobby lease goes to exactly one of many nodes
//! claiming it at once, only to a node whose own lease is live; a takeover
//! raises the epoch; a lease parked by an idle unload is no orphan; a
//! waiting room is written and deleted only under its lease and can be
//! taken over until its game starts; and every journal append is fenced:
//! an old owner's append after a takeover writes nothing, even when it
//! races the takeover, so the log never forks.

#![allow(clippy::unwrap_used)]

#[path = "support/db.rs"]
mod db;

use catan_core::record::RecordedAction;
use catan_core::{Action, Seat};
use catan_store::{
    Claim, GroupCommit, GroupCommitConfig, Holder, Lease, Listing, NodeLoad, Store, StoreError,
    format_time,
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

/// A registered node with a live lease.
struct Node {
    id: String,
    instance: Uuid,
    generation: i64,
}

impl Node {
    fn holder(&self) -> Holder<'_> {
        Holder {
            node: &self.id,
            generation: self.generation,
        }
    }
}

/// Registers node `id` (its lease lasts [`TTL`]).
async fn join(store: &Store, id: &str) -> Node {
    let instance = Uuid::new_v4();
    let generation = store
        .register_node(id, &format!("http://{id}.test"), instance, TTL)
        .await
        .unwrap();
    Node {
        id: id.to_string(),
        instance,
        generation,
    }
}

/// Renews `node`'s lease at its generation.
async fn renew(store: &Store, node: &Node) {
    let renewed = store
        .renew_node_lease(&node.id, node.instance, Some(node.generation), TTL)
        .await
        .unwrap();
    assert_eq!(renewed, Some(node.generation));
}

/// The ids of the orphaned games, in the store's order.
async fn orphan_ids(store: &Store) -> Vec<Uuid> {
    let orphans = store.orphaned_games(10, TTL).await.unwrap();
    orphans.iter().map(|o| o.game_id).collect()
}

/// Runs `sql` with `$1` bound to `id`.
async fn exec(store: &Store, sql: &str, id: &str) {
    let Store::Postgres(p) = store else {
        unreachable!()
    };
    sqlx::query(sql).bind(id).execute(p).await.unwrap();
}

/// Makes `node`'s lease look run out a second ago (as if it stopped
/// renewing), and so every lobby lease it holds.
async fn expire(store: &Store, node: &Node) {
    exec(
        store,
        "UPDATE cluster_nodes SET lease_until = now() - interval '1 second' WHERE id = $1",
        &node.id,
    )
    .await;
}

#[tokio::test]
async fn a_node_id_is_held_by_one_live_process() {
    let (store, db) = fresh().await;
    let (first, second) = (Uuid::new_v4(), Uuid::new_v4());
    let generation = store
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
    // The first process beats on; a process whose row was taken hears so,
    // and renews nothing.
    let load = NodeLoad {
        lobbies: 3,
        sockets: 7,
        ..NodeLoad::default()
    };
    assert!(store.node_beat("a", first, &load).await.unwrap());
    assert!(!store.node_beat("a", second, &load).await.unwrap());
    assert_eq!(
        store
            .renew_node_lease("a", second, Some(generation), TTL)
            .await
            .unwrap(),
        None
    );
    let nodes = store.live_nodes(TTL).await.unwrap();
    assert_eq!(nodes.len(), 1);
    assert_eq!(
        (nodes[0].url.as_str(), nodes[0].lobbies, nodes[0].sockets),
        ("http://127.0.0.1:1", 3, 7)
    );
    // A row that stopped beating for longer than the ttl can be taken, and
    // its new process holds a new generation.
    let again = store
        .register_node("a", "http://127.0.0.1:2", second, Duration::ZERO)
        .await
        .unwrap();
    assert!(again > generation);
    store.leave_cluster("a", second).await.unwrap();
    assert!(store.live_nodes(TTL).await.unwrap().is_empty());
    drop_store(store, &db).await;
}

/// A node's lease is its own row: renewed at its generation, moved to a
/// new generation when the node gives its lobbies up, after which a late
/// renewal of the old one renews nothing and the old lobbies are free.
#[tokio::test]
async fn a_new_generation_leaves_the_old_ones_lobbies_to_the_others() {
    let (store, db) = fresh().await;
    let (a, b) = (join(&store, "a").await, join(&store, "b").await);
    let lobbies: Vec<Uuid> = (0..3).map(|_| Uuid::new_v4()).collect();
    for &id in &lobbies {
        store.create_game(&new_game(id)).await.unwrap();
        assert_eq!(store.claim_lease(id, a.holder()).await.unwrap(), Some(1));
    }
    renew(&store, &a).await;
    for &id in &lobbies {
        let owner = store.lease_owner(id).await.unwrap().unwrap();
        assert!(owner.live && owner.expires_in > TTL - DEADLINE, "{owner:?}");
        assert!(owner.beat_age.is_some_and(|b| b < DEADLINE));
    }
    assert!(orphan_ids(&store).await.is_empty());
    // a gives everything up: a new generation.
    let next = store
        .renew_node_lease("a", a.instance, None, TTL)
        .await
        .unwrap()
        .unwrap();
    assert!(next > a.generation);
    // A renewal of the old generation, late, renews nothing.
    assert_eq!(
        store
            .renew_node_lease("a", a.instance, Some(a.generation), TTL)
            .await
            .unwrap(),
        None
    );
    for &id in &lobbies {
        let owner = store.lease_owner(id).await.unwrap().unwrap();
        assert!(!owner.live, "{owner:?}");
        assert_eq!(owner.beat_age, None, "a gave this generation up");
    }
    let orphans = store.orphaned_games(10, TTL).await.unwrap();
    assert_eq!(orphans.len(), 3);
    assert!(orphans.iter().all(|o| !o.holder_live), "{orphans:?}");
    // b takes them at once, at the next epoch; a's old generation holds none.
    let won = store.claim_games(&lobbies, b.holder()).await.unwrap();
    assert_eq!(won.len(), 3);
    assert!(won.iter().all(|&(_, e)| e == 2));
    let old: Vec<Lease> = lobbies
        .iter()
        .map(|&lobby_id| Lease { lobby_id, epoch: 1 })
        .collect();
    assert!(
        store
            .held_leases(a.holder(), &old)
            .await
            .unwrap()
            .is_empty()
    );
    let now: Vec<Lease> = old.iter().map(|l| Lease { epoch: 2, ..*l }).collect();
    assert_eq!(store.held_leases(b.holder(), &now).await.unwrap().len(), 3);
    // A node whose lease ran out takes nothing until it renews.
    expire(&store, &b).await;
    let fresh_lobby = Uuid::new_v4();
    assert_eq!(
        store.claim_lease(fresh_lobby, b.holder()).await.unwrap(),
        None
    );
    store.create_game(&new_game(fresh_lobby)).await.unwrap();
    assert_eq!(
        store.claim_game(fresh_lobby, b.holder()).await.unwrap(),
        Claim::Lapsed
    );
    assert!(
        store
            .claim_games(&[fresh_lobby], b.holder())
            .await
            .unwrap()
            .is_empty()
    );
    renew(&store, &b).await;
    assert_eq!(
        store.claim_game(fresh_lobby, b.holder()).await.unwrap(),
        Claim::Won(1)
    );
    drop_store(store, &db).await;
}

#[tokio::test]
async fn one_claim_wins_and_takeovers_raise_the_epoch() {
    let (store, db) = fresh().await;
    let lobby = Uuid::new_v4();
    let mut nodes = Vec::new();
    for i in 0..8 {
        nodes.push(join(&store, &format!("n{i}")).await);
    }
    // Eight nodes claim one new lobby at once: exactly one gets it.
    let claims = nodes.iter().map(|n| store.claim_lease(lobby, n.holder()));
    let won: Vec<_> = futures_util::future::join_all(claims)
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(won.iter().filter(|w| w.is_some()).count(), 1, "{won:?}");
    assert_eq!(won.iter().flatten().next(), Some(&1));
    let owner = store.lease_owner(lobby).await.unwrap().unwrap();
    let holder = &nodes[won.iter().position(Option::is_some).unwrap()];
    assert_eq!(owner.node_id.as_deref(), Some(holder.id.as_str()));
    assert!(owner.live);
    // The time left is the holder's lease's, by the database's clock.
    assert!(owner.expires_in > TTL - DEADLINE && owner.expires_in <= TTL);
    assert_eq!(owner.expired_for, Duration::ZERO);
    assert!(owner.beat_age.is_some_and(|b| b < DEADLINE));
    // The holder claiming again is a takeover too (epoch 2); another node
    // is refused while the lease lives.
    assert_eq!(
        store.claim_lease(lobby, holder.holder()).await.unwrap(),
        Some(2)
    );
    let other = nodes.iter().find(|n| n.id != holder.id).unwrap();
    assert_eq!(
        store.claim_lease(lobby, other.holder()).await.unwrap(),
        None
    );
    // The holder's lease runs out: another node takes the lobby over at
    // epoch 3; the old holder, renewing late, no longer holds it.
    expire(&store, holder).await;
    let expired = store.lease_owner(lobby).await.unwrap().unwrap();
    assert!(!expired.live && expired.expires_in == Duration::ZERO);
    // Dead since the later of its taking and the holder's lease's end.
    assert!(expired.expired_for < Duration::from_secs(60), "{expired:?}");
    assert_eq!(
        store.claim_lease(lobby, other.holder()).await.unwrap(),
        Some(3)
    );
    renew(&store, holder).await;
    let at = |epoch| {
        [Lease {
            lobby_id: lobby,
            epoch,
        }]
    };
    assert!(
        store
            .held_leases(holder.holder(), &at(2))
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        store
            .held_leases(other.holder(), &at(3))
            .await
            .unwrap()
            .contains(&lobby)
    );
    // Released: taken at once, at epoch 4; an epoch never repeats.
    store.release_leases(&other.id, &at(3)).await.unwrap();
    let released = store.lease_owner(lobby).await.unwrap().unwrap();
    assert!(!released.live && released.node_id.is_none());
    assert_eq!(
        store.claim_lease(lobby, holder.holder()).await.unwrap(),
        Some(4)
    );
    drop_store(store, &db).await;
}

#[tokio::test]
async fn listings_are_published_and_orphans_are_found() {
    let (store, db) = fresh().await;
    let (a, b) = (join(&store, "a").await, join(&store, "b").await);
    let (mine, gone) = (Uuid::new_v4(), Uuid::new_v4());
    for id in [mine, gone] {
        store.create_game(&new_game(id)).await.unwrap();
    }
    let e_mine = store.claim_lease(mine, a.holder()).await.unwrap().unwrap();
    let e_gone = store.claim_lease(gone, b.holder()).await.unwrap().unwrap();
    let listing = |epoch, name: &str| {
        (
            epoch,
            Listing {
                lobby_id: mine,
                public: true,
                info: format!(r#"{{"name":"{name}"}}"#),
            },
        )
    };
    store
        .publish_listings("a", &[listing(e_mine, "Mine")])
        .await
        .unwrap();
    // A listing at an epoch no longer the lease's is not written.
    store
        .publish_listings("a", &[listing(e_mine + 1, "Stale")])
        .await
        .unwrap();
    let listed = store.live_listings().await.unwrap();
    assert_eq!(
        listed.len(),
        1,
        "the unlisted lease is not shown: {listed:?}"
    );
    assert!(listed[0].public && listed[0].info.contains("Mine"));
    // Nothing is orphaned while both leases live; b's game is once b's
    // lease runs out; a game with no lease at all is too.
    assert!(store.orphaned_games(10, TTL).await.unwrap().is_empty());
    expire(&store, &b).await;
    let orphans = store.orphaned_games(10, TTL).await.unwrap();
    assert_eq!(orphans.len(), 1);
    assert_eq!(orphans[0].game_id, gone);
    assert!(
        orphans[0].orphaned_for < Duration::from_secs(60),
        "{orphans:?}"
    );
    // b still beats: a live holder whose renewal is late; once its beat is
    // older than the ttl, a dead one.
    assert!(orphans[0].holder_live, "{orphans:?}");
    exec(
        &store,
        "UPDATE cluster_nodes SET heartbeat = now() - interval '1 hour' WHERE id = $1",
        "b",
    )
    .await;
    assert!(!store.orphaned_games(10, TTL).await.unwrap()[0].holder_live);
    let never = Uuid::new_v4();
    store.create_game(&new_game(never)).await.unwrap();
    let orphans = orphan_ids(&store).await;
    assert_eq!(orphans.len(), 2);
    assert!(orphans.contains(&never) && orphans.contains(&gone));
    // Taking them over: the dead lease at its next epoch, the never
    // leased at 1; a live lease is held; an id with no stored game in
    // progress gets no lease at all.
    assert_eq!(
        store.claim_game(gone, a.holder()).await.unwrap(),
        Claim::Won(e_gone + 1)
    );
    assert_eq!(
        store.claim_game(never, a.holder()).await.unwrap(),
        Claim::Won(1)
    );
    renew(&store, &b).await;
    assert_eq!(
        store.claim_game(mine, b.holder()).await.unwrap(),
        Claim::Held
    );
    let unknown = Uuid::new_v4();
    assert_eq!(
        store.claim_game(unknown, a.holder()).await.unwrap(),
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
    let (a, b) = (join(&store, "a").await, join(&store, "b").await);
    let first = store.claim_lease(id, a.holder()).await.unwrap().unwrap();
    // The holder changes a seat: written.
    game.record.seats[1].name = "Bot 2".into();
    game.record.seats[1].bot = Some("normal".into());
    store.update_seats_fenced(&game, first).await.unwrap();
    // b takes the lobby over; a, paused meanwhile, writes a seat change at
    // its old epoch: refused, and the seats stay as they were.
    expire(&store, &a).await;
    let second = store.claim_lease(id, b.holder()).await.unwrap().unwrap();
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
    let (a, b, c) = (
        join(&store, "a").await,
        join(&store, "b").await,
        join(&store, "c").await,
    );
    // Nothing stored: a claim for the id leases nothing.
    assert_eq!(
        store.claim_game(id, a.holder()).await.unwrap(),
        Claim::NoGame
    );
    // A new lobby is leased, then its room stored at that epoch.
    let first = store.claim_lease(id, a.holder()).await.unwrap().unwrap();
    store.save_waiting_room(id, first, &room(1)).await.unwrap();
    store.save_waiting_room(id, first, &room(2)).await.unwrap();
    assert_eq!(store.waiting_room(id).await.unwrap(), Some(room(2)));
    // Its node dies: another claims the room (no game is stored) at the
    // next epoch.
    expire(&store, &a).await;
    let second = match store.claim_game(id, b.holder()).await.unwrap() {
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
    expire(&store, &b).await;
    assert_eq!(
        store.claim_game(id, c.holder()).await.unwrap(),
        Claim::NoGame
    );
    // A room that closed is gone; deleting it again is no error.
    let closed = Uuid::new_v4();
    let e = store
        .claim_lease(closed, c.holder())
        .await
        .unwrap()
        .unwrap();
    store.save_waiting_room(closed, e, &room(1)).await.unwrap();
    store.delete_waiting_room(closed, e).await.unwrap();
    store.delete_waiting_room(closed, e).await.unwrap();
    assert_eq!(store.waiting_room(closed).await.unwrap(), None);
    expire(&store, &c).await;
    renew(&store, &b).await;
    assert_eq!(
        store.claim_game(closed, b.holder()).await.unwrap(),
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
    let (a, b, c, z) = (
        join(&store, "a").await,
        join(&store, "b").await,
        join(&store, "c").await,
        join(&store, "z").await,
    );
    let e_idle = store.claim_lease(idle, a.holder()).await.unwrap().unwrap();
    let e_drained = store
        .claim_lease(drained, a.holder())
        .await
        .unwrap()
        .unwrap();
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
    store.claim_lease(old, z.holder()).await.unwrap().unwrap();
    exec(
        &store,
        "UPDATE cluster_nodes SET lease_until = now() - interval '1 hour' WHERE id = $1",
        "z",
    )
    .await;
    exec(
        &store,
        "UPDATE lobby_leases SET since = now() - interval '2 hours' WHERE node_id = $1",
        "z",
    )
    .await;
    let orphans = orphan_ids(&store).await;
    assert_eq!(orphans, vec![drained, old]);
    // Still nobody's: the first node a client asks takes it over, at the
    // next epoch.
    let parked = store.lease_owner(idle).await.unwrap().unwrap();
    assert!(!parked.live && parked.node_id.is_none());
    assert_eq!(
        store.claim_game(idle, b.holder()).await.unwrap(),
        Claim::Won(e_idle + 1)
    );
    // The claim cleared the mark: when b dies, the game is an orphan again.
    expire(&store, &b).await;
    let orphans = orphan_ids(&store).await;
    assert!(orphans.contains(&idle), "{orphans:?}");
    // A batch claim clears it too.
    store
        .park_leases("b", &[lease(idle, e_idle + 1)])
        .await
        .unwrap();
    let won = store.claim_games(&[idle], c.holder()).await.unwrap();
    assert_eq!(won, vec![(idle, e_idle + 2)]);
    expire(&store, &c).await;
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
    // Half held live by b, a quarter by e whose lease ran out, a quarter
    // never leased.
    let (a, b, c, d, e) = (
        join(&store, "a").await,
        join(&store, "b").await,
        join(&store, "c").await,
        join(&store, "d").await,
        join(&store, "e").await,
    );
    let mut epochs = std::collections::HashMap::new();
    for (i, &id) in ids[..30].iter().enumerate() {
        let holder = if i < 20 { b.holder() } else { e.holder() };
        let epoch = store.claim_lease(id, holder).await.unwrap().unwrap();
        epochs.insert(id, epoch);
    }
    expire(&store, &e).await;
    let unknown = Uuid::new_v4();
    let mut want = ids.clone();
    want.push(unknown);
    // Two nodes claim the whole set at once, twice over: every orphan goes
    // to exactly one of them, at its next epoch, live leases stay b's, the
    // unknown id gets nothing, and neither claim deadlocks.
    let (a, c) = tokio::join!(
        store.claim_games(&want, a.holder()),
        store.claim_games(&want, c.holder())
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
    assert!(
        store
            .claim_games(&want, d.holder())
            .await
            .unwrap()
            .is_empty()
    );
    assert!(store.claim_games(&[], d.holder()).await.unwrap().is_empty());
    // The batch read of the owners gives what reading one by one gives
    // (the times aside: each read has its own `now()`), unknown ids left out.
    let owners = store.lease_owners(&want).await.unwrap();
    assert_eq!(owners.len(), ids.len(), "every leased lobby, no other");
    for &id in &ids {
        let one = store.lease_owner(id).await.unwrap().unwrap();
        let many = &owners[&id];
        assert_eq!(
            (&many.node_id, &many.url, many.epoch, many.live),
            (&one.node_id, &one.url, one.epoch, one.live),
            "lobby {id}"
        );
    }
    assert!(owners.values().any(|o| o.node_id.as_deref() == Some("b")));
    assert!(store.lease_owners(&[]).await.unwrap().is_empty());
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
    let (was, now) = (join(&store, "old").await, join(&store, "new").await);
    let old = store
        .claim_lease(game, was.holder())
        .await
        .unwrap()
        .unwrap();
    let e_other = store
        .claim_lease(other, was.holder())
        .await
        .unwrap()
        .unwrap();
    writer
        .append_fenced(game, action(1, 0), Some(old))
        .await
        .unwrap();
    expire(&store, &was).await;
    let new = store
        .claim_lease(game, now.holder())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(new, old + 1);
    // The old owner's next append is fenced out; its other game, which
    // nobody took over (yet), is written in the same batch: appends are
    // fenced by the epoch.
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
    let (was, now) = (join(&store, "old").await, join(&store, "new").await);
    let new_holder = now.generation;
    for round in 0..40u64 {
        let game = Uuid::new_v4();
        store.create_game(&new_game(game)).await.unwrap();
        renew(&store, &was).await;
        let old = store
            .claim_lease(game, was.holder())
            .await
            .unwrap()
            .unwrap();
        expire(&store, &was).await;
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
                let holder = Holder {
                    node: "new",
                    generation: new_holder,
                };
                let epoch = store.claim_lease(game, holder).await.unwrap();
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

/// A node renews its lease every beat, whatever the number of lobbies it
/// holds: one row of `cluster_nodes` is written, and no lobby row (at
/// 10,000 games, renewing each lobby's row every beat made renewals slow
/// until the nodes gave their lobbies up; docs/PERFORMANCE.md).
#[tokio::test]
async fn a_renewal_writes_one_row_however_many_lobbies() {
    let (store, db) = fresh().await;
    let a = join(&store, "a").await;
    let ids: Vec<Uuid> = (0..50).map(|_| Uuid::new_v4()).collect();
    for &id in &ids {
        store.create_game(&new_game(id)).await.unwrap();
        store.claim_lease(id, a.holder()).await.unwrap().unwrap();
    }
    const RENEWALS: i64 = 5;
    for _ in 0..RENEWALS {
        renew(&store, &a).await;
    }
    // The store's connections report their counts when they end; wait for
    // the statistics to show every renewal, then compare.
    store.close().await;
    let pg = sqlx::PgPool::connect(&url_of(&db)).await.unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    let updates = |table: &'static str| {
        let pg = pg.clone();
        async move {
            sqlx::query("SELECT pg_stat_clear_snapshot()")
                .execute(&pg)
                .await
                .unwrap();
            let (n,): (i64,) =
                sqlx::query_as("SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = $1")
                    .bind(table)
                    .fetch_one(&pg)
                    .await
                    .unwrap();
            n
        }
    };
    let nodes = loop {
        let n = updates("cluster_nodes").await;
        if n >= RENEWALS || tokio::time::Instant::now() > deadline {
            break n;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let lobbies = updates("lobby_leases").await;
    pg.close().await;
    assert_eq!(nodes, RENEWALS, "one row per renewal");
    assert_eq!(lobbies, 0, "no lobby row is rewritten by a renewal");
    drop_db(&db).await;
}

/// A batch claim locks only the rows it can take, and skips those another
/// transaction holds: a node's renewal in flight (its row locked for
/// update) neither waits for a claim nor makes it wait, and an orphan
/// whose old owner's append is in flight is left for the next round
/// rather than waited for.
#[tokio::test]
async fn a_batch_claim_neither_waits_for_nor_blocks_a_renewal() {
    use sqlx::Connection;
    let (store, db) = fresh().await;
    let (a, b, e) = (
        join(&store, "a").await,
        join(&store, "b").await,
        join(&store, "e").await,
    );
    let (live, orphan, busy) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
    for id in [live, orphan, busy] {
        store.create_game(&new_game(id)).await.unwrap();
    }
    store.claim_lease(live, b.holder()).await.unwrap().unwrap();
    let e_busy = store.claim_lease(busy, e.holder()).await.unwrap().unwrap();
    store
        .claim_lease(orphan, e.holder())
        .await
        .unwrap()
        .unwrap();
    expire(&store, &e).await;
    // b's renewal is in flight: its node row is locked for update; and an
    // append of e's to `busy` holds that lease row's key share.
    let mut renewal = sqlx::PgConnection::connect(&url_of(&db)).await.unwrap();
    sqlx::query("BEGIN").execute(&mut renewal).await.unwrap();
    sqlx::query("SELECT 1 FROM cluster_nodes WHERE id = 'b' FOR NO KEY UPDATE")
        .execute(&mut renewal)
        .await
        .unwrap();
    sqlx::query("SELECT 1 FROM lobby_leases WHERE lobby_id = $1 FOR KEY SHARE")
        .bind(busy)
        .execute(&mut renewal)
        .await
        .unwrap();
    // A bound for a hang, not a time goal.
    let won = tokio::time::timeout(
        DEADLINE,
        store.claim_games(&[live, orphan, busy], a.holder()),
    )
    .await
    .expect("the claim waited for the renewal")
    .unwrap();
    let ids: Vec<Uuid> = won.iter().map(|w| w.0).collect();
    assert_eq!(ids, vec![orphan], "only the free orphan is taken");
    // The renewal goes through while a claim runs on another connection.
    let claim = {
        let store = store.clone();
        let node = a.id.clone();
        let generation = a.generation;
        tokio::spawn(async move {
            let holder = Holder {
                node: &node,
                generation,
            };
            store.claim_games(&[busy], holder).await.unwrap()
        })
    };
    sqlx::query(
        "UPDATE cluster_nodes SET lease_until = now() + interval '30 seconds' WHERE id = 'b'",
    )
    .execute(&mut renewal)
    .await
    .unwrap();
    sqlx::query("COMMIT").execute(&mut renewal).await.unwrap();
    // `busy` was skipped while the append held it, or taken once it ended.
    let taken = claim.await.unwrap();
    assert!(
        taken.is_empty() || taken == vec![(busy, e_busy + 1)],
        "{taken:?}"
    );
    let owner = store.lease_owner(live).await.unwrap().unwrap();
    assert!(owner.live && owner.node_id.as_deref() == Some("b"));
    // Next round, with nothing in flight, the other orphan is taken.
    if taken.is_empty() {
        let won = store.claim_games(&[busy], a.holder()).await.unwrap();
        assert_eq!(won, vec![(busy, e_busy + 1)]);
    }
    renewal.close().await.unwrap();
    drop_store(store, &db).await;
}

/// A node whose session closed (its process died) is cut by another
/// node's look, long before its lease (here 30 s) runs out: its generation
/// ends (a renewal at it renews nothing, its lobby is an orphan whose
/// holder is gone) and it leaves the node list. A node whose session is
/// open, one that never opened one (an older version), and the looking
/// node itself are left alone; every later look still reports the cut, so
/// that each survivor hears of it, but ends no generation again.
#[tokio::test]
async fn a_node_whose_session_closed_is_cut_at_once_and_only_it() {
    let (store, db) = fresh().await;
    let (a, b, c, old) = (
        join(&store, "a").await,
        join(&store, "b").await,
        join(&store, "c").await,
        join(&store, "old").await,
    );
    let mut sa = store.open_node_session("a", a.instance).await.unwrap();
    let sb = store.open_node_session("b", b.instance).await.unwrap();
    let sc = store.open_node_session("c", c.instance).await.unwrap();
    assert_ne!(sa.key(), sb.key());
    let lobby = Uuid::new_v4();
    store.create_game(&new_game(lobby)).await.unwrap();
    assert_eq!(store.claim_lease(lobby, b.holder()).await.unwrap(), Some(1));
    assert!(sa.cut_dead("a", TTL).await.unwrap().is_empty());
    assert!(orphan_ids(&store).await.is_empty());

    // b's process dies: its connection closes. The database notices in a
    // moment; a looks until it has (as its node does, every quarter second).
    sb.close().await;
    let began = std::time::Instant::now();
    let cut = loop {
        let cut = sa.cut_dead("a", TTL).await.unwrap();
        if !cut.is_empty() || began.elapsed() > DEADLINE {
            break cut;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let ids: Vec<&str> = cut.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["b"]);
    assert_eq!(
        store
            .renew_node_lease("b", b.instance, Some(b.generation), TTL)
            .await
            .unwrap(),
        None,
        "b's generation ended"
    );
    let owner = store.lease_owner(lobby).await.unwrap().unwrap();
    assert!(!owner.live && owner.beat_age.is_none(), "{owner:?}");
    let orphans = store.orphaned_games(10, TTL).await.unwrap();
    assert_eq!(orphans.len(), 1);
    assert!(!orphans[0].holder_live);
    let live: Vec<String> = store
        .live_nodes(TTL)
        .await
        .unwrap()
        .into_iter()
        .map(|n| n.id)
        .collect();
    assert_eq!(live, ["a", "c", "old"]);
    // A later look reports the same cut and ends nothing more.
    let gen_of = |id: &'static str| {
        let store = &store;
        async move {
            let Store::Postgres(p) = store else {
                unreachable!()
            };
            sqlx::query_scalar::<_, i64>("SELECT lease_gen FROM cluster_nodes WHERE id = $1")
                .bind(id)
                .fetch_one(p)
                .await
                .unwrap()
        }
    };
    let after_cut = gen_of("b").await;
    assert_eq!(sa.cut_dead("a", TTL).await.unwrap(), cut);
    assert_eq!(gen_of("b").await, after_cut);
    for n in [&a, &c, &old] {
        renew(&store, n).await;
    }
    assert_eq!(store.claim_lease(lobby, c.holder()).await.unwrap(), Some(2));
    sa.close().await;
    sc.close().await;
    drop_store(store, &db).await;
}
