//! The conservative stand-in that acts for an absent or slow person.
//!
//! It does only what keeps the game moving for one step: roll before the
//! roll, discard at random, move the robber to a random legal hex, end the
//! turn. It never trades or builds, except during the opening placement,
//! where the game cannot go on without a settlement and road, so it places
//! them at random legal spots. Like every bot it sees only the seat's view
//! and legal actions, never the game itself.

use catan_core::playout::random_cards;
use catan_core::{Action, PhaseName, View, Viewer};
use rand::Rng;

/// The stand-in's action for the view's seat, chosen from `legal` (the
/// seat's legal actions), or `None` when the game does not wait for that seat.
pub fn stand_in_action<R: Rng>(view: &View, legal: &[Action], rng: &mut R) -> Option<Action> {
    let Viewer::Seat(seat) = view.viewer else {
        return None;
    };
    let is_legal = |a: &Action| legal.contains(a);
    match view.phase {
        PhaseName::PreRoll => Some(Action::RollDice).filter(is_legal),
        PhaseName::Action => Some(Action::EndTurn).filter(is_legal),
        PhaseName::Discard => {
            let owed = *view.discards_owed.get(seat.index())?;
            let hand = view.players.get(seat.index())?.resources?;
            (owed > 0).then(|| Action::Discard {
                cards: random_cards(hand, u32::from(owed), rng),
            })
        }
        PhaseName::MoveRobber | PhaseName::Opening => {
            let placements: Vec<&Action> = legal
                .iter()
                .filter(|a| {
                    matches!(
                        a,
                        Action::MoveRobber { .. }
                            | Action::BuildSettlement { .. }
                            | Action::BuildRoad { .. }
                    )
                })
                .collect();
            if placements.is_empty() {
                None
            } else {
                Some(*placements[rng.random_range(0..placements.len())])
            }
        }
        PhaseName::Finished => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catan_core::playout::{seat_to_act, seats_to_act};
    use catan_core::{Game, GameOptions, Phase, ResourceSet};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The stand-in's action for `seat` in `game`, through the seat's view.
    fn act_for(game: &Game, seat: catan_core::Seat, rng: &mut ChaCha8Rng) -> Option<Action> {
        stand_in_action(
            &game.view(Viewer::Seat(seat)),
            &game.legal_actions(seat),
            rng,
        )
    }

    /// Plays whole games with only the stand-in: every action it picks must be
    /// accepted, and it must never build after the opening or trade.
    #[test]
    fn stand_in_actions_are_legal_and_conservative() {
        for seed in 0..5 {
            let (mut game, _) = Game::new(GameOptions::default(), seed).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut discards = 0;
            for _ in 0..400 {
                if game.phase() == Phase::Finished {
                    break;
                }
                let seat = seat_to_act(&game);
                let opening = matches!(game.phase(), Phase::Opening { .. });
                let a = act_for(&game, seat, &mut rng).expect("the game waits for seat");
                if !opening {
                    assert!(
                        matches!(
                            a,
                            Action::RollDice
                                | Action::EndTurn
                                | Action::Discard { .. }
                                | Action::MoveRobber { .. }
                        ),
                        "{a:?}"
                    );
                }
                if matches!(a, Action::Discard { .. }) {
                    discards += 1;
                }
                game.apply(seat, a).unwrap();
            }
            assert!(game.turn() > 50);
            assert!(discards > 0, "seed {seed}: a discard was exercised");
        }
    }

    /// A seat the game does not wait for gets no action (R17: only the active
    /// player moves outside discards).
    #[test]
    fn no_stand_in_for_a_seat_not_awaited() {
        let (game, _) = Game::new(GameOptions::default(), 3).unwrap();
        let other = game.next_seat(game.active());
        assert!(!seats_to_act(&game).contains(&other));
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert_eq!(act_for(&game, other, &mut rng), None);
    }

    #[test]
    fn random_cards_takes_exactly_n_from_the_hand() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let hand = ResourceSet([3, 0, 2, 1, 4]);
        for _ in 0..50 {
            let d = random_cards(hand, 5, &mut rng);
            assert_eq!(d.total(), 5);
            assert!(hand.contains(&d));
        }
    }
}
