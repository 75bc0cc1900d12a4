//! `catan bots`: the heuristic bot against random bots on random boards.
//!
//! Game `i` uses seed `seed + i` and seats the heuristic bot at `i mod
//! players`, so every seat (and so every place in the turn order) gets the
//! same share of games. Prints the heuristic's win rate, mean turns,
//! unfinished games, games/s and the time per heuristic decision.

use catan_bots::{Bot, BotKind, arena, make_bot};
use catan_core::{Action, BoardMode, GameOptions, View};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Options of `catan bots`.
#[derive(clap::Args)]
pub struct Args {
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Players per game (3 or 4); one is the heuristic bot, the rest random.
    #[arg(long, default_value_t = 4)]
    players: u8,
    /// First seed; game i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Turn cap after which a game counts as unfinished.
    #[arg(long, default_value_t = 1000)]
    max_turns: u32,
}

/// Wraps a bot to add the nanoseconds its decisions take to a shared counter.
struct Timed {
    inner: Box<dyn Bot>,
    nanos: Arc<AtomicU64>,
}

impl Bot for Timed {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Option<Action> {
        let start = Instant::now();
        let a = self.inner.choose(view, legal);
        let spent = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.nanos.fetch_add(spent, Ordering::Relaxed);
        a
    }
}

/// Runs the benchmark and prints its figures.
pub fn run(args: Args) -> ExitCode {
    let options = GameOptions {
        players: args.players,
        board: BoardMode::Random,
        ..GameOptions::default()
    };
    if let Err(e) = options.validate() {
        eprintln!("catan bots: {e}");
        return ExitCode::from(2);
    }
    let n = args.players as u64;
    let start = Instant::now();
    let (mut wins, mut finished, mut turns, mut decisions, mut fallbacks) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut random_fallbacks = 0u64;
    let nanos = Arc::new(AtomicU64::new(0));
    for i in 0..args.games {
        let seed = args.seed.wrapping_add(i);
        let hero = (i % n) as usize;
        let mut bots: Vec<Box<dyn Bot>> = (0..n as usize)
            .map(|s| -> Box<dyn Bot> {
                if s == hero {
                    Box::new(Timed {
                        inner: make_bot(BotKind::Heuristic, seed),
                        nanos: Arc::clone(&nanos),
                    })
                } else {
                    make_bot(
                        BotKind::Random,
                        seed.wrapping_mul(31).wrapping_add(s as u64),
                    )
                }
            })
            .collect();
        let result = match arena(options, seed, &mut bots, args.max_turns) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("catan bots: seed {seed}: {e}");
                return ExitCode::FAILURE;
            }
        };
        finished += result.finished() as u64;
        wins += (result.winner.map(|w| w.index()) == Some(hero)) as u64;
        turns += result.turns as u64;
        decisions += result.decisions[hero];
        fallbacks += result.fallbacks[hero];
        random_fallbacks += result.fallbacks.iter().sum::<u64>() - result.fallbacks[hero];
    }
    let secs = start.elapsed().as_secs_f64();
    let games = args.games.max(1) as f64;
    println!(
        "games: {}  players: {}  first seed: {}",
        args.games, args.players, args.seed
    );
    println!(
        "heuristic wins: {wins} ({:.1}%)",
        100.0 * wins as f64 / games
    );
    println!("mean turns: {:.1}", turns as f64 / games);
    println!(
        "unfinished (over {} turns): {}",
        args.max_turns,
        args.games - finished
    );
    println!(
        "heuristic fallbacks (refused answers): {fallbacks}; random bots' fallbacks: {random_fallbacks}"
    );
    let per = nanos.load(Ordering::Relaxed) as f64 / 1000.0 / decisions.max(1) as f64;
    println!("heuristic decisions: {decisions} ({per:.1} µs each on average)");
    println!("games/s: {:.1}", games / secs.max(1e-9));
    ExitCode::SUCCESS
}
