//! Recovery replays each stored game through `catan_core::record::Replay`
//! and checks every recorded outcome against the seed: a game whose
//! recorded dice roll was altered in the database after a crash is refused
//! at start-up, with an error naming the game and the action, and left in
//! the store as it was; another game in the same store recovers and is
//! played to its end. Runs on PostgreSQL and on the default SQLite file.

use crate::harness;

use harness::*;
use serde_json::Value;
use sqlx::{Connection, PgConnection, Row, SqliteConnection};

/// Plays every person of `lobby` on `addr` until the game has passed
/// `version` and waits for one of them (`None`: to its end).
async fn play_until(
    addr: std::net::SocketAddr,
    lobby: &str,
    humans: &[(u8, String)],
    version: Option<u64>,
) -> Vec<Player> {
    let mut tasks = Vec::new();
    for (seat, token) in humans {
        let p = Player::connect(addr, lobby, Some((*seat, token))).await;
        tasks.push(tokio::spawn(p.play(version)));
    }
    let mut players = Vec::new();
    for t in tasks {
        players.push(t.await.unwrap());
    }
    players
}

/// Changes the first recorded dice roll of game `id` to another roll and
/// returns its seq, as someone editing the database by hand would.
async fn alter_first_roll(db: &TestDb, id: &str) -> u64 {
    let altered = |text: &str| {
        let mut outcome: Value = serde_json::from_str(text).unwrap();
        let d0 = outcome["dice"][0].as_u64().unwrap();
        outcome["dice"][0] = (d0 % 6 + 1).into();
        outcome.to_string()
    };
    match db.backend {
        Backend::Postgres => {
            let mut c = PgConnection::connect(&db.url).await.unwrap();
            let row = sqlx::query(
                "SELECT seq, outcome::text AS outcome FROM game_actions \
                 WHERE game_id = $1::uuid AND outcome ? 'dice' ORDER BY seq LIMIT 1",
            )
            .bind(id)
            .fetch_one(&mut c)
            .await
            .unwrap();
            let seq: i64 = row.get("seq");
            let done = sqlx::query(
                "UPDATE game_actions SET outcome = $1::jsonb WHERE game_id = $2::uuid AND seq = $3",
            )
            .bind(altered(row.get("outcome")))
            .bind(id)
            .bind(seq)
            .execute(&mut c)
            .await
            .unwrap();
            assert_eq!(done.rows_affected(), 1);
            seq as u64
        }
        Backend::Sqlite => {
            let mut c = SqliteConnection::connect(&format!("sqlite://{}", db.url))
                .await
                .unwrap();
            let row = sqlx::query(
                "SELECT seq, outcome FROM game_actions \
                 WHERE game_id = ?1 AND outcome LIKE '%\"dice\"%' ORDER BY seq LIMIT 1",
            )
            .bind(id)
            .fetch_one(&mut c)
            .await
            .unwrap();
            let seq: i64 = row.get("seq");
            let done =
                sqlx::query("UPDATE game_actions SET outcome = ?1 WHERE game_id = ?2 AND seq = ?3")
                    .bind(altered(row.get("outcome")))
                    .bind(id)
                    .bind(seq)
                    .execute(&mut c)
                    .await
                    .unwrap();
            assert_eq!(done.rows_affected(), 1);
            seq as u64
        }
    }
}

async fn altered_game_is_refused_and_the_other_recovers(backend: Backend) {
    let db = TestDb::new(backend).await;
    let first = ServerProcess::start(&db, 1).await;
    let (good, good_humans) = lobby_two_humans_two_bots(first.addr).await;
    let (bad, bad_humans) = lobby_two_humans_two_bots(first.addr).await;
    // Past the opening placements (16 actions), so both logs hold rolls.
    let (a, b) = tokio::join!(
        play_until(first.addr, &good, &good_humans, Some(30)),
        play_until(first.addr, &bad, &bad_humans, Some(30)),
    );
    assert!(a.iter().chain(&b).all(|p| p.over.is_none()));
    first.kill();
    drop((a, b));

    let seq = alter_first_roll(&db, &bad).await;

    let second = start_in_process(&db).await;
    let report = &second.report;
    assert_eq!(
        report
            .resumed
            .iter()
            .map(|id| id.to_string())
            .collect::<Vec<_>>(),
        vec![good.clone()],
        "only the untouched game resumes: {report:?}"
    );
    let [(failed_id, why)] = report.failed.as_slice() else {
        panic!("exactly the altered game fails: {report:?}");
    };
    assert_eq!(failed_id, &bad);
    assert!(
        why.contains(&bad) && why.contains(&format!("seq {seq}")) && why.contains("dice roll"),
        "the error names the game, the action and what differs: {why}"
    );

    // The altered game is left as it was (a fixed record could still be
    // resumed) and is not served.
    let store = second.state.store.clone().unwrap();
    let stored = store
        .load_game(bad.parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert!(!stored.record.status.is_over());
    let (st, body) = http(
        second.addr,
        "GET",
        &format!("/api/lobbies/{bad}"),
        None,
        None,
    )
    .await;
    assert_eq!(
        (st, body["error"]["code"].as_str()),
        (404, Some("lobby_not_found")),
        "the altered game's lobby is not served: {body}"
    );

    // The good one plays on to its end on the recovered server.
    let players = play_until(second.addr, &good, &good_humans, None).await;
    assert!(
        players.iter().all(|p| p.over.is_some()),
        "the recovered game is played to its end"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_altered_outcome_is_refused_at_recovery_on_postgres() {
    altered_game_is_refused_and_the_other_recovers(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_altered_outcome_is_refused_at_recovery_on_sqlite() {
    altered_game_is_refused_and_the_other_recovers(Backend::Sqlite).await;
}
