//! Random playouts over many seeds, checking the engine's invariants after
//! every action: conservation of cards (R3), piece supplies (R4), points
//! (R43), legal_actions soundness, refusals changing nothing, and replay
//! determinism (R10).

use catan_core::playout::seat_to_act;
use catan_core::{
    Action, BoardMode, EdgeId, Game, GameOptions, HexId, OfferId, Phase, Resource, ResourceSet,
    Seat, SeatSet, VertexId,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const GAMES: u64 = 1000;
const MAX_TURNS: u32 = 1500;

fn options_for(seed: u64) -> GameOptions {
    GameOptions {
        players: if seed.is_multiple_of(4) { 3 } else { 4 },
        board: [BoardMode::Random, BoardMode::Official, BoardMode::Beginner][(seed % 3) as usize],
        vp_target: if seed.is_multiple_of(7) { 8 } else { 10 },
        friendly_robber: seed.is_multiple_of(5),
        open_hands: seed.is_multiple_of(6),
        classic_phases: seed.is_multiple_of(9),
        turn_limit: seed.is_multiple_of(11).then_some(40),
    }
}

fn check_invariants(game: &Game, context: &str) {
    // R3: 19 of each resource across bank and hands.
    let mut total = game.bank();
    for p in game.players() {
        total.add(&p.hand);
    }
    assert_eq!(
        total,
        ResourceSet([19; 5]),
        "{context}: resources not conserved"
    );
    // R3: 25 development cards across deck, hands and played.
    let mut dev = game.deck_size() as u32;
    for p in game.players() {
        dev += p.dev.total() + p.played.total();
    }
    assert_eq!(dev, 25, "{context}: development cards not conserved");
    let mut vertices = 0u64;
    let mut edges = 0u128;
    for (i, p) in game.players().iter().enumerate() {
        // R4: pieces on the board plus supply equal the player's set.
        assert_eq!(
            p.roads.count_ones() + p.roads_left as u32,
            15,
            "{context}: roads"
        );
        // A city returns its settlement to the supply (R25).
        assert_eq!(
            p.settlements.count_ones() + p.settlements_left as u32,
            5,
            "{context}: settlements"
        );
        assert_eq!(
            p.cities.count_ones() + p.cities_left as u32,
            4,
            "{context}: cities"
        );
        assert_eq!(
            p.settlements & p.cities,
            0,
            "{context}: settlement and city on one vertex"
        );
        assert_eq!(
            vertices & p.buildings(),
            0,
            "{context}: two players on one vertex"
        );
        assert_eq!(edges & p.roads, 0, "{context}: two roads on one edge");
        vertices |= p.buildings();
        edges |= p.roads;
        // R39: the incrementally kept trail equals a full recount.
        let opponents = game.occupied_vertices() & !p.buildings();
        assert_eq!(
            p.trail,
            catan_core::rules::awards::longest_trail(p.roads, opponents),
            "{context}: trail of seat {i}"
        );
        // R43: points equal a recount from pieces, awards and cards.
        let seat = Seat(i as u8);
        let recount = p.settlements.count_ones() as u8
            + 2 * p.cities.count_ones() as u8
            + if game.longest_road() == Some(seat) {
                2
            } else {
                0
            }
            + if game.largest_army() == Some(seat) {
                2
            } else {
                0
            }
            + p.dev.get(catan_core::DevCard::VictoryPoint);
        assert_eq!(
            game.victory_points(seat),
            recount,
            "{context}: points of {seat}"
        );
    }
    assert_eq!(
        vertices,
        game.occupied_vertices(),
        "{context}: occupancy mask"
    );
    assert_eq!(edges, game.occupied_edges(), "{context}: road mask");
    if game.phase() != Phase::Finished {
        assert!(
            game.victory_points(game.active()) < game.options().vp_target
                || matches!(game.phase(), Phase::Opening { .. }),
            "{context}: active player at the target but the game goes on (R44)"
        );
    }
}

fn random_resource_set<R: Rng>(rng: &mut R, max: u8) -> ResourceSet {
    let mut s = ResourceSet::EMPTY;
    for r in Resource::ALL {
        if rng.random_bool(0.4) {
            *s.get_mut(r) = rng.random_range(0..=max);
        }
    }
    s
}

fn random_action<R: Rng>(rng: &mut R) -> Action {
    let r = |rng: &mut R| Resource::ALL[rng.random_range(0..5)];
    match rng.random_range(0..18) {
        0 => Action::BuildSettlement {
            vertex: VertexId(rng.random_range(0..60)),
        },
        1 => Action::BuildRoad {
            edge: EdgeId(rng.random_range(0..80)),
        },
        2 => Action::BuildCity {
            vertex: VertexId(rng.random_range(0..60)),
        },
        3 => Action::BuyDevelopmentCard,
        4 => Action::RollDice,
        5 => Action::Discard {
            cards: random_resource_set(rng, 5),
        },
        6 => Action::MoveRobber {
            hex: HexId(rng.random_range(0..21)),
            victim: rng.random_bool(0.5).then(|| Seat(rng.random_range(0..5))),
        },
        7 => Action::PlayKnight {
            hex: HexId(rng.random_range(0..21)),
            victim: rng.random_bool(0.5).then(|| Seat(rng.random_range(0..5))),
        },
        8 => {
            let n = rng.random_range(0..4);
            let edges: Vec<EdgeId> = (0..n).map(|_| EdgeId(rng.random_range(0..75))).collect();
            let mut list = catan_core::EdgeList::new();
            for e in edges {
                list.push(e);
            }
            Action::PlayRoadBuilding { edges: list }
        }
        9 => {
            let mut list = catan_core::ResourceList::new();
            for _ in 0..rng.random_range(0..4) {
                list.push(r(rng));
            }
            Action::PlayInvention { resources: list }
        }
        10 => Action::PlayMonopoly { resource: r(rng) },
        11 => Action::TradeBank {
            give: r(rng),
            get: r(rng),
        },
        12 => Action::OfferTrade {
            give: random_resource_set(rng, 3),
            get: random_resource_set(rng, 3),
            to: rng
                .random_bool(0.5)
                .then(|| SeatSet(rng.random_range(0..32))),
        },
        13 => Action::AcceptTrade {
            offer: OfferId(rng.random_range(0..4)),
        },
        14 => Action::DeclineTrade {
            offer: OfferId(rng.random_range(0..4)),
        },
        15 => Action::ConfirmTrade {
            offer: OfferId(rng.random_range(0..4)),
            with: Seat(rng.random_range(0..5)),
        },
        16 => Action::CancelTrade {
            offer: OfferId(rng.random_range(0..4)),
        },
        _ => Action::EndTurn,
    }
}

/// Plays one game with random legal actions, probing random (mostly
/// illegal) actions along the way. Returns the seat/action log.
fn play_checked(seed: u64, probe_every: u32) -> (Game, Vec<(Seat, Action)>) {
    let options = options_for(seed);
    let (mut game, _) = Game::new(options, seed).expect("valid options");
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9e37_79b9));
    let mut log = Vec::new();
    let mut legal = Vec::new();
    let mut step = 0u32;
    while game.phase() != Phase::Finished && game.turn() <= MAX_TURNS {
        step += 1;
        if probe_every > 0 && step.is_multiple_of(probe_every) {
            probe_illegal(&game, &mut rng, seed, step);
        }
        let mut seat = seat_to_act(&game);
        if game.phase() == Phase::Action {
            // Exercise the player-trade flow too: offers from the active
            // player or counter-offers, and answers from the others.
            if rng.random_bool(0.05) {
                let maker = Seat(rng.random_range(0..game.n_players() as u8));
                let hand = game.player(maker).hand;
                if let Some(give) = Resource::ALL.into_iter().find(|&r| hand.get(r) > 0) {
                    let get = Resource::ALL[rng.random_range(0..5)];
                    let offer = Action::OfferTrade {
                        give: ResourceSet::of(give, 1),
                        get: ResourceSet::of(get, 1),
                        to: None,
                    };
                    if game.apply(maker, offer).is_ok() {
                        log.push((maker, offer));
                        check_invariants(&game, &format!("seed {seed} step {step} offer"));
                    }
                }
            }
            if !game.offers().is_empty() && rng.random_bool(0.5) {
                seat = Seat(rng.random_range(0..game.n_players() as u8));
            }
        }
        game.legal_actions_into(seat, &mut legal);
        if legal.is_empty() && seat != seat_to_act(&game) {
            seat = seat_to_act(&game);
            game.legal_actions_into(seat, &mut legal);
        }
        assert!(
            !legal.is_empty(),
            "seed {seed}: {seat} has no legal action in {:?}",
            game.phase()
        );
        let action = legal[rng.random_range(0..legal.len())];
        if let Err(e) = game.apply(seat, action) {
            panic!("seed {seed} step {step}: legal action {action:?} for {seat} refused: {e}");
        }
        log.push((seat, action));
        check_invariants(&game, &format!("seed {seed} step {step}"));
    }
    (game, log)
}

fn probe_illegal<R: Rng>(game: &Game, rng: &mut R, seed: u64, step: u32) {
    let before = serde_json::to_string(game).expect("state serializes");
    for _ in 0..3 {
        let seat = Seat(rng.random_range(0..game.n_players() as u8 + 1));
        let action = random_action(rng);
        let mut g = game.clone();
        match g.apply(seat, action) {
            Err(e) => {
                assert!(!e.message.is_empty());
                let after = serde_json::to_string(&g).expect("state serializes");
                assert!(
                    after == before,
                    "seed {seed} step {step}: refused {action:?} changed the state"
                );
            }
            Ok(_) => {
                // Anything accepted must be listed, except player offers,
                // whose terms are unbounded and so never listed.
                if !matches!(action, Action::OfferTrade { .. }) {
                    assert!(
                        game.legal_actions(seat).contains(&action.normalized()),
                        "seed {seed} step {step}: accepted {action:?} for {seat} missing from legal_actions"
                    );
                }
            }
        }
    }
}

#[test]
fn r3_r4_r43_random_playouts_keep_invariants_and_legal_actions_are_accepted() {
    let mut finished = 0;
    let mut trades = 0;
    for seed in 0..GAMES {
        let (game, log) = play_checked(seed, 0);
        trades += log
            .iter()
            .filter(|(_, a)| matches!(a, Action::ConfirmTrade { .. }))
            .count();
        if game.phase() == Phase::Finished {
            finished += 1;
            let Some(w) = game.winner() else {
                // Drawn: only at the turn limit, never before it.
                assert_eq!(Some(game.turn()), game.options().turn_limit, "seed {seed}");
                continue;
            };
            assert!(
                game.victory_points(w) >= game.options().vp_target,
                "R44 winner at target"
            );
            assert_eq!(w, game.active(), "R44 wins only on one's own turn");
        }
    }
    assert!(
        finished * 10 >= GAMES * 9,
        "most random games finish: {finished}/{GAMES}"
    );
    assert!(
        trades > 100,
        "the playouts exercise player trades ({trades} confirmed)"
    );
}

#[test]
fn random_illegal_actions_are_refused_without_changing_the_state() {
    for seed in 5000..5120 {
        play_checked(seed, 2);
    }
}

#[test]
fn r10_replaying_seed_and_actions_rebuilds_the_identical_state() {
    for seed in 9000..9100 {
        let (game, log) = play_checked(seed, 0);
        let (mut again, _) = Game::new(options_for(seed), seed).expect("valid options");
        for (seat, action) in log {
            again.apply(seat, action).expect("replayed action accepted");
        }
        assert_eq!(
            serde_json::to_string(&again).expect("serializes"),
            serde_json::to_string(&game).expect("serializes"),
            "seed {seed}: replay differs"
        );
    }
}

#[test]
fn serialized_state_round_trips() {
    let (game, _) = play_checked(77, 0);
    let json = serde_json::to_string(&game).expect("serializes");
    let back: Game = serde_json::from_str(&json).expect("deserializes");
    assert_eq!(serde_json::to_string(&back).expect("serializes"), json);
}
