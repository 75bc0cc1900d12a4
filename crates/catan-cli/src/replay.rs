//! `catan replay FILE [--step N] [--log]`: loads a game record
//! (docs/GAME_RECORD.md), replays it from its revealed seed and prints the
//! state after N actions (default: all) in the `catan check` JSON shape.

use catan_core::record::{GameRecord, Replay, ReplayError};
use catan_core::scenario::{CheckState, Rejected};
use serde::Serialize;
use std::io::{Read, Write};
use std::process::ExitCode;

/// Arguments of `catan replay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game record file (`-` for standard input).
    pub file: String,
    /// Stop after this many actions (0: before the first); default: all.
    #[arg(long)]
    pub step: Option<usize>,
    /// Print one summary line per replayed action to standard error.
    #[arg(long)]
    pub log: bool,
}

/// What `catan replay` prints: `catan check`'s shape plus the position.
#[derive(Serialize, Debug)]
pub struct ReplayOutput {
    /// Whether every replayed action was accepted.
    pub ok: bool,
    /// The refused action (index into `actions`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rejected: Option<Rejected>,
    /// Actions applied.
    pub step: usize,
    /// Actions in the record.
    pub actions: usize,
    /// The full state after `step` actions.
    pub state: CheckState,
}

/// Why a record could not be used at all (exit 2) or replayed (exit 1).
#[derive(Debug)]
pub enum Failure {
    /// Unreadable or malformed file.
    Input(String),
    /// The record cannot be replayed as asked.
    Replay(String),
}

/// Reads and parses a record from a file or standard input (`-`).
pub fn load_record(file: &str) -> Result<GameRecord, Failure> {
    let text = if file == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| Failure::Input(format!("cannot read standard input: {e}")))?;
        s
    } else {
        std::fs::read_to_string(file)
            .map_err(|e| Failure::Input(format!("cannot read {file}: {e}")))?
    };
    GameRecord::from_json(&text)
        .map_err(|e| Failure::Input(format!("{file} is not a game record: {e}")))
}

/// Replays `record` up to `step` actions, logging each through `log`.
pub fn replay_record(
    record: &GameRecord,
    step: Option<usize>,
    mut log: impl FnMut(String),
) -> Result<ReplayOutput, Failure> {
    let mut replay = Replay::new(record).map_err(|e| Failure::Replay(e.to_string()))?;
    let total = replay.len();
    let target = step.unwrap_or(total);
    if target > total {
        return Err(Failure::Replay(format!(
            "--step {target} is past the end: the record has {total} actions"
        )));
    }
    let mut rejected = None;
    while replay.position() < target {
        let index = replay.position();
        match replay.step() {
            Some(Ok(s)) => log(summary(&s.recorded, &s.outcome)),
            Some(Err(ReplayError::Refused { code, message, .. })) => {
                rejected = Some(Rejected {
                    index,
                    code,
                    message,
                });
                break;
            }
            Some(Err(e)) => return Err(Failure::Replay(e.to_string())),
            None => break,
        }
    }
    Ok(ReplayOutput {
        ok: rejected.is_none(),
        rejected,
        step: replay.position(),
        actions: total,
        state: replay.game().check_state(),
    })
}

/// One line per action: seq, seat, action type and random outcome.
fn summary(
    a: &catan_core::record::RecordedAction,
    outcome: &catan_core::record::Outcome,
) -> String {
    let mut line = format!("seq {} {} {}", a.seq, a.seat, a.action.kind());
    if let Some(d) = outcome.dice {
        line.push_str(&format!(" dice {}+{}={}", d[0], d[1], d[0] + d[1]));
    }
    if let Some(c) = outcome.card {
        line.push_str(&format!(" drew {c}"));
    }
    if let Some(r) = outcome.stolen {
        line.push_str(&format!(" stole {r}"));
    }
    if a.stand_in {
        line.push_str(" (stand-in)");
    }
    line.push_str(&format!(" at {}", a.time));
    line
}

/// Runs `catan replay`.
pub fn run(args: Args) -> ExitCode {
    let result = load_record(&args.file).and_then(|record| {
        replay_record(&record, args.step, |line| {
            if args.log {
                eprintln!("{line}");
            }
        })
    });
    match result {
        Ok(out) => match serde_json::to_string_pretty(&out) {
            Ok(s) => {
                // A closed pipe (e.g. `| head`) is not an error worth a panic.
                let _ = writeln!(std::io::stdout().lock(), "{s}");
                if out.ok {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                }
            }
            Err(e) => {
                eprintln!("catan replay: cannot print the state: {e}");
                ExitCode::FAILURE
            }
        },
        Err(Failure::Input(m)) => {
            eprintln!("catan replay: {m}");
            ExitCode::from(2)
        }
        Err(Failure::Replay(m)) => {
            eprintln!("catan replay: {}: {m}", args.file);
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use catan_core::playout::Playout;
    use catan_core::record::{
        FORMAT_VERSION, GameResult, GameStatus, OpenerRoll, RULES_VERSION, RecordedAction,
        SeatRecord, SeedReveal, commitment,
    };
    use catan_core::{Game, GameOptions};
    use rand::SeedableRng;

    /// A finished random game's record, and the final game.
    pub(crate) fn finished_record() -> (GameRecord, Game) {
        for seed in 1.. {
            let options = GameOptions::default();
            let (mut game, opener) = Game::new(options, seed).unwrap();
            let mut actions = Vec::new();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            Playout::new().run(&mut game, &mut rng, 2000, |_, seat, a, ev| {
                let seq = actions.len() as u64 + 1;
                actions.push(RecordedAction::new(
                    seq,
                    seat,
                    *a,
                    ev,
                    "2025-01-01T00:00:00Z".into(),
                    false,
                ));
            });
            if game.winner().is_none() {
                continue;
            }
            let record = GameRecord {
                format: FORMAT_VERSION,
                game_id: "cli-test".into(),
                created: "2025-01-01T00:00:00Z".into(),
                rules_version: RULES_VERSION.into(),
                options,
                seats: (0..4)
                    .map(|i| SeatRecord {
                        name: format!("p{i}"),
                        bot: None,
                    })
                    .collect(),
                seed_commitment: commitment(seed, "salt"),
                seed: Some(SeedReveal {
                    seed,
                    salt: "salt".into(),
                }),
                status: GameStatus::Finished,
                result: Some(GameResult::from_game(&game)),
                opener: OpenerRoll::from_event(&opener),
                actions,
            };
            return (record, game);
        }
        unreachable!()
    }

    #[test]
    fn replay_prints_the_final_state_by_default() {
        let (record, game) = finished_record();
        let out = replay_record(&record, None, |_| {}).unwrap();
        assert!(out.ok);
        assert_eq!(out.step, record.actions.len());
        assert_eq!(out.state, game.check_state());
        assert_eq!(out.state.phase, catan_core::PhaseName::Finished);
    }

    #[test]
    fn replay_stops_at_the_requested_step_and_logs_each_action() {
        let (record, _) = finished_record();
        let mut lines = Vec::new();
        let out = replay_record(&record, Some(9), |l| lines.push(l)).unwrap();
        assert_eq!(out.step, 9);
        assert_eq!(lines.len(), 9);
        assert!(lines[0].starts_with("seq 1 "), "{}", lines[0]);
        let (mut game, _) = Game::new(record.options, record.seed.as_ref().unwrap().seed).unwrap();
        for a in &record.actions[..9] {
            game.apply(a.seat, a.action).unwrap();
        }
        assert_eq!(out.state, game.check_state());
        let zero = replay_record(&record, Some(0), |_| {}).unwrap();
        assert_eq!(zero.state.phase, catan_core::PhaseName::Opening);
    }

    #[test]
    fn replay_past_the_end_is_an_error() {
        let (record, _) = finished_record();
        let n = record.actions.len();
        assert!(matches!(
            replay_record(&record, Some(n + 1), |_| {}),
            Err(Failure::Replay(m)) if m.contains("past the end")
        ));
    }

    #[test]
    fn replay_reports_a_refused_action_like_check() {
        let (mut record, _) = finished_record();
        record.actions[3].seat = catan_core::Seat(9);
        let out = replay_record(&record, None, |_| {}).unwrap();
        assert!(!out.ok);
        assert_eq!(out.step, 3);
        assert_eq!(out.rejected.unwrap().index, 3);
    }

    #[test]
    fn a_file_that_is_not_a_record_is_an_input_error() {
        let path = std::env::temp_dir().join(format!("catan-replay-{}.json", std::process::id()));
        std::fs::write(&path, "{\"format\": 1}").unwrap();
        let r = load_record(path.to_str().unwrap());
        let _ = std::fs::remove_file(&path);
        assert!(matches!(r, Err(Failure::Input(_))));
        assert!(matches!(
            load_record("/nonexistent/record.json"),
            Err(Failure::Input(_))
        ));
    }
}
