//! The conservative stand-in that acts for an absent or slow player.
//!
//! It does only what keeps the game moving for one step: roll before the
//! roll, discard at random, move the robber to a random legal hex, end the
//! turn. It never trades or builds, except during the opening placement,
//! where the game cannot go on without a settlement and road, so it places
//! them at random legal spots.

use catan_core::{Action, Game, Phase, ResourceSet, Seat};
use rand::Rng;

/// Which seats the game waits for now: the seats owing discards, or the
/// active seat. Empty once the game is over.
pub fn seats_to_act(game: &Game) -> Vec<Seat> {
    match game.phase {
        Phase::Finished => Vec::new(),
        Phase::Discard => game
            .discards
            .iter()
            .enumerate()
            .filter(|(_, d)| **d > 0)
            .map(|(i, _)| Seat(i as u8))
            .collect(),
        _ => vec![game.active],
    }
}

/// The stand-in's action for `seat`, or `None` if the game does not wait
/// for that seat.
pub fn stand_in_action<R: Rng>(game: &Game, seat: Seat, rng: &mut R) -> Option<Action> {
    if !seats_to_act(game).contains(&seat) {
        return None;
    }
    match game.phase {
        Phase::Finished => None,
        Phase::PreRoll => Some(Action::RollDice),
        Phase::Action => Some(Action::EndTurn),
        Phase::Discard => {
            let owed = *game.discards.get(seat.index())?;
            Some(Action::Discard {
                cards: random_cards(game.players.get(seat.index())?.hand, owed as u32, rng),
            })
        }
        Phase::MoveRobber | Phase::Opening { .. } => {
            let legal: Vec<Action> = game
                .legal_actions(seat)
                .into_iter()
                .filter(|a| {
                    matches!(
                        a,
                        Action::MoveRobber { .. }
                            | Action::BuildSettlement { .. }
                            | Action::BuildRoad { .. }
                    )
                })
                .collect();
            if legal.is_empty() {
                None
            } else {
                Some(legal[rng.random_range(0..legal.len())])
            }
        }
    }
}

/// `n` cards drawn uniformly at random from `hand`.
fn random_cards<R: Rng>(mut hand: ResourceSet, n: u32, rng: &mut R) -> ResourceSet {
    let mut out = ResourceSet::EMPTY;
    for _ in 0..n {
        let total = hand.total();
        if total == 0 {
            break;
        }
        let Some(r) = hand.nth_card(rng.random_range(0..total)) else {
            break;
        };
        *hand.get_mut(r) -= 1;
        *out.get_mut(r) += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use catan_core::playout::seat_to_act;
    use catan_core::{GameOptions, Phase};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Plays whole games with only the stand-in: every action it picks must be
    /// accepted, and it must never build after the opening or trade.
    #[test]
    fn stand_in_actions_are_legal_and_conservative() {
        for seed in 0..5 {
            let (mut game, _) = Game::new(GameOptions::default(), seed).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..400 {
                if game.phase == Phase::Finished {
                    break;
                }
                let seat = seat_to_act(&game);
                let opening = matches!(game.phase, Phase::Opening { .. });
                let a = stand_in_action(&game, seat, &mut rng).expect("the game waits for seat");
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
                game.apply(seat, a).unwrap();
            }
            assert!(game.turn > 50);
        }
    }

    #[test]
    fn no_stand_in_for_a_seat_not_awaited() {
        let (game, _) = Game::new(GameOptions::default(), 3).unwrap();
        let other = game.next_seat(game.active);
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert_eq!(stand_in_action(&game, other, &mut rng), None);
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
