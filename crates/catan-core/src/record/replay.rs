//! Rebuilding a game from its record: `Game::new(options, seed)`, then every
//! recorded action in order. The engine is deterministic, so this yields the
//! exact state the server had, RNG included.

use super::{FORMAT_VERSION, GameRecord, Outcome, RULES_VERSION, RecordedAction};
use crate::event::Event;
use crate::state::Game;
use std::fmt;

/// Why a record could not be replayed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ReplayError {
    /// The record's `format` is not one this library reads.
    UnsupportedFormat(u32),
    /// The record was played under another rules version.
    RulesVersion {
        /// The record's version.
        recorded: String,
    },
    /// The seed has not been revealed (the game is still running).
    SeedNotRevealed,
    /// `Game::new` refused the options.
    Setup(String),
    /// The action at `index` carries the wrong sequence number (`index + 1`
    /// was expected).
    Sequence {
        /// Position in `actions` (from 0).
        index: usize,
        /// The `seq` found there.
        seq: u64,
    },
    /// The engine refused a recorded action.
    Refused {
        /// The action's sequence number.
        seq: u64,
        /// The engine's error code.
        code: String,
        /// The engine's message.
        message: String,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::UnsupportedFormat(v) => write!(
                f,
                "record format {v} is not supported (this build reads format {FORMAT_VERSION})"
            ),
            ReplayError::RulesVersion { recorded } => write!(
                f,
                "the game was played under rules version {recorded:?}; this build implements {RULES_VERSION:?}"
            ),
            ReplayError::SeedNotRevealed => {
                f.write_str("the record has no revealed seed (the game is not over)")
            }
            ReplayError::Setup(m) => write!(f, "the game cannot be set up: {m}"),
            ReplayError::Sequence { index, seq } => write!(
                f,
                "the action at index {index} has seq {seq}, expected {}",
                index + 1
            ),
            ReplayError::Refused { seq, code, message } => {
                write!(
                    f,
                    "seq {seq}: the rules refuse the action ({code}: {message})"
                )
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// One replayed action.
#[derive(Clone, PartialEq, Debug)]
pub struct ReplayStep {
    /// The action as recorded.
    pub recorded: RecordedAction,
    /// The engine's (unredacted) events for it.
    pub events: Vec<Event>,
    /// The random outcomes the replay produced (compare with `recorded.outcome`,
    /// e.g. with [`ReplayStep::check_outcome`]).
    pub outcome: Outcome,
}

impl ReplayStep {
    /// `Ok` when the recorded outcome (dice, drawn card, stolen card) is
    /// exactly what the replay produced, "nothing" included; otherwise the
    /// first difference. A record whose outcomes differ from its seed's was
    /// altered (or written by a different engine): its later states cannot
    /// be trusted even where the engine accepts every action.
    pub fn check_outcome(&self) -> Result<(), OutcomeMismatch> {
        let seq = self.recorded.seq;
        let (rec, got) = (self.recorded.outcome, self.outcome);
        compare(seq, "dice roll", rec.dice, got.dice)?;
        compare(seq, "drawn card", rec.card, got.card)?;
        compare(seq, "stolen card", rec.stolen, got.stolen)
    }
}

/// A recorded random outcome that differs from what the seed gives.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OutcomeMismatch {
    /// The action's sequence number.
    pub seq: u64,
    /// `"dice roll"`, `"drawn card"` or `"stolen card"`.
    pub what: &'static str,
    /// What the record says (its JSON spelling, or `nothing`).
    pub recorded: String,
    /// What the replay produced (its JSON spelling, or `nothing`).
    pub replayed: String,
}

impl fmt::Display for OutcomeMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "seq {}: recorded {} {} but the seed gives {}",
            self.seq, self.what, self.recorded, self.replayed
        )
    }
}

impl std::error::Error for OutcomeMismatch {}

/// Fails with a mismatch naming `seq` when the outcomes differ.
fn compare<T: PartialEq + serde::Serialize>(
    seq: u64,
    what: &'static str,
    recorded: Option<T>,
    replayed: Option<T>,
) -> Result<(), OutcomeMismatch> {
    if recorded == replayed {
        return Ok(());
    }
    let show = |v: &Option<T>| match v {
        // The JSON spelling (`[3,4]`, `knight`, `ore`), as in the record.
        Some(x) => serde_json::to_string(x)
            .map(|j| j.trim_matches('"').to_string())
            .unwrap_or_default(),
        None => "nothing".to_string(),
    };
    Err(OutcomeMismatch {
        seq,
        what,
        recorded: show(&recorded),
        replayed: show(&replayed),
    })
}

/// A stepper over a record: the game before any action, then one action per
/// [`Replay::step`].
#[derive(Clone, Debug)]
pub struct Replay<'a> {
    record: &'a GameRecord,
    game: Game,
    opener: Event,
    next: usize,
}

impl<'a> Replay<'a> {
    /// Checks the record's versions and seed and sets the game up.
    pub fn new(record: &'a GameRecord) -> Result<Replay<'a>, ReplayError> {
        if record.format != FORMAT_VERSION {
            return Err(ReplayError::UnsupportedFormat(record.format));
        }
        if record.rules_version != RULES_VERSION {
            return Err(ReplayError::RulesVersion {
                recorded: record.rules_version.clone(),
            });
        }
        let seed = record
            .seed
            .as_ref()
            .ok_or(ReplayError::SeedNotRevealed)?
            .seed;
        let (game, opener) =
            Game::new(record.options, seed).map_err(|e| ReplayError::Setup(e.0))?;
        Ok(Replay {
            record,
            game,
            opener,
            next: 0,
        })
    }

    /// The game as it stands after [`Replay::position`] actions.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The `OpenerRolled` event `Game::new` produced.
    pub fn opener_event(&self) -> &Event {
        &self.opener
    }

    /// How many actions have been applied.
    pub fn position(&self) -> usize {
        self.next
    }

    /// How many actions the record holds.
    pub fn len(&self) -> usize {
        self.record.actions.len()
    }

    /// Whether the record holds no actions.
    pub fn is_empty(&self) -> bool {
        self.record.actions.is_empty()
    }

    /// Applies the next action; `None` when all have been applied. After an
    /// error the stepper stays where it was.
    pub fn step(&mut self) -> Option<Result<ReplayStep, ReplayError>> {
        let index = self.next;
        let recorded = self.record.actions.get(index)?;
        if recorded.seq != index as u64 + 1 {
            return Some(Err(ReplayError::Sequence {
                index,
                seq: recorded.seq,
            }));
        }
        Some(match self.game.apply(recorded.seat, recorded.action) {
            Ok(events) => {
                self.next += 1;
                Ok(ReplayStep {
                    recorded: recorded.clone(),
                    outcome: Outcome::from_events(&events),
                    events,
                })
            }
            Err(e) => Err(ReplayError::Refused {
                seq: recorded.seq,
                code: e.code().to_string(),
                message: e.message.clone(),
            }),
        })
    }

    /// Applies actions until `position` have been applied (or the record ends).
    pub fn run_to(&mut self, position: usize) -> Result<&Game, ReplayError> {
        while self.next < position {
            match self.step() {
                Some(r) => {
                    r?;
                }
                None => break,
            }
        }
        Ok(&self.game)
    }

    /// Applies every remaining action and returns the final game.
    pub fn finish(mut self) -> Result<Game, ReplayError> {
        self.run_to(usize::MAX)?;
        Ok(self.game)
    }
}

/// Replays the whole record and returns the final game.
pub fn replay(record: &GameRecord) -> Result<Game, ReplayError> {
    Replay::new(record)?.finish()
}
