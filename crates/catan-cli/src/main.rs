//! The `catan` command: `check` runs a scenario file (SCENARIO.md contract),
//! `simulate` benchmarks the rules engine with random legal players.

mod bots;
mod bots_dump;
mod bridge;
mod check;
mod fit_eval;
#[cfg(feature = "loadtest")]
mod loadtest;
mod replay;
mod search_args;
mod simulate;
mod verify;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// mimalloc in a build with the load tester: its clients' sockets and
/// messages are allocated and freed by the thousand on cores it shares
/// with the servers it measures (docs/PERFORMANCE.md, "The allocator").
#[cfg(feature = "loadtest")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "catan", version, about = "Catan rules engine tools")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario file and print the outcome as JSON.
    Check {
        /// Scenario file (`-` for standard input).
        file: String,
    },
    /// Play random games and print throughput figures.
    Simulate(simulate::Args),
    /// Play the heuristic bot against random bots and print its win rate.
    Bots(bots::Args),
    /// Fit the `hard` bot's `fitted` position value to self-play games.
    FitEval(fit_eval::Args),
    /// Play one seat of another engine's game: JSON lines on stdin/stdout.
    Bridge(bridge::Args),
    /// Replay a game record and print the state after N actions as JSON.
    Replay(replay::Args),
    /// Check a finished game's record against its seed commitment.
    Verify {
        /// Game record file (`-` for standard input).
        file: String,
    },
    /// Load-test a server with many concurrent games over real WebSockets.
    #[cfg(feature = "loadtest")]
    Loadtest(Box<loadtest::Args>),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { file } => check::run(&file),
        Command::Simulate(args) => simulate::run(args),
        Command::Bots(args) => bots::run(args),
        Command::Bridge(args) => bridge::run(args),
        Command::FitEval(args) => fit_eval::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Verify { file } => verify::run(&file),
        #[cfg(feature = "loadtest")]
        Command::Loadtest(args) => loadtest::run(*args),
    }
}
