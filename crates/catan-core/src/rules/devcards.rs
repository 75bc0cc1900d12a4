//! Playing development cards: Knight, Road Building, Invention, Monopoly
//! (R32-R38).

use crate::action::{EdgeList, Pair, ResourceList};
use crate::error::ActionError;
use crate::error::refuse;
use crate::event::Event;
use crate::game::wrong_phase;
use crate::ids::Seat;
use crate::per_seat::PerSeat;
use crate::resource::{DevCard, Resource, ResourceSet};
use crate::rules::production::RobberMove;
use crate::state::{Game, Phase};

impl Game {
    /// Checks that `seat` may play a `card` now (R32, R34).
    pub(crate) fn check_play(&self, seat: Seat, card: DevCard) -> Result<(), ActionError> {
        self.require_active(seat)?;
        if !matches!(self.phase, Phase::PreRoll | Phase::Action) {
            return Err(wrong_phase(self.phase));
        }
        if self.dev_played {
            refuse!(
                DevCardAlreadyPlayed,
                "you have already played a development card this turn"
            );
        }
        let p = &self.players[seat.index()];
        if p.dev.get(card) == 0 {
            refuse!(NoSuchCard, "you have no {card} card");
        }
        if p.playable(card) == 0 {
            refuse!(
                CardBoughtThisTurn,
                "a {card} card bought this turn cannot be played until your next turn"
            );
        }
        Ok(())
    }

    fn spend_card(&mut self, seat: Seat, card: DevCard) {
        let p = &mut self.players[seat.index()];
        p.dev.0[card.index()] -= 1;
        p.played.0[card.index()] += 1;
        self.dev_played = true;
    }

    pub(crate) fn play_knight(
        &mut self,
        seat: Seat,
        to: RobberMove,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.check_play(seat, DevCard::Knight)?;
        self.check_robber(seat, to)?;
        self.spend_card(seat, DevCard::Knight);
        out.push(Event::KnightPlayed { seat });
        self.rob(seat, to, out);
        self.update_largest_army(seat, out);
        Ok(())
    }

    pub(crate) fn play_road_building(
        &mut self,
        seat: Seat,
        edges: EdgeList,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.check_play(seat, DevCard::RoadBuilding)?;
        check_at_most_two(&edges, "Road Building places at most 2 roads")?;
        let p = &self.players[seat.index()];
        if edges.len() > p.roads_left as usize {
            refuse!(NoPiecesLeft, "you have only {} roads left", p.roads_left);
        }
        let (mut roads, mut occupied) = (p.roads, self.occupied_edges);
        for e in edges.iter() {
            self.check_road_spot(seat, e, roads, occupied)?;
            roads |= 1u128 << e.0;
            occupied |= 1u128 << e.0;
        }
        self.spend_card(seat, DevCard::RoadBuilding);
        out.push(Event::RoadBuildingPlayed {
            seat,
            edges: edges.iter().collect(),
        });
        for e in edges.iter() {
            self.place_road(seat, e, out);
        }
        if !edges.is_empty() {
            self.update_longest_road(out);
        }
        Ok(())
    }

    pub(crate) fn play_invention(
        &mut self,
        seat: Seat,
        resources: ResourceList,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.check_play(seat, DevCard::Invention)?;
        check_at_most_two(&resources, "Invention takes at most 2 cards")?;
        let mut taken = ResourceSet::EMPTY;
        for r in resources.iter() {
            *taken.get_mut(r) += 1;
        }
        let bank_total = self.bank.total();
        if resources.len() < 2 && bank_total >= 2 {
            refuse!(
                InvalidInvention,
                "Invention takes 2 cards while the bank holds 2 or more"
            );
        }
        if !self.bank.contains(&taken) {
            refuse!(BankShortage, "the bank does not hold {taken}");
        }
        self.spend_card(seat, DevCard::Invention);
        self.bank.sub(&taken);
        self.players[seat.index()].hand.add(&taken);
        out.push(Event::InventionPlayed { seat, taken });
        Ok(())
    }

    pub(crate) fn play_monopoly(
        &mut self,
        seat: Seat,
        resource: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.check_play(seat, DevCard::Monopoly)?;
        self.spend_card(seat, DevCard::Monopoly);
        let mut taken = PerSeat::new(self.n_players());
        let mut sum = 0u8;
        for (i, p) in self.players.iter_mut().enumerate() {
            if i != seat.index() {
                let c = p.hand.get(resource);
                *p.hand.get_mut(resource) = 0;
                taken[i] = c;
                sum += c;
            }
        }
        *self.players[seat.index()].hand.get_mut(resource) += sum;
        out.push(Event::MonopolyPlayed {
            seat,
            resource,
            taken,
        });
        Ok(())
    }
}

/// Refuses a card's list that named more than two items; `limit` says
/// what the card takes.
fn check_at_most_two<T: Copy>(list: &Pair<T>, limit: &str) -> Result<(), ActionError> {
    if list.too_long() {
        refuse!(TooManyItems, "{limit}, not {}", list.len());
    }
    Ok(())
}
