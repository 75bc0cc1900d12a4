//! A person can take up a bot's trade offer at the server's default bot
//! speed: the bot's offer stays open while the person reads it (longer than
//! the bot's own think delay, well within the documented wait for people's
//! answers) and the bot then completes the trade.
//!
//! Nothing is left to luck: the game's seed is fixed (`Config::game_seed`,
//! which also seeds the lobby's bots), and the bot after the person is armed
//! with the `test_bot_offer` hook, so at its first turn with a card to spare
//! it offers her one card for one of a kind she holds. That offer goes
//! through the bot's ordinary paths (its action, its wait for people's
//! answers, its confirmation with whoever accepted). Her opening, discards
//! and robber moves are the `normal` bot's choices and she never builds.
//! She takes the first offer from a bot that she can pay, after reading it.
use crate::common;

use catan_bots::{Bot, HeuristicBot};
use catan_core::{Action, View};
use common::*;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::time::Duration;
use tokio::time::Instant;

const RESOURCES: [&str; 5] = ["brick", "wood", "wool", "wheat", "ore"];

/// The game's seed: any will do (the armed bot offers whatever the cards);
/// fixed so that every run plays the same game.
const SEED: u64 = 12;

/// Whether `hand` holds every card of `cards`.
fn holds(hand: &Value, cards: &Value) -> bool {
    RESOURCES
        .iter()
        .all(|r| hand[*r].as_u64().unwrap_or(0) >= cards[*r].as_u64().unwrap_or(0))
}

/// Actions a person answers offers with (the test chooses those itself).
fn is_trade_answer(a: &Value) -> bool {
    [
        "accept_trade",
        "decline_trade",
        "confirm_trade",
        "cancel_trade",
    ]
    .contains(&a["type"].as_str().unwrap_or(""))
}

#[tokio::test]
async fn a_person_accepts_a_bots_offer_at_the_default_bot_speed() {
    let defaults = catan_server::Config::default();
    assert!(defaults.bot_offer_wait_ms >= 10_000, "documented default");
    let config = catan_server::Config {
        bot_delay_ms: defaults.bot_delay_ms,
        bot_offer_wait_ms: defaults.bot_offer_wait_ms,
        test_hooks: true,
        game_seed: Some(SEED),
        ..test_config()
    };
    // A person reads an offer for longer than a bot thinks, and answers
    // well within the documented wait.
    let reading = Duration::from_millis(defaults.bot_delay_ms * 5 / 2);
    assert!(reading * 2 < Duration::from_millis(defaults.bot_offer_wait_ms));
    let srv = start(config).await;
    let lobby = create_lobby(
        srv.addr,
        json!({ "name": "market", "options": { "players": 3 } }),
    )
    .await;
    let (me, token) = join(srv.addr, &lobby, "Ann").await;
    // Two bots, each making an offer most turns; three seats rather than
    // four make the opening (every bot move waits the default delay) short.
    let bots = [
        add_bot(srv.addr, &lobby, "normal").await,
        add_bot(srv.addr, &lobby, "normal").await,
    ];
    let mut c = Client::connect(srv.addr, &lobby.id, Some(&token)).await;
    c.until("welcome").await;
    // Armed before the start, so that its first chance is not missed.
    let armed = bots[0];
    c.send(json!({ "type": "test_bot_offer", "id": "arm", "bot": armed, "to": me }))
        .await;
    assert_eq!(c.reply("arm").await["type"], "accepted");
    start_game(srv.addr, &lobby).await;
    c.until("update").await;

    let mut first_seen: HashMap<u64, Instant> = HashMap::new();
    let mut answered: HashSet<u64> = HashSet::new();
    let mut bot_offers_to_me: HashMap<u64, bool> = HashMap::new();
    let mut seen = 0;
    let mut traded = None;
    let mut planner = HeuristicBot::new(7);
    while traded.is_none() {
        // What happened since last time.
        for m in &c.log[seen..] {
            for e in m["events"].as_array().into_iter().flatten() {
                let offer = e["offer"]["id"].as_u64().or(e["offer"].as_u64());
                match e["type"].as_str() {
                    Some("trade_offered") => {
                        let o = &e["offer"];
                        let maker = o["maker"].as_u64().unwrap() as u8;
                        let to_me = o["to"].as_array().unwrap().contains(&json!(me));
                        if bots.contains(&maker) && to_me {
                            let payable =
                                holds(&c.view["players"][me as usize]["resources"], &o["get"]);
                            bot_offers_to_me.insert(offer.unwrap(), payable);
                        }
                    }
                    Some("trade_closed") => {
                        let id = offer.unwrap();
                        // A bot's offer that Ann could pay must not vanish
                        // before she has had the time to answer it.
                        if bot_offers_to_me.get(&id) == Some(&true) {
                            assert!(
                                answered.contains(&id),
                                "offer {id} was withdrawn before the person answered"
                            );
                        }
                    }
                    Some("traded") if e["taker"] == json!(me) => traded = Some(e.clone()),
                    _ => {}
                }
            }
            assert!(
                m["type"] != "game_over" || traded.is_some(),
                "the game ended before the person could trade with a bot"
            );
        }
        seen = c.log.len();
        if traded.is_some() {
            break;
        }

        // An offer from a bot waiting for Ann's answer.
        let offers = c.view["offers"].as_array().cloned().unwrap_or_default();
        let pending = offers.iter().find(|o| {
            let id = o["id"].as_u64().unwrap();
            bots.contains(&(o["maker"].as_u64().unwrap() as u8))
                && !o["counter"].as_bool().unwrap()
                && o["to"].as_array().unwrap().contains(&json!(me))
                && !answered.contains(&id)
        });
        if let Some(o) = pending {
            let id = o["id"].as_u64().unwrap();
            let hand = &c.view["players"][me as usize]["resources"];
            let take = holds(hand, &o["get"]);
            if take {
                let since = *first_seen.entry(id).or_insert_with(Instant::now);
                let left = reading.saturating_sub(since.elapsed());
                if !left.is_zero() {
                    c.collect_for(left).await;
                    continue;
                }
            }
            let kind = if take {
                "accept_trade"
            } else {
                "decline_trade"
            };
            let rid = c.act(json!({ "type": kind, "offer": id })).await;
            let r = c.reply(&rid).await;
            if r["type"] == "rejected" && r["code"] == "stale_version" {
                continue; // a bot moved meanwhile: retry at the new version
            }
            assert_eq!(r["type"], "accepted", "{kind} of a waiting offer: {r}");
            answered.insert(id);
            continue;
        }

        // Ann's own moves: roll and end the turn; the opening, discards and
        // robber moves as the `normal` bot would make them.
        let mine: Vec<Value> = c
            .legal
            .iter()
            .filter(|a| !is_trade_answer(a))
            .cloned()
            .collect();
        let phase = c.view["phase"].as_str().unwrap_or("");
        let choice = if ["opening", "discard", "move_robber"].contains(&phase) && !mine.is_empty() {
            let view: View = serde_json::from_value(c.view.clone()).expect("a view");
            let legal: Vec<Action> = mine
                .iter()
                .map(|a| serde_json::from_value(a.clone()).expect("an action"))
                .collect();
            planner
                .choose(&view, &legal)
                .map(|a| serde_json::to_value(a).expect("serializable"))
        } else {
            simple_choice(&mine)
        };
        if let Some(a) = choice {
            let rid = c.act(a).await;
            let r = c.reply(&rid).await;
            assert!(
                r["type"] == "accepted" || r["code"] == "stale_version",
                "{r}"
            );
            continue;
        }
        c.recv().await.expect("socket open");
    }
    let t = traded.unwrap();
    assert!(bots.contains(&(t["maker"].as_u64().unwrap() as u8)), "{t}");
    // The armed bot offers at its first turn with a card to spare, so the
    // trade comes in the first rounds (with this seed, always the same one).
    let turn = c.view["turn"].as_u64().unwrap();
    assert!(turn <= 3 * 3, "the trade came only at turn {turn}");
}
