//! Opening placement and building: settlements, roads, cities, development
//! cards (R4, R12-R15, R21-R25, R31).

use crate::error::ActionError;
use crate::error::refuse;
use crate::event::Event;
use crate::game::wrong_phase;
use crate::geometry::{bits64, bits128, geo};
use crate::ids::{EdgeId, Seat, VertexId};
use crate::resource::{DevCard, Resource, ResourceSet};
use crate::state::{Game, Phase};

impl Game {
    /// Opponents' buildings as seen by `seat` (they cut roads, R23, R39).
    #[inline]
    pub(crate) fn opponent_buildings(&self, seat: Seat) -> u64 {
        self.occupied_vertices & !self.players[seat.index()].buildings()
    }

    /// Vertices where a settlement may stand by the distance rule (R22).
    pub fn distance_ok_mask(&self) -> u64 {
        !self.blocked_vertices & ((1u64 << 54) - 1)
    }

    /// Marks vertex `v` as built on for the distance rule.
    pub(crate) fn block_around(&mut self, v: u8) {
        self.occupied_vertices |= 1u64 << v;
        self.blocked_vertices |= (1u64 << v) | geo().vertex_neighbour_mask[v as usize];
    }

    /// Vertices from which `seat`'s network may grow a road (R23).
    pub(crate) fn road_reach(&self, seat: Seat, roads: u128) -> u64 {
        let p = &self.players[seat.index()];
        let touched = if roads == p.roads {
            p.road_vertices
        } else {
            let g = geo();
            let mut t = 0u64;
            for e in bits128(roads) {
                t |= g.edge_vertex_mask[e as usize];
            }
            t
        };
        p.buildings() | (touched & !self.opponent_buildings(seat))
    }

    /// Free edges where `seat` could build a road given its roads `roads`.
    pub(crate) fn road_spots(&self, seat: Seat, roads: u128, occupied: u128) -> u128 {
        let g = geo();
        let mut m = 0u128;
        for v in bits64(self.road_reach(seat, roads)) {
            m |= g.vertex_edge_mask[v as usize];
        }
        m & !occupied
    }

    /// Checks a road on `edge` against R23 given roads `roads` and `occupied`.
    pub(crate) fn check_road_spot(
        &self,
        seat: Seat,
        edge: EdgeId,
        roads: u128,
        occupied: u128,
    ) -> Result<(), ActionError> {
        check_free_edge(edge, occupied)?;
        if self.road_spots(seat, roads, occupied) & (1u128 << edge.0) == 0 {
            refuse!(
                NotConnected,
                "a road on {edge} must connect to your road, settlement or city (not through an opponent's building)"
            );
        }
        Ok(())
    }

    fn check_settlement_site(&self, vertex: VertexId) -> Result<(), ActionError> {
        check_vertex(vertex)?;
        if self.occupied_vertices & (1u64 << vertex.0) != 0 {
            refuse!(Occupied, "{vertex} is already built on");
        }
        let g = geo();
        for &w in &g.vertex_vertices[vertex.index()] {
            if let Some(owner) = (w != crate::geometry::NONE)
                .then(|| self.vertex_owner(w))
                .flatten()
            {
                if Some(owner) == Some(self.active) {
                    refuse!(
                        DistanceRule,
                        "{vertex} is next to your settlement at vertex {w}"
                    );
                }
                refuse!(DistanceRule, "{vertex} is next to a building at vertex {w}");
            }
        }
        Ok(())
    }

    fn place_settlement(&mut self, seat: Seat, vertex: VertexId, out: &mut Vec<Event>) {
        let bit = 1u64 << vertex.0;
        let harbour = self.vertex_harbour[vertex.index()];
        let p = &mut self.players[seat.index()];
        p.settlements |= bit;
        p.settlements_left -= 1;
        p.harbours |= harbour;
        self.block_around(vertex.0);
        out.push(Event::SettlementBuilt { seat, vertex });
        // A new building may cut opponents' trails through this vertex (R41).
        let g = geo();
        let mut cut = false;
        for i in 0..self.n_players() {
            if i != seat.index()
                && (self.players[i].roads & g.vertex_edge_mask[vertex.index()]).count_ones() >= 2
            {
                self.recount_trail(Seat(i as u8));
                cut = true;
            }
        }
        if cut {
            self.update_longest_road(out);
        }
    }

    /// Puts `seat`'s road on `edge` (already checked) and updates its trail.
    pub(crate) fn place_road(&mut self, seat: Seat, edge: EdgeId, out: &mut Vec<Event>) {
        let bit = 1u128 << edge.0;
        let p = &mut self.players[seat.index()];
        p.add_road(edge.0);
        p.roads_left -= 1;
        self.occupied_edges |= bit;
        self.extend_trail(seat, edge);
        out.push(Event::RoadBuilt { seat, edge });
    }

    pub(crate) fn build_settlement(
        &mut self,
        seat: Seat,
        vertex: VertexId,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.require_active(seat)?;
        match self.phase {
            Phase::Opening {
                step,
                settlement: None,
            } => {
                self.check_settlement_site(vertex)?;
                self.place_settlement(seat, vertex, out);
                if step as usize >= self.n_players() {
                    self.opening_resources(seat, vertex, out);
                }
                self.phase = Phase::Opening {
                    step,
                    settlement: Some(vertex),
                };
                Ok(())
            }
            Phase::Action => {
                self.check_settlement_site(vertex)?;
                let p = &self.players[seat.index()];
                let g = geo();
                if p.roads & g.vertex_edge_mask[vertex.index()] == 0 {
                    refuse!(
                        NotConnected,
                        "a settlement on {vertex} must touch one of your roads"
                    );
                }
                self.buy_piece(
                    seat,
                    p.settlements_left,
                    "settlements",
                    ResourceSet::SETTLEMENT,
                    "a settlement",
                )?;
                self.place_settlement(seat, vertex, out);
                Ok(())
            }
            other => Err(wrong_phase(other)),
        }
    }

    /// R14: one card per productive hex around the second settlement.
    fn opening_resources(&mut self, seat: Seat, vertex: VertexId, out: &mut Vec<Event>) {
        let mut gained = ResourceSet::EMPTY;
        for &h in &geo().vertex_hexes[vertex.index()] {
            if h == crate::geometry::NONE {
                continue;
            }
            if let Some(r) = self.board.hexes[h as usize].terrain.resource()
                && self.bank.get(r) > gained.get(r)
            {
                *gained.get_mut(r) += 1;
            }
        }
        self.bank.sub(&gained);
        self.players[seat.index()].hand.add(&gained);
        out.push(Event::OpeningResources { seat, gained });
    }

    /// Buys one of `seat`'s `pieces`, of which `left` remain: refuses when
    /// none is left, else pays `cost` and marks the turn as one that built
    /// (with classic phases no trade may follow, R24).
    fn buy_piece(
        &mut self,
        seat: Seat,
        left: u8,
        pieces: &str,
        cost: ResourceSet,
        what: &str,
    ) -> Result<(), ActionError> {
        if left == 0 {
            refuse!(NoPiecesLeft, "you have no {pieces} left");
        }
        self.pay(seat, cost, what)?;
        self.built_this_turn = true;
        Ok(())
    }

    /// Takes `cost` from `seat`'s hand into the bank, or refuses.
    pub(crate) fn pay(
        &mut self,
        seat: Seat,
        cost: ResourceSet,
        what: &str,
    ) -> Result<(), ActionError> {
        let hand = &mut self.players[seat.index()].hand;
        if !hand.contains(&cost) {
            let mut missing = cost;
            for r in Resource::ALL {
                *missing.get_mut(r) = cost.get(r).saturating_sub(hand.get(r));
            }
            refuse!(
                InsufficientResources,
                "{what} costs {cost}; you are missing {missing}"
            );
        }
        hand.sub(&cost);
        self.bank.add(&cost);
        Ok(())
    }

    pub(crate) fn build_road(
        &mut self,
        seat: Seat,
        edge: EdgeId,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.require_active(seat)?;
        match self.phase {
            Phase::Opening {
                step,
                settlement: Some(v),
            } => {
                check_free_edge(edge, self.occupied_edges)?;
                if !geo().edge_vertices[edge.index()].contains(&v.0) {
                    refuse!(
                        NotConnected,
                        "the opening road must touch your new settlement at {v}"
                    );
                }
                self.place_road(seat, edge, out);
                self.advance_opening(step, out);
                Ok(())
            }
            Phase::Action => {
                let p = &self.players[seat.index()];
                self.check_road_spot(seat, edge, p.roads, self.occupied_edges)?;
                self.buy_piece(seat, p.roads_left, "roads", ResourceSet::ROAD, "a road")?;
                self.place_road(seat, edge, out);
                self.update_longest_road(out);
                Ok(())
            }
            other => Err(wrong_phase(other)),
        }
    }

    /// The seat placing at opening step `step` (snake order, R12).
    pub fn opening_seat(&self, step: u8) -> Seat {
        let n = self.n_players() as u8;
        let k = if step < n { step } else { 2 * n - 1 - step };
        Seat((self.opener.0 + k) % n)
    }

    fn advance_opening(&mut self, step: u8, out: &mut Vec<Event>) {
        let next = step + 1;
        if next as usize >= 2 * self.n_players() {
            self.phase = Phase::PreRoll;
            self.active = self.opener;
            self.turn = 1;
            out.push(Event::TurnStarted {
                seat: self.active,
                turn: self.turn,
            });
            // R45 at the start of the first turn (only matters for tiny targets).
            self.check_win(out);
        } else {
            self.phase = Phase::Opening {
                step: next,
                settlement: None,
            };
            self.active = self.opening_seat(next);
        }
    }

    pub(crate) fn build_city(
        &mut self,
        seat: Seat,
        vertex: VertexId,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.require_action_phase(seat)?;
        check_vertex(vertex)?;
        let bit = 1u64 << vertex.0;
        let p = &self.players[seat.index()];
        if p.settlements & bit == 0 {
            refuse!(
                NotYourSettlement,
                "a city must replace one of your settlements; {vertex} has none"
            );
        }
        self.buy_piece(seat, p.cities_left, "cities", ResourceSet::CITY, "a city")?;
        let p = &mut self.players[seat.index()];
        p.settlements &= !bit;
        p.cities |= bit;
        p.settlements_left += 1;
        p.cities_left -= 1;
        out.push(Event::CityBuilt { seat, vertex });
        Ok(())
    }

    pub(crate) fn buy_dev_card(
        &mut self,
        seat: Seat,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.require_action_phase(seat)?;
        if self.deck.is_empty() {
            refuse!(DeckEmpty, "the development deck is empty");
        }
        self.pay(seat, ResourceSet::DEV_CARD, "a development card")?;
        self.built_this_turn = true;
        let card = self.deck.pop().unwrap_or(DevCard::Knight);
        let p = &mut self.players[seat.index()];
        p.dev.0[card.index()] += 1;
        p.dev_new.0[card.index()] += 1;
        out.push(Event::DevCardBought {
            seat,
            card: Some(card),
        });
        Ok(())
    }
}

/// Refuses a vertex id outside the board.
fn check_vertex(vertex: VertexId) -> Result<(), ActionError> {
    if !vertex.is_valid() {
        refuse!(
            InvalidVertex,
            "{vertex} does not exist (vertices are 0 to 53)"
        );
    }
    Ok(())
}

/// Refuses an edge id outside the board or one among `occupied`.
fn check_free_edge(edge: EdgeId, occupied: u128) -> Result<(), ActionError> {
    if !edge.is_valid() {
        refuse!(InvalidEdge, "{edge} does not exist (edges are 0 to 71)");
    }
    if occupied & (1u128 << edge.0) != 0 {
        refuse!(Occupied, "{edge} already has a road");
    }
    Ok(())
}
