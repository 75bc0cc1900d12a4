//! `catan fit-eval`: fits the weights of the `hard` bot's `fitted` position
//! value ([`catan_bots::eval::FITTED`]) to the winners of self-play games of
//! four `normal` bots, and prints them as the Rust constant to check in,
//! with the held-out log-likelihood next to the hand-set `position` value's.

use catan_bots::eval::{FEATURE_NAMES, FITTED};
use catan_bots::fit::{fit, log_likelihood, position_log_likelihood, self_play};
use std::process::ExitCode;

/// Options of `catan fit-eval`.
#[derive(clap::Args)]
pub struct Args {
    /// Self-play games to fit on (a fifth more are played and held out).
    #[arg(long, default_value_t = 4000)]
    games: u64,
    /// First seed; far from the arena's seeds 0, 1, ... so that the fit
    /// never saw the boards it is measured on.
    #[arg(long, default_value_t = 1_000_000)]
    seed: u64,
    /// Newton steps.
    #[arg(long, default_value_t = 15)]
    iterations: u32,
}

/// Runs `catan fit-eval`.
pub fn run(args: Args) -> ExitCode {
    let held = (args.games / 5).max(1);
    let train = self_play(args.games, args.seed);
    let test = self_play(held, args.seed + args.games);
    if train.is_empty() || test.is_empty() {
        eprintln!("catan fit-eval: no finished games");
        return ExitCode::FAILURE;
    }
    let w = fit(&train, args.iterations);
    println!(
        "{} training positions, {} held out ({} games from seed {})",
        train.len(),
        test.len(),
        held,
        args.seed + args.games
    );
    println!(
        "held-out mean log-likelihood of the winner: fitted {:.4}, checked-in {:.4}, position {:.4}, uniform {:.4}",
        log_likelihood(&w, &test),
        log_likelihood(&FITTED, &test),
        position_log_likelihood(&test),
        (0.25f64).ln()
    );
    println!("pub const FITTED: [f64; N_FEATURES] = [");
    for (x, name) in w.iter().zip(FEATURE_NAMES) {
        println!("    {x:.4}, // {name}");
    }
    println!("];");
    ExitCode::SUCCESS
}
