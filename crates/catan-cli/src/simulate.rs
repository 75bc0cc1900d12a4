//! `catan simulate`: complete games between random legal players (bank trades
//! included), split over threads; prints games/s, turns/s and means.

use catan_core::playout::Playout;
use catan_core::{BoardMode, Game, GameOptions};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::process::ExitCode;
use std::time::Instant;

/// Options of `catan simulate`.
#[derive(clap::Args)]
pub struct Args {
    /// Number of games.
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Players per game (3 or 4).
    #[arg(long, default_value_t = 4)]
    players: u8,
    /// First seed; game i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: u64,
    /// Turn cap after which a game counts as unfinished.
    #[arg(long, default_value_t = 2000)]
    max_turns: u32,
}

#[derive(Default, Clone, Copy)]
struct Totals {
    games: u64,
    finished: u64,
    turns: u64,
    actions: u64,
}

fn play(first: u64, count: u64, options: GameOptions, max_turns: u32) -> Totals {
    let mut t = Totals::default();
    let mut playout = Playout::new();
    for seed in first..first + count {
        let Ok((mut game, _)) = Game::new(options, seed) else {
            continue;
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_5eed);
        let s = playout.run(&mut game, &mut rng, max_turns, |_, _, _, _| {});
        t.games += 1;
        t.finished += s.finished as u64;
        t.turns += s.turns;
        t.actions += s.actions;
    }
    t
}

/// Runs the benchmark and prints its figures.
pub fn run(args: Args) -> ExitCode {
    let options = GameOptions {
        players: args.players,
        board: BoardMode::Random,
        ..GameOptions::default()
    };
    if let Err(e) = options.validate() {
        eprintln!("catan simulate: {e}");
        return ExitCode::from(2);
    }
    let threads = args.threads.max(1);
    let start = Instant::now();
    let per = args.games / threads;
    let handles: Vec<_> = (0..threads)
        .map(|i| {
            let count = if i == threads - 1 {
                args.games - per * i
            } else {
                per
            };
            let first = args.seed + per * i;
            std::thread::spawn(move || play(first, count, options, args.max_turns))
        })
        .collect();
    let mut total = Totals::default();
    for h in handles {
        match h.join() {
            Ok(t) => {
                total.games += t.games;
                total.finished += t.finished;
                total.turns += t.turns;
                total.actions += t.actions;
            }
            Err(_) => {
                eprintln!("catan simulate: a worker thread panicked");
                return ExitCode::FAILURE;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let g = total.games.max(1) as f64;
    println!("games:              {}", total.games);
    println!("finished (won):     {}", total.finished);
    println!("threads:            {threads}");
    println!("seconds:            {secs:.3}");
    println!("games/s:            {:.0}", total.games as f64 / secs);
    println!("turns/s:            {:.0}", total.turns as f64 / secs);
    println!("actions/s:          {:.0}", total.actions as f64 / secs);
    println!("mean turns/game:    {:.1}", total.turns as f64 / g);
    println!("mean actions/game:  {:.1}", total.actions as f64 / g);
    ExitCode::SUCCESS
}
