//! Arbitrary actions, and arbitrary JSON read as actions, at positions
//! reached by random legal play. For every probe: the engine never panics;
//! a refused action changes nothing (the state is equal to what it was);
//! an accepted action was in the seat's legal list (player offers, never
//! listed, excepted). Ids, seats and seat sets range over their whole types,
//! far beyond the board's ids.

#![no_main]

use arbitrary::{Result, Unstructured};
use catan_core::{
    Action, BoardMode, EdgeId, EdgeList, Game, GameOptions, HexId, OfferId, Phase, Resource,
    ResourceList, ResourceSet, Seat, SeatSet, VertexId,
};
use libfuzzer_sys::fuzz_target;

fn resource(u: &mut Unstructured) -> Result<Resource> {
    Ok(Resource::ALL[usize::from(u.int_in_range(0..=4u8)?)])
}

fn resources(u: &mut Unstructured) -> Result<ResourceSet> {
    let mut s = ResourceSet::EMPTY;
    for r in Resource::ALL {
        *s.get_mut(r) = u.arbitrary()?;
    }
    Ok(s)
}

fn action(u: &mut Unstructured) -> Result<Action> {
    let victim = |u: &mut Unstructured| -> Result<Option<Seat>> {
        Ok(if u.arbitrary()? { Some(Seat(u.arbitrary()?)) } else { None })
    };
    Ok(match u.int_in_range(0..=17u8)? {
        0 => Action::BuildSettlement { vertex: VertexId(u.arbitrary()?) },
        1 => Action::BuildRoad { edge: EdgeId(u.arbitrary()?) },
        2 => Action::BuildCity { vertex: VertexId(u.arbitrary()?) },
        3 => Action::BuyDevelopmentCard,
        4 => Action::RollDice,
        5 => Action::Discard { cards: resources(u)? },
        6 => Action::MoveRobber { hex: HexId(u.arbitrary()?), victim: victim(u)? },
        7 => Action::PlayKnight { hex: HexId(u.arbitrary()?), victim: victim(u)? },
        8 => {
            let mut edges = EdgeList::new();
            for _ in 0..u.int_in_range(0..=4u8)? {
                edges.push(EdgeId(u.arbitrary()?));
            }
            Action::PlayRoadBuilding { edges }
        }
        9 => {
            let mut list = ResourceList::new();
            for _ in 0..u.int_in_range(0..=4u8)? {
                list.push(resource(u)?);
            }
            Action::PlayInvention { resources: list }
        }
        10 => Action::PlayMonopoly { resource: resource(u)? },
        11 => Action::TradeBank { give: resource(u)?, get: resource(u)? },
        12 => Action::OfferTrade {
            give: resources(u)?,
            get: resources(u)?,
            to: if u.arbitrary()? { Some(SeatSet(u.arbitrary()?)) } else { None },
        },
        13 => Action::AcceptTrade { offer: OfferId(u.arbitrary()?) },
        14 => Action::DeclineTrade { offer: OfferId(u.arbitrary()?) },
        15 => Action::ConfirmTrade { offer: OfferId(u.arbitrary()?), with: Seat(u.arbitrary()?) },
        16 => Action::CancelTrade { offer: OfferId(u.arbitrary()?) },
        _ => Action::EndTurn,
    })
}

/// Applies one probe to a copy of `game` and checks the engine's promises.
fn probe(game: &Game, seat: Seat, a: Action) {
    let mut g = game.clone();
    match g.apply(seat, a) {
        Err(e) => {
            assert!(!e.message.is_empty(), "a refusal explains itself");
            assert!(g == *game, "refused {a:?} for {seat} changed the state");
        }
        Ok(_) => {
            if !matches!(a, Action::OfferTrade { .. }) {
                assert!(
                    game.legal_actions(seat).contains(&a.normalized()),
                    "accepted {a:?} for {seat}, which was not listed"
                );
            }
        }
    }
}

fn run(u: &mut Unstructured) -> Result<()> {
    let options = GameOptions {
        players: if u.arbitrary()? { 3 } else { 4 },
        board: BoardMode::Random,
        friendly_robber: u.arbitrary()?,
        open_hands: u.arbitrary()?,
        classic_phases: u.arbitrary()?,
        ..GameOptions::default()
    };
    let Ok((mut game, _)) = Game::new(options, u.arbitrary()?) else {
        return Ok(());
    };
    // Walk to a position by legal moves chosen from the input.
    let steps = u.int_in_range(0..=400u16)?;
    for _ in 0..steps {
        if game.phase() == Phase::Finished {
            break;
        }
        let seat = catan_core::playout::seat_to_act(&game);
        let legal = game.legal_actions(seat);
        if legal.is_empty() {
            break;
        }
        let pick = usize::from(u.arbitrary::<u16>()?) % legal.len();
        if game.apply(seat, legal[pick]).is_err() {
            panic!("a listed action was refused: {:?}", legal[pick]);
        }
    }
    // Then probe with arbitrary actions, structured and as JSON text.
    while !u.is_empty() {
        let seat = Seat(u.arbitrary()?);
        if u.arbitrary()? {
            probe(&game, seat, action(u)?);
        } else {
            let text: &str = u.arbitrary()?;
            if let Ok(a) = serde_json::from_str::<Action>(text) {
                probe(&game, seat, a);
            }
        }
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
