//! Verifiable fairness: a finished game's record is checked against its seed
//! commitment, then replayed from the revealed seed, and every recorded dice
//! roll, drawn card and stolen card must equal what the replay produced.

use super::replay::{OutcomeMismatch, Replay, ReplayError};
use super::{GameRecord, GameResult, GameStatus, OpenerRoll, commitment};
use crate::ids::Seat;
use std::fmt;

/// What a successful verification checked.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VerifyReport {
    /// Actions replayed.
    pub actions: usize,
    /// Dice rolls checked.
    pub dice_rolls: usize,
    /// Development card draws checked.
    pub cards_drawn: usize,
    /// Steals checked.
    pub steals: usize,
    /// Whether the record's opener roll was present and checked.
    pub opener_checked: bool,
    /// Whether the replayed game is over.
    pub finished: bool,
    /// The replayed winner.
    pub winner: Option<Seat>,
    /// The replayed turn counter.
    pub turns: u32,
}

/// Why a record failed verification.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum VerifyError {
    /// The record could not be replayed.
    Replay(ReplayError),
    /// SHA-256 of the revealed seed and salt is not the published commitment.
    CommitmentMismatch {
        /// The record's commitment.
        recorded: String,
        /// The commitment of the revealed seed and salt.
        computed: String,
    },
    /// The recorded roll for the opener differs from the replay's.
    OpenerMismatch,
    /// A random outcome differs from the replay's.
    OutcomeMismatch(OutcomeMismatch),
    /// The record's status disagrees with the replayed game.
    StatusMismatch {
        /// The record's status.
        recorded: GameStatus,
        /// Whether the replayed game is finished.
        replay_finished: bool,
    },
    /// The record's result disagrees with the replayed game.
    ResultMismatch {
        /// The record's result.
        recorded: GameResult,
        /// The replayed result.
        replayed: GameResult,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Replay(e) => e.fmt(f),
            VerifyError::CommitmentMismatch { recorded, computed } => write!(
                f,
                "the revealed seed and salt do not match the commitment: recorded {recorded}, computed {computed}"
            ),
            VerifyError::OpenerMismatch => {
                f.write_str("the recorded roll for the opener differs from the replay")
            }
            VerifyError::OutcomeMismatch(m) => m.fmt(f),
            VerifyError::StatusMismatch {
                recorded,
                replay_finished,
            } => write!(
                f,
                "the record's status is {} but the replayed game {}",
                recorded.as_str(),
                if *replay_finished {
                    "is finished"
                } else {
                    "is not finished"
                }
            ),
            VerifyError::ResultMismatch { recorded, replayed } => write!(
                f,
                "the recorded result {recorded:?} differs from the replayed {replayed:?}"
            ),
        }
    }
}

impl std::error::Error for VerifyError {}

impl From<ReplayError> for VerifyError {
    fn from(e: ReplayError) -> Self {
        VerifyError::Replay(e)
    }
}

/// Checks the commitment, replays the record from the revealed seed and
/// compares every random outcome, the status and the result.
pub fn verify(record: &GameRecord) -> Result<VerifyReport, VerifyError> {
    let reveal = record
        .seed
        .as_ref()
        .ok_or(VerifyError::Replay(ReplayError::SeedNotRevealed))?;
    let computed = commitment(reveal.seed, &reveal.salt);
    if !computed.eq_ignore_ascii_case(record.seed_commitment.trim()) {
        return Err(VerifyError::CommitmentMismatch {
            recorded: record.seed_commitment.clone(),
            computed,
        });
    }
    let mut replay = Replay::new(record)?;
    let mut report = VerifyReport {
        actions: 0,
        dice_rolls: 0,
        cards_drawn: 0,
        steals: 0,
        opener_checked: false,
        finished: false,
        winner: None,
        turns: 0,
    };
    if let Some(recorded) = &record.opener {
        if OpenerRoll::from_event(replay.opener_event()).as_ref() != Some(recorded) {
            return Err(VerifyError::OpenerMismatch);
        }
        report.opener_checked = true;
    }
    while let Some(step) = replay.step() {
        let step = step?;
        step.check_outcome().map_err(VerifyError::OutcomeMismatch)?;
        let got = step.outcome;
        report.actions += 1;
        report.dice_rolls += usize::from(got.dice.is_some());
        report.cards_drawn += usize::from(got.card.is_some());
        report.steals += usize::from(got.stolen.is_some());
    }
    let game = replay.game();
    let finished = GameRecord::status_of(game) == GameStatus::Finished;
    if finished != (record.status == GameStatus::Finished) {
        return Err(VerifyError::StatusMismatch {
            recorded: record.status,
            replay_finished: finished,
        });
    }
    if let Some(recorded) = &record.result {
        let replayed = GameResult::from_game(game);
        if *recorded != replayed {
            return Err(VerifyError::ResultMismatch {
                recorded: recorded.clone(),
                replayed,
            });
        }
    }
    report.finished = finished;
    report.winner = game.winner;
    report.turns = game.turn;
    Ok(report)
}
