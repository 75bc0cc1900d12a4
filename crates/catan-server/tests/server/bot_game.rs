//! A full game of bots to the end, watched by a spectator over a socket.

use crate::common;

use common::*;
use serde_json::json;

#[tokio::test]
async fn full_bot_game_with_spectator() {
    let srv = start(test_config()).await;
    let lobby = create_lobby(
        srv.addr,
        json!({ "name": "Bots", "options": { "players": 4, "vp_target": 8 }, "bot_delay_ms": 0 }),
    )
    .await;
    for kind in ["random", "normal", "easy", "heuristic"] {
        add_bot(srv.addr, &lobby, kind).await;
    }
    let mut spec = Client::connect(srv.addr, &lobby.id, None).await;
    let w = spec.until("welcome").await;
    assert_eq!(w["you"], json!({ "kind": "spectator" }));
    start_game(srv.addr, &lobby).await;
    let over = spec.until("game_over").await;
    let winner = over["winner"].as_u64().expect("a winner") as usize;
    let view = &over["view"];
    assert_eq!(view["viewer"]["kind"], "omniscient");
    assert_eq!(view["phase"], "finished");
    // The final view shows every hand, and the winner reached the target.
    for p in view["players"].as_array().unwrap() {
        assert!(p["resources"].is_object() && p["dev_cards"].is_object());
    }
    assert!(view["players"][winner]["victory_points"].as_u64().unwrap() >= 8);
    // The spectator saw every version in order, with nothing skipped.
    let versions: Vec<u64> = spec
        .log
        .iter()
        .filter(|m| m["type"] == "update")
        .map(|m| m["version"].as_u64().unwrap())
        .collect();
    assert_eq!(versions[0], 0);
    assert!(versions.windows(2).all(|w| w[1] == w[0] + 1));
    assert_eq!(*versions.last().unwrap(), over["version"].as_u64().unwrap());
    // The lobby says finished, and the journal has the result.
    let info = lobby_info(srv.addr, &lobby).await;
    assert_eq!(info["status"], "finished");
    let rec = srv.journal.record(lobby.id.parse().unwrap()).unwrap();
    assert_eq!(
        rec.record.result.unwrap().winner.map(|s| s.0 as usize),
        Some(winner)
    );
    assert!(rec.record.seats.iter().all(|s| s.bot.is_some()));
    assert!(rec.token_hashes.iter().all(Option::is_none));
    assert!(rec.record.actions.iter().all(|a| !a.stand_in));
}
