//! Trading: bank and harbour trades toward the plan (giving only spare
//! cards), one player offer per turn, and answers to offers made to the bot.

use crate::board_eval::{missing, spare};
use crate::ctx::Ctx;
use crate::network::weights;
use crate::plan::{self, Plan};
use catan_core::{Action, Offer, Resource, ResourceSet, SeatSet};

/// A bank trade that brings the plan closer, giving only spare cards. Trades
/// only when the plan can be finished this turn or the hand risks a 7.
pub fn bank(ctx: &Ctx, legal: &[Action], plan: &Plan) -> Option<Action> {
    let miss = missing(&plan.cost, &ctx.hand);
    if miss == 0 {
        return None;
    }
    let rates = ctx.rates();
    let extra = spare(&ctx.hand, &plan.cost);
    let trades: u32 = (0..5).map(|i| (extra.0[i] / rates[i].max(2)) as u32).sum();
    if trades < miss && ctx.hand.total() <= 7 {
        return None;
    }
    let get = Resource::ALL
        .into_iter()
        .filter(|&r| plan.cost.get(r) > ctx.hand.get(r) && ctx.view.bank.get(r) > 0)
        .max_by_key(|&r| plan.cost.get(r) - ctx.hand.get(r))?;
    let give = Resource::ALL
        .into_iter()
        .filter(|&r| r != get && extra.get(r) >= rates[r.index()])
        .max_by_key(|&r| {
            (
                extra.get(r) - rates[r.index()],
                std::cmp::Reverse(rates[r.index()]),
            )
        })?;
    let action = Action::TradeBank { give, get };
    legal.contains(&action).then_some(action)
}

/// A one-for-one offer of a spare card for a missing one, to every opponent
/// not about to win. `None` when there is nothing sensible to offer.
pub fn offer(ctx: &Ctx, plan: &Plan) -> Option<Action> {
    if ctx.view.options.classic_phases {
        // Trading after building is refused there and the bot may have built.
        return None;
    }
    let miss = missing(&plan.cost, &ctx.hand);
    if miss == 0 || miss > 2 {
        return None;
    }
    let get = Resource::ALL
        .into_iter()
        .find(|&r| plan.cost.get(r) > ctx.hand.get(r))?;
    let extra = spare(&ctx.hand, &plan.cost);
    let w = weights(ctx);
    let give = Resource::ALL
        .into_iter()
        .filter(|&r| extra.get(r) > 0 && r != get)
        .max_by(|a, b| {
            let ka = extra.get(*a) as f32 - w[a.index()];
            let kb = extra.get(*b) as f32 - w[b.index()];
            ka.total_cmp(&kb)
        })?;
    let mut to = SeatSet(0);
    for p in &ctx.view.players {
        if p.seat != ctx.me && !ctx.near_win(p.seat) && p.resource_count > 0 {
            to.insert(p.seat);
        }
    }
    (!to.is_empty()).then_some(Action::OfferTrade {
        give: ResourceSet::of(give, 1),
        get: ResourceSet::of(get, 1),
        to: Some(to),
    })
}

/// Whether taking `receive` for `pay` helps the bot: it must raise the
/// plan score and must not cost a card the current plan still needs.
pub fn good_trade(ctx: &Ctx, receive: &ResourceSet, pay: &ResourceSet) -> bool {
    if !ctx.hand.contains(pay) {
        return false;
    }
    let (plans, best) = plan::current(ctx);
    let mut after = ctx.hand;
    after.sub(pay);
    after.add(receive);
    if let Some(b) = best
        && missing(&b.cost, &after) > missing(&b.cost, &ctx.hand)
    {
        return false;
    }
    plan::hand_worth(ctx, &plans, &after) > plan::hand_worth(ctx, &plans, &ctx.hand) + 1e-3
}

/// The active player's handling of open offers: confirm its own offer with
/// whoever accepted (the one with fewest points), cancel it otherwise, and
/// take or turn down counter-offers.
pub fn handle_own(ctx: &Ctx, legal: &[Action]) -> Option<Action> {
    for o in &ctx.view.offers {
        if o.maker == ctx.me {
            let confirm = legal
                .iter()
                .filter(|a| matches!(a, Action::ConfirmTrade { offer, with } if *offer == o.id && !ctx.near_win(*with)))
                .min_by_key(|a| match a {
                    Action::ConfirmTrade { with, .. } => ctx.points(*with),
                    _ => u8::MAX,
                });
            if let Some(a) = confirm {
                return Some(*a);
            }
            return Some(Action::CancelTrade { offer: o.id });
        }
        if o.counter && o.to.contains(ctx.me) {
            let confirm = Action::ConfirmTrade {
                offer: o.id,
                with: o.maker,
            };
            // The maker gives `give`; the bot pays `get`.
            if !ctx.near_win(o.maker)
                && good_trade(ctx, &o.give, &o.get)
                && legal.contains(&confirm)
            {
                return Some(confirm);
            }
            return Some(Action::DeclineTrade { offer: o.id });
        }
    }
    None
}

/// A non-active seat's answer to the offers made to it: the first offer it
/// has not answered yet, else its standing answer to the first one.
pub fn respond(ctx: &Ctx, legal: &[Action]) -> Option<Action> {
    let mine = |o: &&Offer| !o.counter && o.to.contains(ctx.me);
    let unanswered = ctx
        .view
        .offers
        .iter()
        .filter(mine)
        .find(|o| !o.accepted.contains(ctx.me) && !o.declined.contains(ctx.me));
    let o = unanswered.or_else(|| ctx.view.offers.iter().find(mine))?;
    let accept = Action::AcceptTrade { offer: o.id };
    if !ctx.near_win(o.maker) && good_trade(ctx, &o.give, &o.get) && legal.contains(&accept) {
        Some(accept)
    } else {
        Some(Action::DeclineTrade { offer: o.id })
    }
}
