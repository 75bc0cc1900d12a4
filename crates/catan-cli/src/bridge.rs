//! `catan bridge`: our bot as a seat of another engine (bench/catanatron/).
//!
//! Reads one JSON request a line on standard input and answers one JSON line
//! on standard output. A `decide` request describes the position as the
//! bot's seat sees it, in our ids (the other engine's driver translates its
//! board, pieces and counts): public pieces, the seat's own hand and
//! development cards, and for every other seat only the counts of its cards.
//! From that a game of our engine is built ([`position_game`]), hidden parts
//! filled arbitrarily (other hands dealt from the cards the bank shows are in
//! hands, unknown development cards and the deck from those not yet seen),
//! and the bot decides on that game's view of its seat, which redacts the
//! filled parts again: the bot cannot learn anything its seat could not see.
//!
//! The request also carries `keys`, the other engine's legal moves in the
//! short form of [`key`]; the bot chooses among our engine's legal actions
//! whose key is among them, so every answer is playable there. An `end`
//! request forgets a game's bot.

use crate::search_args::SearchArgs;
use catan_bots::{Bot, BotKind, SearchBot, make_bot};
use catan_core::scenario::{BoardSpec, Scenario, Start, StartPlayer};
use catan_core::{
    Action, DevCard, EdgeId, Game, GameOptions, Harbour, HexId, HexTile, HiddenDeal, PhaseName,
    Resource, ResourceSet, Seat, VertexId, Viewer,
};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// Options of `catan bridge`.
#[derive(clap::Args)]
pub struct Args {
    /// The bot that plays: random, easy, normal or hard.
    #[arg(long, default_value = "hard")]
    kind: BotKind,
    /// The `hard` bot's search.
    #[command(flatten)]
    search: SearchArgs,
}

/// One seat of the position.
#[derive(Deserialize)]
struct SeatIn {
    settlements: Vec<VertexId>,
    cities: Vec<VertexId>,
    roads: Vec<EdgeId>,
    /// Number of resource cards held.
    cards: u32,
    /// The cards themselves: only for the bot's own seat.
    #[serde(default)]
    resources: Option<ResourceSet>,
    /// Number of unplayed development cards.
    dev_count: u32,
    /// The cards themselves: only for the bot's own seat.
    #[serde(default)]
    dev_cards: Option<Vec<DevCard>>,
    /// Development cards played so far, by kind.
    played: Vec<DevCard>,
}

/// A request on standard input.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Request {
    /// Choose a move.
    Decide(Box<Position>),
    /// The game is over: drop its bot.
    End { game: String },
}

/// A position as the bot's seat sees it, in our ids.
#[derive(Deserialize)]
struct Position {
    /// The other engine's game id (one bot per game).
    game: String,
    /// The bot's seat; seat 0 opened.
    me: Seat,
    vp_target: u8,
    hexes: Vec<HexTile>,
    harbours: Vec<Harbour>,
    robber: HexId,
    seats: Vec<SeatIn>,
    longest_road: Option<Seat>,
    largest_army: Option<Seat>,
    /// `opening`, `pre_roll`, `action` or `move_robber`.
    phase: String,
    /// Opening: roads placed so far by everyone. Not read: the engine counts
    /// the step from the pieces, which say the same.
    #[serde(default)]
    #[allow(dead_code)]
    step: u8,
    /// Opening: the bot's settlement waiting for its road.
    #[serde(default)]
    settlement: Option<VertexId>,
    turn: u32,
    dev_played: bool,
    #[serde(default)]
    dice: Option<[u8; 2]>,
    deck_size: usize,
    /// The bank's resource cards.
    bank: ResourceSet,
    /// The other engine's legal moves ([`key`]).
    keys: Vec<String>,
}

/// The short form of a move both engines share: enough to tell apart the
/// moves the other engine lists (a Knight is one move there, its robber
/// move comes after; Road Building likewise).
pub fn key(a: &Action) -> String {
    match *a {
        Action::RollDice => "roll".into(),
        Action::EndTurn => "end_turn".into(),
        Action::BuyDevelopmentCard => "buy_dev".into(),
        Action::PlayKnight { .. } => "knight".into(),
        Action::PlayRoadBuilding { .. } => "road_building".into(),
        Action::BuildSettlement { vertex } => format!("settlement:{}", vertex.0),
        Action::BuildCity { vertex } => format!("city:{}", vertex.0),
        Action::BuildRoad { edge } => format!("road:{}", edge.0),
        Action::MoveRobber { hex, victim } => match victim {
            Some(s) => format!("robber:{}:{}", hex.0, s.0),
            None => format!("robber:{}:-", hex.0),
        },
        Action::PlayInvention { resources } => {
            let mut names: Vec<&str> = resources.iter().map(Resource::name).collect();
            names.sort_unstable();
            format!("invention:{}", names.join(","))
        }
        Action::PlayMonopoly { resource } => format!("monopoly:{}", resource.name()),
        Action::TradeBank { give, get } => format!("bank:{}:{}", give.name(), get.name()),
        _ => "other".into(),
    }
}

/// Builds our engine's game for `p`, hidden parts filled arbitrarily (see
/// the module docs).
fn position_game(p: &Position, rng: &mut ChaCha8Rng) -> Result<Game, String> {
    let n = p.seats.len();
    let me = p.me.index();
    let mine = p.seats.get(me).ok_or("`me` is not a seat")?;
    let my_hand = mine
        .resources
        .ok_or("the bot's own resources are missing")?;
    let my_dev = mine
        .dev_cards
        .clone()
        .ok_or("the bot's own cards are missing")?;
    // Cards in other hands, by type: what neither the bank nor I hold (the
    // bank is public, so the seat could work this out too), dealt to the
    // other hands in a random order (only their counts are seen).
    let mut pool: Vec<Resource> = Vec::new();
    for r in Resource::ALL {
        let left = 19u8
            .checked_sub(my_hand.get(r))
            .and_then(|x| x.checked_sub(p.bank.get(r)))
            .ok_or("more cards of a type than exist")?;
        pool.extend(std::iter::repeat_n(r, left as usize));
    }
    pool.shuffle(rng);
    // Development cards: the standard deck minus mine and every played one.
    let mut unseen = DevCard::DECK_COUNTS;
    for c in my_dev.iter().chain(p.seats.iter().flat_map(|s| &s.played)) {
        let i = c.index();
        unseen[i] = unseen[i]
            .checked_sub(1)
            .ok_or("more development cards than the deck has")?;
    }
    let mut unseen_list: Vec<DevCard> = DevCard::ALL
        .iter()
        .flat_map(|&c| std::iter::repeat_n(c, unseen[c.index()] as usize))
        .collect();
    unseen_list.shuffle(rng);
    let mut players = Vec::with_capacity(n);
    for (i, s) in p.seats.iter().enumerate() {
        let (resources, dev_cards) = if i == me {
            (my_hand, my_dev.clone())
        } else {
            let mut hand = ResourceSet::EMPTY;
            for _ in 0..s.cards {
                let r = pool.pop().ok_or("more cards in hands than exist")?;
                *hand.get_mut(r) += 1;
            }
            let mut dev = Vec::new();
            for _ in 0..s.dev_count {
                dev.push(
                    unseen_list
                        .pop()
                        .ok_or("more development cards than exist")?,
                );
            }
            (hand, dev)
        };
        players.push(StartPlayer {
            settlements: s.settlements.clone(),
            cities: s.cities.clone(),
            roads: s.roads.clone(),
            resources,
            dev_cards,
            played_knights: s.played.iter().filter(|&&c| c == DevCard::Knight).count() as u8,
        });
    }
    let scenario = Scenario {
        options: GameOptions {
            players: n as u8,
            vp_target: p.vp_target,
            ..GameOptions::default()
        },
        seed: 0,
        board: Some(BoardSpec {
            hexes: p.hexes.clone(),
            harbours: Some(p.harbours.clone()),
            robber: Some(p.robber),
        }),
        dice: Vec::new(),
        deck: Some(Vec::new()),
        start: Some(Start {
            skip_opening: true,
            active: p.me,
            players,
            robber: Some(p.robber),
            longest_road: Some(p.longest_road),
            largest_army: Some(p.largest_army),
        }),
        actions: Vec::new(),
    };
    let built = scenario.build().map_err(|e| e.0)?;
    // What a scenario cannot set (the step of the turn, the played cards
    // other than knights) goes into the seat's view of the built game; the
    // engine makes the game from that view and the cards dealt above.
    let mut view = built.view(Viewer::Seat(p.me));
    for (pv, s) in view.players.iter_mut().zip(&p.seats) {
        for c in &s.played {
            if *c != DevCard::Knight {
                pv.played.0[c.index()] += 1;
            }
        }
    }
    view.active = p.me;
    view.turn = p.turn;
    view.dev_card_played = p.dev_played;
    view.dice = p.dice;
    // The opening's step follows from the settlements placed and the one
    // waiting for its road (seat 0 opened, so the engine finds the opener).
    (view.phase, view.opening_settlement) = match p.phase.as_str() {
        "opening" => (PhaseName::Opening, p.settlement),
        "pre_roll" => (PhaseName::PreRoll, None),
        "action" => (PhaseName::Action, None),
        "move_robber" => (PhaseName::MoveRobber, None),
        other => return Err(format!("unknown phase {other:?}")),
    };
    // The deck: what is left unseen, as many as the other engine holds.
    unseen_list.truncate(p.deck_size);
    let deal = HiddenDeal {
        hands: built.players().iter().map(|q| q.hand).collect(),
        dev_cards: built.players().iter().map(|q| q.dev).collect(),
        deck: unseen_list,
        seed: rand::Rng::random(rng),
    };
    Game::from_view(&view, deal).map_err(|e| e.0)
}

/// A bot of `kind` as the flags configure it.
fn new_bot(args: &Args, seed: u64) -> Box<dyn Bot> {
    match args.kind {
        BotKind::Hard => Box::new(SearchBot::new(seed, args.search.config())),
        k => make_bot(k, seed),
    }
}

/// What one `decide` request answers.
struct Answer {
    /// The chosen action; `None` when none of our engine's legal actions is
    /// playable in the other engine.
    action: Option<Action>,
    /// The other engine's moves our engine does not allow here (a check of
    /// the translation: it should stay near zero).
    unmatched: usize,
}

/// Answers one `decide` request.
fn decide(p: &Position, bot: &mut dyn Bot, rng: &mut ChaCha8Rng) -> Result<Answer, String> {
    let game = position_game(p, rng)?;
    let ours = game.legal_actions(p.me);
    let our_keys: std::collections::HashSet<String> = ours.iter().map(key).collect();
    let unmatched = p.keys.iter().filter(|k| !our_keys.contains(*k)).count();
    let legal: Vec<Action> = ours
        .into_iter()
        .filter(|a| p.keys.contains(&key(a)))
        .collect();
    if legal.is_empty() {
        return Ok(Answer {
            action: None,
            unmatched,
        });
    }
    let view = game.view(Viewer::Seat(p.me));
    // Player offers do not exist there: a bot that offers is asked again
    // (each bot offers at most a few times a turn).
    for _ in 0..4 {
        match bot.choose(&view, &legal) {
            Some(a) if legal.contains(&a) => {
                return Ok(Answer {
                    action: Some(a),
                    unmatched,
                });
            }
            Some(a) if legal.contains(&a.normalized()) => {
                return Ok(Answer {
                    action: Some(a.normalized()),
                    unmatched,
                });
            }
            _ => {}
        }
    }
    Ok(Answer {
        action: legal.first().copied(),
        unmatched,
    })
}

/// Runs the bridge until standard input closes.
pub fn run(args: Args) -> ExitCode {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut bots: HashMap<String, Box<dyn Bot>> = HashMap::new();
    let mut rng = ChaCha8Rng::seed_from_u64(0xb41d6e);
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let answer = match serde_json::from_str::<Request>(&line) {
            Err(e) => serde_json::json!({ "error": format!("unreadable request: {e}") }),
            Ok(Request::End { game }) => {
                bots.remove(&game);
                serde_json::json!({ "ok": true })
            }
            Ok(Request::Decide(p)) => {
                let seed = bots.len() as u64 ^ rand::Rng::random::<u64>(&mut rng);
                let bot = bots
                    .entry(p.game.clone())
                    .or_insert_with(|| new_bot(&args, seed));
                match decide(&p, bot.as_mut(), &mut rng) {
                    Ok(a) => serde_json::json!({ "action": a.action, "unmatched": a.unmatched }),
                    Err(e) => serde_json::json!({ "error": e }),
                }
            }
        };
        if writeln!(out, "{answer}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
    ExitCode::SUCCESS
}
