//! How long a bot's trade offer to people stays open.
//!
//! A bot decides in well under a second, a person needs several to read an
//! offer and answer it. So while the active bot has an open offer that a
//! connected person it was made to has not answered yet, the bot is not asked
//! for its next move until that person answers or the server's
//! `bot_offer_wait_ms` has passed since the offer was made (whichever comes
//! first). Then the bot confirms with someone who accepted or withdraws the
//! offer. Bots it was made to answer in the meantime, at the lobby's bot
//! pace, and a person who cannot pay (fewer cards than the offer asks) or is
//! not connected is not waited for: an offer nobody can still answer is not
//! kept open.

use super::actor::{LobbyActor, Slot};
use catan_core::{Offer, OfferId, Phase, Seat};
use std::time::Duration;
use tokio::time::Instant;

/// When each open offer was first seen open.
#[derive(Default)]
pub(super) struct OfferClock {
    opened: Vec<(OfferId, Instant)>,
}

impl OfferClock {
    /// Starts the clock of offers not seen before and forgets closed ones.
    fn sync(&mut self, offers: &[Offer], now: Instant) {
        self.opened
            .retain(|(id, _)| offers.iter().any(|o| o.id == *id));
        for o in offers {
            if !self.opened.iter().any(|(id, _)| *id == o.id) {
                self.opened.push((o.id, now));
            }
        }
    }

    /// When `offer` was first seen open.
    fn opened(&self, offer: OfferId) -> Option<Instant> {
        self.opened
            .iter()
            .find(|(id, _)| *id == offer)
            .map(|(_, t)| *t)
    }
}

impl LobbyActor {
    /// If the bot at `seat` is the active player waiting for people to answer
    /// its offer: when the wait ends. `None` when it may act at its usual pace.
    pub(super) fn bot_offer_wait(&mut self, seat: Seat) -> Option<Instant> {
        let now = Instant::now();
        let run = self.run.as_ref()?;
        let game = &run.game;
        self.offer_clock.sync(game.offers(), now);
        if game.phase() != Phase::Action || game.active() != seat {
            return None;
        }
        // A counter-offer made to the bot is a person waiting for it.
        if game
            .offers()
            .iter()
            .any(|o| o.counter && o.to.contains(seat))
        {
            return None;
        }
        let wait = Duration::from_millis(self.env.config().bot_offer_wait_ms);
        game.offers()
            .iter()
            .filter(|o| o.maker == seat && !o.counter)
            .filter(|o| o.to.iter().any(|s| self.person_may_answer(o, s)))
            .filter_map(|o| self.offer_clock.opened(o.id))
            .map(|t| t + wait)
            .filter(|&t| t > now)
            .max()
    }

    /// Whether `s` is a connected person who has not answered `offer` and
    /// holds at least as many cards as it asks for.
    fn person_may_answer(&self, offer: &Offer, s: Seat) -> bool {
        let Some(run) = &self.run else { return false };
        let human = matches!(self.seats.get(s.index()), Some(Slot::Human(_)));
        let can_pay = run
            .game
            .players()
            .get(s.index())
            .is_some_and(|p| p.hand.total() >= offer.get.total());
        human
            && can_pay
            && self.conns.seat_conn(s).is_some()
            && !offer.accepted.contains(s)
            && !offer.declined.contains(s)
    }
}
