//! Trading with the bank, harbours and other players (R26-R30, V4).

use crate::action::SeatSet;
use crate::error::ActionError;
use crate::error::refuse;
use crate::event::{Event, Offer};
use crate::ids::{OfferId, Seat};
use crate::resource::{Resource, ResourceSet};
use crate::state::{GENERIC_HARBOUR, Game, Phase};

impl Game {
    /// The best bank rate `seat` has for `r` (R28-R29).
    pub fn bank_rate(&self, seat: Seat, r: Resource) -> u8 {
        let h = self.players[seat.index()].harbours;
        if h & (1 << r.index()) != 0 {
            2
        } else if h & GENERIC_HARBOUR != 0 {
            3
        } else {
            4
        }
    }

    fn check_trading_allowed(&self) -> Result<(), ActionError> {
        if self.options.classic_phases && self.built_this_turn {
            refuse!(
                TradingAfterBuilding,
                "classic phases: no trading after building this turn"
            );
        }
        Ok(())
    }

    /// Refuses unless `seat` is active in its action phase and may still
    /// trade this turn.
    fn require_trading_turn(&self, seat: Seat) -> Result<(), ActionError> {
        self.require_action_phase(seat)?;
        self.check_trading_allowed()
    }

    pub(crate) fn trade_bank(
        &mut self,
        seat: Seat,
        give: Resource,
        get: Resource,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.require_trading_turn(seat)?;
        if give == get {
            refuse!(
                InvalidTrade,
                "a trade cannot give and receive the same type ({give})"
            );
        }
        let rate = self.bank_rate(seat, give);
        let have = self.players[seat.index()].hand.get(give);
        if have < rate {
            refuse!(
                InsufficientResources,
                "your rate for {give} is {rate}:1 and you hold {have}"
            );
        }
        if self.bank.get(get) == 0 {
            refuse!(BankShortage, "the bank has no {get} left");
        }
        let gave = ResourceSet::of(give, rate);
        let got = ResourceSet::of(get, 1);
        let p = &mut self.players[seat.index()];
        p.hand.sub(&gave);
        p.hand.add(&got);
        self.bank.add(&gave);
        self.bank.sub(&got);
        out.push(Event::BankTraded { seat, gave, got });
        Ok(())
    }

    fn check_terms(give: &ResourceSet, get: &ResourceSet) -> Result<(), ActionError> {
        if give.is_empty() || get.is_empty() {
            refuse!(
                InvalidTrade,
                "both sides of a trade must give at least one card"
            );
        }
        if give.overlaps(get) {
            refuse!(
                InvalidTrade,
                "a resource type cannot appear on both sides of a trade"
            );
        }
        Ok(())
    }

    pub(crate) fn offer_trade(
        &mut self,
        seat: Seat,
        give: ResourceSet,
        get: ResourceSet,
        to: Option<SeatSet>,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.phase != Phase::Action {
            refuse!(
                WrongPhase,
                "trades are offered only in the active player's action phase, after the roll"
            );
        }
        self.check_trading_allowed()?;
        Self::check_terms(&give, &get)?;
        let n = self.n_players();
        let others = ((1u8 << n) - 1) & !(1 << seat.0);
        let counter = seat != self.active;
        let to = match to {
            None if counter => SeatSet(1 << self.active.0),
            None => SeatSet(others),
            Some(t) => {
                if t.is_empty() || t.0 & !others != 0 {
                    refuse!(InvalidTrade, "an offer goes to other seats of this game");
                }
                if counter && t.0 != 1 << self.active.0 {
                    refuse!(
                        InvalidTrade,
                        "a counter-offer goes to the active player alone"
                    );
                }
                t
            }
        };
        let hand = self.players[seat.index()].hand;
        if !hand.contains(&give) {
            refuse!(
                InsufficientResources,
                "you cannot offer {give}: you hold {hand}"
            );
        }
        let offer = Offer {
            id: OfferId(self.next_offer),
            maker: seat,
            give,
            get,
            to,
            accepted: if counter {
                SeatSet(1 << seat.0)
            } else {
                SeatSet(0)
            },
            declined: SeatSet(0),
            counter,
        };
        self.next_offer += 1;
        self.offers.push(offer);
        out.push(Event::TradeOffered { offer });
        Ok(())
    }

    fn find_offer(&self, id: OfferId) -> Result<usize, ActionError> {
        match self.offers.iter().position(|o| o.id == id) {
            Some(i) => Ok(i),
            None => refuse!(OfferNotFound, "there is no open {id}"),
        }
    }

    /// The open offer `id` made to `seat`, with its index.
    fn offer_made_to(&self, seat: Seat, id: OfferId) -> Result<(usize, Offer), ActionError> {
        if self.phase != Phase::Action {
            refuse!(WrongPhase, "no trade is open now");
        }
        let i = self.find_offer(id)?;
        let o = self.offers[i];
        if !o.to.contains(seat) {
            refuse!(NotOfferedToYou, "{id} was not made to {seat}");
        }
        Ok((i, o))
    }

    pub(crate) fn accept_trade(
        &mut self,
        seat: Seat,
        id: OfferId,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let (i, o) = self.offer_made_to(seat, id)?;
        if o.counter {
            refuse!(
                InvalidTrade,
                "a counter-offer is completed by the active player with confirm_trade"
            );
        }
        self.check_trading_allowed()?;
        let hand = self.players[seat.index()].hand;
        if !hand.contains(&o.get) {
            refuse!(
                InsufficientResources,
                "you cannot give {}: you hold {hand}",
                o.get
            );
        }
        let o = &mut self.offers[i];
        o.accepted.0 |= 1 << seat.0;
        o.declined.0 &= !(1 << seat.0);
        out.push(Event::TradeAccepted { offer: id, seat });
        Ok(())
    }

    pub(crate) fn decline_trade(
        &mut self,
        seat: Seat,
        id: OfferId,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let (i, o) = self.offer_made_to(seat, id)?;
        out.push(Event::TradeDeclined { offer: id, seat });
        if o.counter {
            // The active player turning down a counter-offer closes it.
            self.offers.remove(i);
            out.push(Event::TradeClosed { offer: id });
        } else {
            let o = &mut self.offers[i];
            o.declined.0 |= 1 << seat.0;
            o.accepted.0 &= !(1 << seat.0);
        }
        Ok(())
    }

    pub(crate) fn confirm_trade(
        &mut self,
        seat: Seat,
        id: OfferId,
        with: Seat,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.require_trading_turn(seat)?;
        let i = self.find_offer(id)?;
        let o = self.offers[i];
        if o.counter {
            if with != o.maker {
                refuse!(
                    NotAccepted,
                    "{id} is {}'s counter-offer; confirm it with that seat",
                    o.maker
                );
            }
        } else if with.index() >= 8 || !o.accepted.contains(with) || with == seat {
            refuse!(NotAccepted, "{with} has not accepted {id}");
        }
        let (maker, taker) = (o.maker, if o.counter { seat } else { with });
        let mh = self.players[maker.index()].hand;
        let th = self.players[taker.index()].hand;
        if !mh.contains(&o.give) {
            refuse!(InsufficientResources, "{maker} no longer holds {}", o.give);
        }
        if !th.contains(&o.get) {
            refuse!(InsufficientResources, "{taker} no longer holds {}", o.get);
        }
        self.offers.remove(i);
        let m = &mut self.players[maker.index()].hand;
        m.sub(&o.give);
        m.add(&o.get);
        let t = &mut self.players[taker.index()].hand;
        t.sub(&o.get);
        t.add(&o.give);
        out.push(Event::Traded {
            offer: id,
            maker,
            taker,
            gave: o.give,
            got: o.get,
        });
        Ok(())
    }

    pub(crate) fn cancel_trade(
        &mut self,
        seat: Seat,
        id: OfferId,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.phase != Phase::Action {
            refuse!(WrongPhase, "no trade is open now");
        }
        let i = self.find_offer(id)?;
        if self.offers[i].maker != seat {
            refuse!(
                NotOfferMaker,
                "only {} may cancel {id}",
                self.offers[i].maker
            );
        }
        self.offers.remove(i);
        out.push(Event::TradeClosed { offer: id });
        Ok(())
    }

    /// Closes every open offer (end of turn, end of game).
    pub(crate) fn close_all_offers(&mut self, out: &mut Vec<Event>) {
        for o in self.offers.drain(..) {
            out.push(Event::TradeClosed { offer: o.id });
        }
    }
}
