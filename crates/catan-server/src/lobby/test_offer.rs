//! A browser-test hook, only on a server started with `--test-hooks`: the
//! `test_bot_offer` message arms a bot to offer one card for one to a named
//! seat once in each of its turns, at its first move in the action phase
//! (a test that missed one offer gets the next turn's). Bots
//! offer only when a card or two short, so without the hook a test of a
//! person answering a bot's offer waits minutes for one. The offer is made
//! and answered through the ordinary paths (the bot's action, its wait for
//! people's answers, its confirmation), so the test still checks them.

use super::actor::{LobbyActor, Slot};
use crate::error::Refusal;
use catan_core::{Action, Phase, Resource, ResourceSet, Seat, SeatSet};
use catan_protocol::Code;

impl LobbyActor {
    /// Arms the bot at `bot` to offer a trade to `to` (see the module docs).
    pub(super) fn arm_test_offer(&mut self, bot: Seat, to: Seat) -> Result<(), Refusal> {
        if !self.env.config().test_hooks {
            return Err(Refusal::new(
                Code::UnknownType,
                "test_bot_offer is a test hook; this server runs without them",
            ));
        }
        if !matches!(self.seats.get(bot.index()), Some(Slot::Bot(_))) {
            return Err(Refusal::new(Code::NotABot, format!("{bot} holds no bot")));
        }
        if bot == to || to.index() >= self.seats.len() {
            return Err(Refusal::new(
                Code::NoSuchSeat,
                "offer to another seat of this lobby",
            ));
        }
        self.test_offer = Some((bot, to, None));
        Ok(())
    }

    /// The armed offer for the bot at `seat`, if it can be made now: one
    /// card of a type the bot holds for one of another type `to` holds, at
    /// most once a turn.
    pub(super) fn take_test_offer(&mut self, seat: Seat) -> Option<Action> {
        let (bot, to, last) = self.test_offer?;
        let game = &self.run.as_ref()?.game;
        if bot != seat
            || game.phase() != Phase::Action
            || game.active() != seat
            || last == Some(game.turn())
            || game.offers().iter().any(|o| o.maker == seat)
        {
            return None;
        }
        let mine = game.players().get(seat.index())?.hand;
        let theirs = game.players().get(to.index())?.hand;
        let (give, get) = Resource::ALL.iter().find_map(|&g| {
            let r = Resource::ALL
                .iter()
                .find(|&&r| r != g && theirs.get(r) > 0)?;
            (mine.get(g) > 0).then_some((g, *r))
        })?;
        self.test_offer = Some((bot, to, Some(game.turn())));
        let mut recipients = SeatSet::default();
        recipients.insert(to);
        Some(Action::OfferTrade {
            give: ResourceSet::of(give, 1),
            get: ResourceSet::of(get, 1),
            to: Some(recipients),
        })
    }
}
