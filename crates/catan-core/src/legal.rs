//! Every legal action for a seat at this moment, like a chess move generator.
//!
//! Player offers have unbounded terms, so they are not listed; responses to
//! open offers (accept, decline, confirm, cancel) and bank trades are.

use crate::action::{Action, EdgeList, ResourceList};
use crate::geometry::{bits64, bits128, geo};
use crate::ids::{EdgeId, HexId, Seat, VertexId};
use crate::resource::{DevCard, Resource, ResourceSet};
use crate::state::{Game, Phase};

impl Game {
    /// All legal actions for `seat` now.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions_into(seat, &mut v);
        v
    }

    /// Like [`Game::legal_actions`], into a reused buffer (cleared first).
    pub fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if seat.index() >= self.n_players() {
            return;
        }
        match self.phase {
            Phase::Finished => {}
            Phase::Opening { settlement, .. } => {
                if seat != self.active {
                    return;
                }
                match settlement {
                    None => {
                        for v in bits64(self.distance_ok_mask()) {
                            out.push(Action::BuildSettlement {
                                vertex: VertexId(v),
                            });
                        }
                    }
                    Some(v) => {
                        let g = geo();
                        for e in bits128(g.vertex_edge_mask[v.index()] & !self.occupied_edges) {
                            out.push(Action::BuildRoad { edge: EdgeId(e) });
                        }
                    }
                }
            }
            Phase::Discard => {
                let owed = self.discards[seat.index()];
                if owed > 0 {
                    let hand = self.players[seat.index()].hand;
                    discard_choices(hand, owed as u32, 0, ResourceSet::EMPTY, out);
                }
            }
            Phase::MoveRobber => {
                if seat == self.active {
                    self.robber_moves(seat, out, |hex, victim| Action::MoveRobber { hex, victim });
                }
            }
            Phase::PreRoll => {
                if seat == self.active {
                    out.push(Action::RollDice);
                    self.dev_card_plays(seat, out);
                }
            }
            Phase::Action => {
                if seat == self.active {
                    self.active_actions(seat, out);
                } else {
                    self.trade_responses(seat, out);
                }
            }
        }
    }

    fn robber_moves(
        &self,
        seat: Seat,
        out: &mut Vec<Action>,
        make: impl Fn(HexId, Option<Seat>) -> Action,
    ) {
        let targets = self.robber_targets();
        for h in 0..19u8 {
            if targets & (1 << h) == 0 {
                continue;
            }
            let can = self.robbable(seat, HexId(h));
            if can == 0 {
                out.push(make(HexId(h), None));
            } else {
                for s in 0..self.n_players() as u8 {
                    if can & (1 << s) != 0 {
                        out.push(make(HexId(h), Some(Seat(s))));
                    }
                }
            }
        }
    }

    fn dev_card_plays(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.dev_played {
            return;
        }
        let p = &self.players[seat.index()];
        if p.playable(DevCard::Knight) > 0 {
            self.robber_moves(seat, out, |hex, victim| Action::PlayKnight { hex, victim });
        }
        if p.playable(DevCard::RoadBuilding) > 0 {
            out.push(Action::PlayRoadBuilding {
                edges: EdgeList::new(),
            });
            if p.roads_left >= 1 {
                let first = self.road_spots(seat, p.roads, self.occupied_edges);
                for e1 in bits128(first) {
                    out.push(Action::PlayRoadBuilding {
                        edges: EdgeList::from_slice(&[EdgeId(e1)]),
                    });
                    if p.roads_left >= 2 {
                        let roads = p.roads | 1u128 << e1;
                        let occ = self.occupied_edges | 1u128 << e1;
                        for e2 in bits128(self.road_spots(seat, roads, occ)) {
                            out.push(Action::PlayRoadBuilding {
                                edges: EdgeList::from_slice(&[EdgeId(e1), EdgeId(e2)]),
                            });
                        }
                    }
                }
            }
        }
        if p.playable(DevCard::Invention) > 0 {
            let bank = self.bank;
            if bank.total() >= 2 {
                for (i, a) in Resource::ALL.into_iter().enumerate() {
                    for b in Resource::ALL.into_iter().skip(i) {
                        let ok = if a == b {
                            bank.get(a) >= 2
                        } else {
                            bank.get(a) >= 1 && bank.get(b) >= 1
                        };
                        if ok {
                            out.push(Action::PlayInvention {
                                resources: ResourceList::from_slice(&[a, b]),
                            });
                        }
                    }
                }
            } else {
                let rs: Vec<Resource> = bank.iter().map(|(r, _)| r).collect();
                out.push(Action::PlayInvention {
                    resources: ResourceList::from_slice(&rs),
                });
            }
        }
        if p.playable(DevCard::Monopoly) > 0 {
            for r in Resource::ALL {
                out.push(Action::PlayMonopoly { resource: r });
            }
        }
    }

    fn active_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        let p = &self.players[seat.index()];
        let hand = p.hand;
        out.push(Action::EndTurn);
        if p.roads_left > 0 && hand.contains(&ResourceSet::ROAD) {
            for e in bits128(self.road_spots(seat, p.roads, self.occupied_edges)) {
                out.push(Action::BuildRoad { edge: EdgeId(e) });
            }
        }
        if p.settlements_left > 0 && hand.contains(&ResourceSet::SETTLEMENT) {
            for v in bits64(p.road_vertices & self.distance_ok_mask()) {
                out.push(Action::BuildSettlement {
                    vertex: VertexId(v),
                });
            }
        }
        if p.cities_left > 0 && hand.contains(&ResourceSet::CITY) {
            for v in bits64(p.settlements) {
                out.push(Action::BuildCity {
                    vertex: VertexId(v),
                });
            }
        }
        if !self.deck.is_empty() && hand.contains(&ResourceSet::DEV_CARD) {
            out.push(Action::BuyDevelopmentCard);
        }
        self.dev_card_plays(seat, out);
        if self.options.classic_phases && self.built_this_turn {
            return;
        }
        for give in Resource::ALL {
            if hand.get(give) >= self.bank_rate(seat, give) {
                for get in Resource::ALL {
                    if get != give && self.bank.get(get) > 0 {
                        out.push(Action::TradeBank { give, get });
                    }
                }
            }
        }
        for o in &self.offers {
            if o.maker == seat {
                out.push(Action::CancelTrade { offer: o.id });
            }
            if o.counter {
                out.push(Action::DeclineTrade { offer: o.id });
            }
            for w in o.accepted.iter() {
                let (maker, taker) = if o.counter { (w, seat) } else { (seat, w) };
                if w != seat
                    && self.players[maker.index()].hand.contains(&o.give)
                    && self.players[taker.index()].hand.contains(&o.get)
                {
                    out.push(Action::ConfirmTrade {
                        offer: o.id,
                        with: w,
                    });
                }
            }
        }
    }

    fn trade_responses(&self, seat: Seat, out: &mut Vec<Action>) {
        let blocked = self.options.classic_phases && self.built_this_turn;
        for o in &self.offers {
            if o.maker == seat {
                out.push(Action::CancelTrade { offer: o.id });
            } else if o.to.contains(seat) {
                if !o.counter && !blocked && self.players[seat.index()].hand.contains(&o.get) {
                    out.push(Action::AcceptTrade { offer: o.id });
                }
                out.push(Action::DeclineTrade { offer: o.id });
            }
        }
    }
}

/// Every way to discard `left` more cards from `hand`, types in order.
fn discard_choices(
    hand: ResourceSet,
    left: u32,
    from: usize,
    acc: ResourceSet,
    out: &mut Vec<Action>,
) {
    if left == 0 {
        out.push(Action::Discard { cards: acc });
        return;
    }
    if from == 5 {
        return;
    }
    let rest: u32 = hand.0[from + 1..].iter().map(|&c| c as u32).sum();
    let max = (hand.0[from] as u32).min(left);
    for k in 0..=max {
        if left - k > rest {
            continue;
        }
        let mut next = acc;
        next.0[from] = k as u8;
        discard_choices(hand, left - k, from + 1, next, out);
    }
}
