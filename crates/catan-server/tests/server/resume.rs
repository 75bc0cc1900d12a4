//! A lobby rebuilt from its journal record (settings, seed, seats, actions)
//! shows the same game, and its players reconnect with their seat tokens.

use crate::common;

use common::*;
use serde_json::json;

#[tokio::test]
async fn lobby_resumes_from_its_journal() {
    let srv = start(test_config()).await;
    let lobby = create_lobby(
        srv.addr,
        json!({ "name": "again", "options": { "players": 3 } }),
    )
    .await;
    let (seat, token) = join(srv.addr, &lobby, "Ann").await;
    add_bot(srv.addr, &lobby, "random").await;
    add_bot(srv.addr, &lobby, "random").await;
    let mut me = Client::connect(srv.addr, &lobby.id, Some(&token)).await;
    me.until("welcome").await;
    start_game(srv.addr, &lobby).await;
    // Play until it is our turn after a few actions.
    while me.legal.is_empty() || me.version < 3 {
        if !me.legal.is_empty() {
            let a = simple_choice(&me.legal).unwrap();
            let id = me.act(a).await;
            me.reply(&id).await;
        }
        me.recv().await.unwrap();
    }
    let (version, view) = (me.version, me.view.clone());
    let record = srv.journal.record(lobby.id.parse().unwrap()).unwrap();
    assert_eq!(record.record.actions.len() as u64, version);

    // A second server resumes the game from the record alone.
    let other = start(test_config()).await;
    other.state.registry.resume(&record).unwrap();
    let mut again = Client::connect(other.addr, &lobby.id, Some(&token)).await;
    let snap = again.until("snapshot").await;
    assert_eq!(snap["version"], version);
    assert_eq!(snap["view"], view);
    assert_eq!(snap["view"]["viewer"]["seat"], seat);
}
