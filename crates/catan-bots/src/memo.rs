//! What a heuristic bot remembers between decisions so as not to work the
//! same things out again: the board's evaluation (a game's board never
//! changes) and the goals open to it (they change only when something is
//! built, a card is bought or an award moves; a playout asks for them at
//! almost every step). Both are pure functions of what they are keyed by,
//! so a bot with a memo plays exactly as one without.

use crate::board_eval::BoardEval;
use crate::ctx::Ctx;
use crate::plan::Plan;
use catan_core::{Board, Seat, View};
use std::sync::Arc;

/// Everything [`crate::plan::candidates`] reads besides the board: the
/// seat, its pieces and theirs, the awards and whether cards are left.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct PlanKey {
    me: Seat,
    opening: bool,
    settlements: u64,
    cities: u64,
    others: u64,
    my_roads: u128,
    all_roads: u128,
    pieces_left: [u8; 3],
    deck_left: bool,
    longest_road: Option<Seat>,
    /// The bot's longest trail, then the longest of anyone else's.
    trails: (u8, u8),
}

impl PlanKey {
    fn of(ctx: &Ctx) -> PlanKey {
        PlanKey {
            me: ctx.me,
            opening: ctx.opening(),
            settlements: ctx.my_settlements,
            cities: ctx.my_cities,
            others: ctx.opp_buildings,
            my_roads: ctx.my_roads,
            all_roads: ctx.all_roads,
            pieces_left: ctx.pieces_left(),
            deck_left: ctx.view.deck_size > 0,
            longest_road: ctx.view.longest_road,
            trails: (
                ctx.me_view().map_or(0, |p| p.longest_trail),
                ctx.opponents().map(|p| p.longest_trail).max().unwrap_or(0),
            ),
        }
    }
}

/// The last board and goals a bot worked out (see the module docs).
#[derive(Default)]
pub struct Memo {
    board: Option<(Board, Arc<BoardEval>)>,
    plans: Option<(PlanKey, Vec<Plan>)>,
    /// The key of the last context whose goals were not in the memo (so
    /// that [`Memo::keep`] neither reckons it again nor copies goals back
    /// that came from the memo).
    missed: Option<PlanKey>,
}

impl Memo {
    /// The context of `view`, with the board's evaluation and the goals
    /// taken from the memo where they still hold.
    pub fn ctx<'a>(&mut self, view: &'a View) -> Ctx<'a> {
        let eval = match &self.board {
            Some((b, e)) if *b == view.board => e.clone(),
            _ => {
                let e = Arc::new(BoardEval::new(&view.board));
                self.board = Some((view.board.clone(), e.clone()));
                // Goals of another board say nothing of this one.
                self.plans = None;
                e
            }
        };
        let ctx = Ctx::with_eval(view, eval);
        let key = PlanKey::of(&ctx);
        self.missed = None;
        match &self.plans {
            Some((k, plans)) if *k == key => {
                // A fresh context's cell is empty, so this cannot fail.
                let _ = ctx.plans.set(plans.clone());
            }
            _ => self.missed = Some(key),
        }
        ctx
    }

    /// Remembers the goals the decision of `ctx` (the last context
    /// [`Memo::ctx`] made) worked out, if it did.
    pub fn keep(&mut self, ctx: &Ctx) {
        if let Some(key) = self.missed.take()
            && let Some(plans) = ctx.plans.get()
        {
            self.plans = Some((key, plans.clone()));
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::arena::owes_answer;
    use crate::{Bot, HeuristicBot};
    use catan_core::playout::seat_to_act;
    use catan_core::{Game, GameOptions, Phase, Viewer};

    /// At every decision of whole games of `normal` bots, a memo that has
    /// seen the seat's earlier decisions gives the same board evaluation
    /// and goals as working them out afresh, and it does skip the work in
    /// a good share of them (else this would test nothing).
    #[test]
    fn a_memo_gives_what_working_it_out_afresh_gives() {
        let (mut hits, mut misses) = (0u32, 0u32);
        for seed in 0..6u64 {
            let (mut game, _) = Game::new(GameOptions::default(), seed).unwrap();
            let mut bots: Vec<HeuristicBot> = (0..4).map(|i| HeuristicBot::new(seed + i)).collect();
            let mut memos: Vec<Memo> = (0..4).map(|_| Memo::default()).collect();
            let mut legal = Vec::new();
            while game.phase() != Phase::Finished && game.turn() < 400 {
                let seat = owes_answer(&game).unwrap_or_else(|| seat_to_act(&game));
                game.legal_actions_into(seat, &mut legal);
                let view = game.view(Viewer::Seat(seat));
                let memo = &mut memos[seat.index()];
                let ctx = memo.ctx(&view);
                if ctx.plans.get().is_some() {
                    hits += 1;
                } else {
                    misses += 1;
                }
                let fresh = Ctx::new(&view);
                assert_eq!(
                    ctx.plans(),
                    fresh.plans(),
                    "seed {seed}, turn {}",
                    view.turn
                );
                assert_eq!(ctx.eval.production, fresh.eval.production);
                assert_eq!(ctx.eval.harbour, fresh.eval.harbour);
                memo.keep(&ctx);
                let a = bots[seat.index()].choose(&view, &legal).unwrap();
                if game.apply(seat, a).is_err() {
                    // An offer its hand cannot pay: end the turn instead.
                    game.apply(seat, legal[0]).unwrap();
                }
            }
        }
        assert!(hits > 100 && misses > 100, "hits {hits}, misses {misses}");
    }
}
