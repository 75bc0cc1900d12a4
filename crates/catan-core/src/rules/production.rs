//! Rolling, production with the bank-shortage rule, discards, the robber and
//! stealing (R17-R19, R35, V2).

use crate::error::ActionError;
use crate::error::refuse;
use crate::event::Event;
use crate::game::wrong_phase;
use crate::geometry::geo;
use crate::ids::{HexId, Seat};
use crate::resource::{Resource, ResourceSet};
use crate::state::{Game, Phase};
use rand::Rng;

/// Where the robber goes and whom it robs: what a robber move and a
/// Knight both name, checked and carried out alike.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RobberMove {
    /// The hex the robber moves to.
    pub(crate) hex: HexId,
    /// The opponent robbed, if anyone may be.
    pub(crate) victim: Option<Seat>,
}

impl Game {
    pub(crate) fn roll_dice(
        &mut self,
        seat: Seat,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.require_active(seat)?;
        if self.phase != Phase::PreRoll {
            return Err(wrong_phase(self.phase));
        }
        let dice = self.roll_two();
        let total = dice[0] + dice[1];
        self.dice = Some(dice);
        self.dice_counts[total as usize] += 1;
        out.push(Event::DiceRolled { seat, dice });
        if total == 7 {
            let mut any = false;
            for (i, p) in self.players.iter().enumerate() {
                let n = p.hand.total();
                self.discards[i] = if n > 7 { (n / 2) as u8 } else { 0 };
                any |= n > 7;
            }
            if any {
                out.push(Event::DiscardsOwed {
                    owed: crate::per_seat::PerSeat::from_slice(&self.discards),
                });
                self.phase = Phase::Discard;
            } else {
                self.phase = Phase::MoveRobber;
            }
        } else {
            self.produce(total, out);
            self.phase = Phase::Action;
        }
        Ok(())
    }

    /// Pays every building around hexes numbered `total` (R17-R18).
    fn produce(&mut self, total: u8, out: &mut Vec<Event>) {
        let g = geo();
        let n = self.n_players();
        let mut gains = [ResourceSet::EMPTY; 4];
        let mut any = false;
        let mut hexes = self.number_hexes[total as usize] & !(1u32 << self.robber.0);
        while hexes != 0 {
            let h = hexes.trailing_zeros() as usize;
            hexes &= hexes - 1;
            let Some(r) = self.board.hexes[h].terrain.resource() else {
                continue;
            };
            let mask = g.hex_vertex_mask[h];
            for (i, p) in self.players.iter().enumerate() {
                let c = (p.settlements & mask).count_ones() + 2 * (p.cities & mask).count_ones();
                if c > 0 {
                    *gains[i].get_mut(r) += c as u8;
                    any = true;
                }
            }
        }
        if !any {
            return;
        }
        let mut shortage = Vec::new();
        for r in Resource::ALL {
            let owed: u32 = gains[..n].iter().map(|s| s.get(r) as u32).sum();
            if owed == 0 || owed <= self.bank.get(r) as u32 {
                continue;
            }
            let owed_players = gains[..n].iter().filter(|s| s.get(r) > 0).count();
            if owed_players == 1 {
                for s in gains[..n].iter_mut() {
                    if s.get(r) > 0 {
                        *s.get_mut(r) = self.bank.get(r);
                    }
                }
            } else {
                for s in gains[..n].iter_mut() {
                    *s.get_mut(r) = 0;
                }
                shortage.push(r);
            }
        }
        for (i, gain) in gains[..n].iter().enumerate() {
            self.bank.sub(gain);
            self.players[i].hand.add(gain);
        }
        out.push(Event::Produced {
            gains: crate::per_seat::PerSeat::from_slice(&gains[..n]),
            shortage,
        });
    }

    pub(crate) fn discard(
        &mut self,
        seat: Seat,
        cards: ResourceSet,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.phase != Phase::Discard {
            return Err(wrong_phase(self.phase));
        }
        let owed = self.discards[seat.index()];
        if owed == 0 {
            refuse!(NoDiscardOwed, "{seat} does not have to discard");
        }
        if cards.total() != owed as u32 {
            refuse!(
                WrongDiscardCount,
                "you must discard exactly {owed} cards, not {}",
                cards.total()
            );
        }
        let hand = &mut self.players[seat.index()].hand;
        if !hand.contains(&cards) {
            refuse!(
                InsufficientResources,
                "you cannot discard {cards}: you hold {}",
                *hand
            );
        }
        hand.sub(&cards);
        self.bank.add(&cards);
        self.discards[seat.index()] = 0;
        out.push(Event::Discarded { seat, cards });
        if self.discards.iter().all(|&d| d == 0) {
            self.phase = Phase::MoveRobber;
        }
        Ok(())
    }

    pub(crate) fn move_robber(
        &mut self,
        seat: Seat,
        to: RobberMove,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.require_active(seat)?;
        if self.phase != Phase::MoveRobber {
            return Err(wrong_phase(self.phase));
        }
        self.check_robber(seat, to)?;
        self.rob(seat, to, out);
        self.phase = Phase::Action;
        Ok(())
    }

    /// Hexes the robber may move to now (R19b, V2), as a 19-bit mask.
    pub fn robber_targets(&self) -> u32 {
        let all: u32 = (1 << 19) - 1;
        let here = 1u32 << self.robber.0;
        if !self.options.friendly_robber {
            return all & !here;
        }
        let Some(desert) = self.board.desert() else {
            return all & !here;
        };
        let g = geo();
        let mut weak = 0u64;
        for s in 0..self.n_players() {
            if self.visible_points(Seat(s as u8)) <= 2 {
                weak |= self.players[s].buildings();
            }
        }
        let mut ok = 0u32;
        for h in 0..19 {
            if h != desert.index() && g.hex_vertex_mask[h] & weak == 0 {
                ok |= 1 << h;
            }
        }
        ok &= !here;
        if ok == 0 {
            1 << desert.0
        } else {
            ok | ((1 << desert.0) & !here)
        }
    }

    /// Opponents of `seat` with a building on `hex` and at least one card.
    pub fn robbable(&self, seat: Seat, hex: HexId) -> u8 {
        let mask = geo().hex_vertex_mask[hex.index()];
        let mut m = 0u8;
        for (i, p) in self.players.iter().enumerate() {
            if i != seat.index() && p.buildings() & mask != 0 && !p.hand.is_empty() {
                m |= 1 << i;
            }
        }
        m
    }

    /// Checks `seat`'s robber move (R19b-c, V2).
    pub(crate) fn check_robber(&self, seat: Seat, to: RobberMove) -> Result<(), ActionError> {
        let RobberMove { hex, victim } = to;
        if !hex.is_valid() {
            refuse!(InvalidHex, "{hex} does not exist (hexes are 0 to 18)");
        }
        if self.robber_targets() & (1 << hex.0) == 0 {
            if hex == self.robber {
                refuse!(
                    RobberMustMove,
                    "the robber must move to a different hex than {hex}"
                );
            }
            refuse!(
                FriendlyRobber,
                "the friendly robber may not go to {hex}: it touches a player with 2 or fewer points"
            );
        }
        let can = self.robbable(seat, hex);
        match victim {
            None if can != 0 => refuse!(VictimRequired, "name a player to steal from on {hex}"),
            None => Ok(()),
            Some(v) if v.index() < 8 && can & (1 << v.0) != 0 => Ok(()),
            Some(v) => refuse!(
                InvalidVictim,
                "{v} cannot be robbed on {hex} (needs a building there and at least one card, and not yourself)"
            ),
        }
    }

    /// Moves the robber and steals one random card (already checked).
    pub(crate) fn rob(&mut self, seat: Seat, to: RobberMove, out: &mut Vec<Event>) {
        let RobberMove { hex, victim } = to;
        self.robber = hex;
        out.push(Event::RobberMoved { seat, hex });
        if let Some(v) = victim {
            let total = self.players[v.index()].hand.total();
            let k = self.rng.random_range(0..total);
            if let Some(r) = self.players[v.index()].hand.nth_card(k) {
                *self.players[v.index()].hand.get_mut(r) -= 1;
                *self.players[seat.index()].hand.get_mut(r) += 1;
                out.push(Event::Stole {
                    thief: seat,
                    victim: v,
                    resource: Some(r),
                });
            }
        }
    }
}
