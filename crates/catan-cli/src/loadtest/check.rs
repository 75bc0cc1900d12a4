//! The final check: does a game's stored log match what its clients saw?
//!
//! Clients know three things about each game: the actions the server
//! acknowledged (`accepted` with a version), the versions and acting seats of
//! every update they received, and the actions they sent that were never
//! answered (the server may have died after logging one). The stored log
//! must hold every acknowledged action at its version, agree with every
//! update seen, number its entries 1..n without gaps or repeats, and contain
//! nothing nobody sent.

use catan_core::{Action, Seat};
use catan_protocol::Code;
use std::collections::BTreeMap;

/// One action as the store logged it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Logged {
    /// Position from 1: the version after the action.
    pub seq: u64,
    /// Who acted.
    pub seat: Seat,
    /// What they did.
    pub action: Action,
    /// Whether a server-side stand-in acted.
    pub stand_in: bool,
}

/// An action sent that got no answer, or `storage_unavailable`, which the
/// server may still apply (docs/PROTOCOL.md, "When the database is slow or
/// gone"): either may be in the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unanswered {
    /// The version it was played against.
    pub version: u64,
    /// The seat.
    pub seat: Seat,
    /// The action.
    pub action: Action,
}

/// What the clients of one game observed.
#[derive(Clone, Debug, Default)]
pub struct Observed {
    /// Acknowledged actions by the version they produced.
    pub accepted: BTreeMap<u64, (Seat, Action)>,
    /// Acknowledgements that named a version already acknowledged.
    pub duplicate_acks: Vec<u64>,
    /// Versions of updates received, with the acting seat (none: the start).
    pub seen: BTreeMap<u64, Option<Seat>>,
    /// Updates whose version was seen before with another seat.
    pub conflicting_updates: Vec<u64>,
    /// Sent, never answered (or answered `storage_unavailable`).
    pub unanswered: Vec<Unanswered>,
}

impl Observed {
    /// Notes a refusal of an action sent: `storage_unavailable` leaves it
    /// possibly stored (the lobby holds it in doubt until it reads back
    /// whether the database had it, then applies it late), so the check
    /// counts it like an action never answered; any other refusal means it
    /// was not applied.
    pub fn refused(&mut self, sent: Unanswered, code: Code) {
        if code == Code::StorageUnavailable {
            self.unanswered.push(sent);
        }
    }

    /// Notes an acknowledgement.
    pub fn accept(&mut self, version: u64, seat: Seat, action: Action) {
        if self.accepted.insert(version, (seat, action)).is_some() {
            self.duplicate_acks.push(version);
        }
    }

    /// Notes an update received by some client.
    pub fn saw(&mut self, version: u64, seat: Option<Seat>) {
        match self.seen.get(&version) {
            Some(s) if *s != seat => self.conflicting_updates.push(version),
            Some(_) => {}
            None => {
                self.seen.insert(version, seat);
            }
        }
    }
}

/// The verdict on one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Entries in the stored log.
    pub logged: u64,
    /// Acknowledged actions found in the log as acknowledged.
    pub confirmed: u64,
    /// Unanswered actions that the log holds (logged, then the answer was lost).
    pub unanswered_logged: u64,
    /// Stand-in actions in the log.
    pub stand_ins: u64,
    /// Acknowledged or seen but missing or different in the log.
    pub lost: Vec<String>,
    /// Logged twice, acknowledged twice, or seen with two different seats.
    pub duplicated: Vec<String>,
    /// Logged actions that no client sent.
    pub unexplained: Vec<String>,
}

impl Verdict {
    /// Whether nothing was lost, duplicated or made up.
    pub fn ok(&self) -> bool {
        self.lost.is_empty() && self.duplicated.is_empty() && self.unexplained.is_empty()
    }
}

/// Compares a game's stored log with what its clients observed.
pub fn check(obs: &Observed, log: &[Logged]) -> Verdict {
    let mut v = Verdict {
        logged: log.len() as u64,
        ..Verdict::default()
    };
    let mut by_seq: BTreeMap<u64, Logged> = BTreeMap::new();
    for e in log {
        if by_seq.insert(e.seq, *e).is_some() {
            v.duplicated.push(format!("seq {} is logged twice", e.seq));
        }
    }
    for (i, seq) in by_seq.keys().enumerate() {
        if *seq != i as u64 + 1 {
            v.lost
                .push(format!("the log skips from {} to seq {seq}", i as u64));
            break;
        }
    }
    for ver in &obs.duplicate_acks {
        v.duplicated
            .push(format!("version {ver} was acknowledged twice"));
    }
    for ver in &obs.conflicting_updates {
        v.duplicated.push(format!(
            "version {ver} was announced with two different seats"
        ));
    }
    for (ver, (seat, action)) in &obs.accepted {
        match by_seq.get(ver) {
            None => v.lost.push(format!(
                "acknowledged version {ver} ({seat} {}) is not in the log",
                action.kind()
            )),
            Some(e) if e.seat != *seat || e.action != *action => v.lost.push(format!(
                "version {ver}: acknowledged {seat} {} but the log has {} {}",
                action.kind(),
                e.seat,
                e.action.kind()
            )),
            Some(_) => v.confirmed += 1,
        }
    }
    for (ver, seat) in &obs.seen {
        if *ver == 0 {
            continue;
        }
        match (by_seq.get(ver), seat) {
            (None, _) => v.lost.push(format!(
                "an update announced version {ver}, which is not in the log"
            )),
            (Some(e), Some(s)) if e.seat != *s => v.lost.push(format!(
                "version {ver}: clients saw {s} act but the log has {}",
                e.seat
            )),
            _ => {}
        }
    }
    for e in by_seq.values() {
        if obs.accepted.contains_key(&e.seq) {
            continue;
        }
        if e.stand_in {
            v.stand_ins += 1;
            continue;
        }
        let sent = obs
            .unanswered
            .iter()
            .any(|u| u.version + 1 == e.seq && u.seat == e.seat && u.action == e.action);
        if sent {
            v.unanswered_logged += 1;
        } else {
            v.unexplained.push(format!(
                "seq {} ({} {}) was logged but no client sent it",
                e.seq,
                e.seat,
                e.action.kind()
            ));
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logged(seq: u64, seat: u8, action: Action) -> Logged {
        Logged {
            seq,
            seat: Seat(seat),
            action,
            stand_in: false,
        }
    }

    fn observed() -> Observed {
        let mut o = Observed::default();
        o.saw(0, None);
        o.accept(1, Seat(0), Action::RollDice);
        o.saw(1, Some(Seat(0)));
        o.accept(2, Seat(0), Action::EndTurn);
        o.saw(2, Some(Seat(0)));
        o
    }

    #[test]
    fn matching_log_passes() {
        let log = [
            logged(1, 0, Action::RollDice),
            logged(2, 0, Action::EndTurn),
        ];
        let v = check(&observed(), &log);
        assert!(v.ok(), "{v:?}");
        assert_eq!((v.logged, v.confirmed), (2, 2));
    }

    #[test]
    fn missing_acknowledged_action_is_lost() {
        let v = check(&observed(), &[logged(1, 0, Action::RollDice)]);
        assert!(!v.ok());
        assert_eq!(v.lost.len(), 2, "{v:?}"); // the ack and the update
    }

    #[test]
    fn different_action_at_a_version_is_lost() {
        let log = [
            logged(1, 0, Action::RollDice),
            logged(2, 0, Action::BuyDevelopmentCard),
        ];
        let v = check(&observed(), &log);
        assert_eq!(v.lost.len(), 1, "{v:?}");
    }

    #[test]
    fn repeated_seq_and_gaps_are_caught() {
        let log = [
            logged(1, 0, Action::RollDice),
            logged(2, 0, Action::EndTurn),
            logged(2, 0, Action::EndTurn),
        ];
        assert_eq!(check(&observed(), &log).duplicated.len(), 1);
        let gap = [
            logged(1, 0, Action::RollDice),
            logged(2, 0, Action::EndTurn),
            logged(4, 1, Action::RollDice),
        ];
        let v = check(&observed(), &gap);
        assert!(v.lost.iter().any(|l| l.contains("skips")), "{v:?}");
    }

    #[test]
    fn double_acknowledgement_is_duplication() {
        let mut o = observed();
        o.accept(2, Seat(0), Action::EndTurn);
        o.saw(2, Some(Seat(1)));
        let log = [
            logged(1, 0, Action::RollDice),
            logged(2, 0, Action::EndTurn),
        ];
        let v = check(&o, &log);
        assert_eq!(v.duplicated.len(), 2, "{v:?}");
    }

    /// Seat 1's roll at version 2, sent but not acknowledged.
    const SEAT_1_ROLLS: Unanswered = Unanswered {
        version: 2,
        seat: Seat(1),
        action: Action::RollDice,
    };

    /// Seat 0 rolls and ends its turn, then `seat` rolls.
    fn log_then_roll_by(seat: u8) -> [Logged; 3] {
        [
            logged(1, 0, Action::RollDice),
            logged(2, 0, Action::EndTurn),
            logged(3, seat, Action::RollDice),
        ]
    }

    #[test]
    fn unanswered_action_in_the_log_is_explained_and_others_are_not() {
        let mut o = observed();
        o.unanswered.push(SEAT_1_ROLLS);
        let v = check(&o, &log_then_roll_by(1));
        assert!(v.ok(), "{v:?}");
        assert_eq!(v.unanswered_logged, 1);
        assert_eq!(check(&o, &log_then_roll_by(2)).unexplained.len(), 1);
    }

    #[test]
    fn an_action_refused_for_storage_may_still_be_in_the_log() {
        // Refused `storage_unavailable` (its append was in doubt), then
        // applied late: explained. Refused for a rule: it must not be there.
        let sent = SEAT_1_ROLLS;
        let log = log_then_roll_by(1);
        let mut o = observed();
        o.refused(sent, Code::StorageUnavailable);
        let v = check(&o, &log);
        assert!(v.ok(), "{v:?}");
        assert_eq!(v.unanswered_logged, 1);
        let mut o = observed();
        o.refused(sent, Code::StaleVersion);
        assert_eq!(check(&o, &log).unexplained.len(), 1);
    }

    #[test]
    fn stand_in_actions_need_no_sender() {
        let mut log = vec![
            logged(1, 0, Action::RollDice),
            logged(2, 0, Action::EndTurn),
        ];
        log.push(Logged {
            stand_in: true,
            ..logged(3, 1, Action::RollDice)
        });
        let v = check(&observed(), &log);
        assert!(v.ok());
        assert_eq!(v.stand_ins, 1);
    }
}
