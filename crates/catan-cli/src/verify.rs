//! `catan verify FILE`: checks a finished game's record against its seed
//! commitment and replays it from the revealed seed, comparing every dice
//! roll, drawn card and stolen card. Prints `OK` and a summary (exit 0) or
//! what failed, naming the action's seq (exit 1).

use crate::replay::{Failure, load_record};
use catan_core::record::{GameRecord, VerifyReport, verify};
use std::io::Write;
use std::process::ExitCode;

/// The `OK` line for a verified record.
pub fn ok_message(record: &GameRecord, r: &VerifyReport) -> String {
    let end = match (r.finished, r.winner) {
        (true, Some(w)) => format!("{w} won after {} turns", r.turns),
        _ => format!("not finished (turn {})", r.turns),
    };
    format!(
        "OK: game {}: commitment {} matches the revealed seed; {} actions replayed, \
         {} dice rolls, {} card draws, {} steals{} all match; {end}",
        record.game_id,
        record.seed_commitment,
        r.actions,
        r.dice_rolls,
        r.cards_drawn,
        r.steals,
        if r.opener_checked {
            " and the opener roll"
        } else {
            ""
        },
    )
}

/// Runs `catan verify`.
pub fn run(file: &str) -> ExitCode {
    let record = match load_record(file) {
        Ok(r) => r,
        Err(Failure::Input(m) | Failure::Replay(m)) => {
            eprintln!("catan verify: FAILED: {m}");
            return ExitCode::FAILURE;
        }
    };
    match verify(&record) {
        Ok(report) => {
            let _ = writeln!(std::io::stdout().lock(), "{}", ok_message(&record, &report));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("catan verify: FAILED: game {}: {e}", record.game_id);
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::replay::tests::finished_record;

    #[test]
    fn ok_message_summarises_what_was_checked() {
        let (record, game) = finished_record();
        let report = verify(&record).unwrap();
        let msg = ok_message(&record, &report);
        assert!(msg.starts_with("OK: "), "{msg}");
        assert!(msg.contains(&format!("{} actions", record.actions.len())));
        assert!(msg.contains(&format!("{} won", game.winner().unwrap())));
    }

    #[test]
    fn verify_run_exits_zero_on_a_good_file_and_one_on_an_altered_roll() {
        let (mut record, _) = finished_record();
        let path = std::env::temp_dir().join(format!("catan-verify-{}.json", std::process::id()));
        std::fs::write(&path, record.to_json_pretty()).unwrap();
        assert_eq!(run(path.to_str().unwrap()), ExitCode::SUCCESS);
        let i = record
            .actions
            .iter()
            .position(|a| a.outcome.dice.is_some())
            .unwrap();
        let d = record.actions[i].outcome.dice.unwrap();
        record.actions[i].outcome.dice = Some([d[0], d[1] % 6 + 1]);
        std::fs::write(&path, record.to_json_pretty()).unwrap();
        assert_eq!(run(path.to_str().unwrap()), ExitCode::FAILURE);
        let _ = std::fs::remove_file(&path);
        assert_eq!(run("/nonexistent/record.json"), ExitCode::FAILURE);
    }
}
