//! `catan bots`: an arena. One hero bot against a field of another kind on
//! random boards, with the hero's win rate and its 95% confidence interval.
//!
//! Game `i` uses seed `seed + i` and seats the hero at `i mod players`, so
//! every seat (and so every place in the turn order) gets the same share of
//! games. Games run on `--threads` threads; the figures do not depend on the
//! thread count (each game is determined by its seed unless a wall-time think
//! budget is set). Prints the hero's wins, mean turns, unfinished games (and
//! how many of those no player could still have won), refused answers, and
//! the hero's think time per decision (mean and 99th percentile).

use crate::search_args::SearchArgs;
use catan_bots::{Bot, BotKind, SearchBot, arena_game, cards_rule_out, make_bot, unwinnable};
use catan_core::{Action, BoardMode, GameOptions, View};
use hdrhistogram::Histogram;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Options of `catan bots`.
#[derive(clap::Args)]
pub struct Args {
    /// The bot measured: random, easy, normal or hard.
    #[arg(long, default_value = "normal")]
    hero: BotKind,
    /// The bot in every other seat.
    #[arg(long, default_value = "random")]
    field: BotKind,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Players per game (3 or 4).
    #[arg(long, default_value_t = 4)]
    players: u8,
    /// Victory points to win (3 to 20).
    #[arg(long, default_value_t = 10)]
    vp_target: u8,
    /// First seed; game i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: u64,
    /// Turn cap after which a game counts as unfinished.
    #[arg(long, default_value_t = 1000)]
    max_turns: u32,
    /// The `hard` bots' search.
    #[command(flatten)]
    search: SearchArgs,
    /// Print each game's result on standard error as it ends.
    #[arg(long)]
    progress: bool,
    /// Print the final position of each unfinished game on standard error
    /// (points, ceiling, pieces, cards per seat).
    #[arg(long)]
    show_unfinished: bool,
}

/// Wraps a bot to record how long each of its decisions takes.
struct Timed {
    inner: Box<dyn Bot>,
    micros: Arc<Mutex<Histogram<u64>>>,
}

impl Bot for Timed {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Option<Action> {
        let start = Instant::now();
        let a = self.inner.choose(view, legal);
        let spent = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
        lock(&self.micros).saturating_record(spent.max(1));
        a
    }
}

/// The mutex's value, also after a panic elsewhere (the data stays usable).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// What one thread brings back.
struct Tally {
    wins: u64,
    finished: u64,
    unwinnable: u64,
    /// Of the unwinnable, those the Victory Point cards alone rule out.
    by_cards: u64,
    turns: u64,
    games: u64,
    decisions: u64,
    hero_fallbacks: u64,
    field_fallbacks: u64,
    micros: Histogram<u64>,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            wins: 0,
            finished: 0,
            unwinnable: 0,
            by_cards: 0,
            turns: 0,
            games: 0,
            decisions: 0,
            hero_fallbacks: 0,
            field_fallbacks: 0,
            micros: new_histogram(),
        }
    }

    fn add(&mut self, o: &Tally) {
        self.wins += o.wins;
        self.finished += o.finished;
        self.unwinnable += o.unwinnable;
        self.by_cards += o.by_cards;
        self.turns += o.turns;
        self.games += o.games;
        self.decisions += o.decisions;
        self.hero_fallbacks += o.hero_fallbacks;
        self.field_fallbacks += o.field_fallbacks;
        // Both histograms have the same bounds: adding cannot fail.
        let _ = self.micros.add(&o.micros);
    }
}

fn new_histogram() -> Histogram<u64> {
    // 1 µs to 10 min, 3 significant digits: the bounds are valid constants.
    Histogram::new_with_bounds(1, 600_000_000, 3).unwrap_or_else(|_| Histogram::new(3).unwrap())
}

/// A bot of `kind` as the arena's flags configure it.
fn bot(kind: BotKind, seed: u64, args: &Args) -> Box<dyn Bot> {
    match kind {
        BotKind::Hard => Box::new(SearchBot::new(seed, args.search.config())),
        k => make_bot(k, seed),
    }
}

/// The 95% Wilson score interval of `wins` out of `n`.
pub fn wilson(wins: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p, z) = (n as f64, wins as f64 / n as f64, 1.959_964);
    let centre = p + z * z / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let d = 1.0 + z * z / n;
    (
        ((centre - half) / d).max(0.0),
        ((centre + half) / d).min(1.0),
    )
}

fn play(
    args: &Args,
    options: GameOptions,
    i: u64,
    t: &mut Tally,
    micros: &Arc<Mutex<Histogram<u64>>>,
) -> Result<(), String> {
    let n = args.players as u64;
    let seed = args.seed.wrapping_add(i);
    let hero = (i % n) as usize;
    let mut bots: Vec<Box<dyn Bot>> = (0..n as usize)
        .map(|s| -> Box<dyn Bot> {
            let bot_seed = seed.wrapping_mul(31).wrapping_add(s as u64);
            if s == hero {
                Box::new(Timed {
                    inner: bot(args.hero, bot_seed, args),
                    micros: Arc::clone(micros),
                })
            } else {
                bot(args.field, bot_seed, args)
            }
        })
        .collect();
    let (r, last) = arena_game(options, seed, &mut bots, args.max_turns)
        .map_err(|e| format!("seed {seed}: {e}"))?;
    t.games += 1;
    t.finished += r.finished() as u64;
    t.unwinnable += (!r.finished() && unwinnable(&last)) as u64;
    t.by_cards += (!r.finished() && cards_rule_out(&last)) as u64;
    t.wins += (r.winner.map(|w| w.index()) == Some(hero)) as u64;
    t.turns += r.turns as u64;
    t.decisions += r.decisions[hero];
    t.hero_fallbacks += r.fallbacks[hero];
    t.field_fallbacks += r.fallbacks.iter().sum::<u64>() - r.fallbacks[hero];
    if args.progress {
        let how = match r.winner {
            Some(w) if w.index() == hero => "hero won",
            Some(_) => "hero lost",
            None => "unfinished",
        };
        eprintln!("game {i} (seed {seed}): {how} in {} turns", r.turns);
    }
    if args.show_unfinished && !r.finished() {
        for line in crate::bots_dump::describe(i, seed, &last) {
            eprintln!("{line}");
        }
    }
    Ok(())
}

/// Runs the arena and prints its figures.
pub fn run(args: Args) -> ExitCode {
    let options = GameOptions {
        players: args.players,
        board: BoardMode::Random,
        vp_target: args.vp_target,
        ..GameOptions::default()
    };
    if let Err(e) = options.validate() {
        eprintln!("catan bots: {e}");
        return ExitCode::from(2);
    }
    let threads = args.threads.clamp(1, 256);
    let start = Instant::now();
    let total = Arc::new(Mutex::new(Tally::new()));
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for th in 0..threads {
            let (args, total, failure) = (&args, Arc::clone(&total), &failure);
            scope.spawn(move || {
                let mut t = Tally::new();
                let micros = Arc::new(Mutex::new(new_histogram()));
                let mut i = th;
                while i < args.games {
                    if let Err(e) = play(args, options, i, &mut t, &micros) {
                        *lock(failure) = Some(e);
                        break;
                    }
                    i += threads;
                }
                // Both histograms have the same bounds: adding cannot fail.
                let _ = t.micros.add(&*lock(&micros));
                lock(&total).add(&t);
            });
        }
    });
    if let Some(e) = lock(&failure).take() {
        eprintln!("catan bots: {e}");
        return ExitCode::FAILURE;
    }
    let t = lock(&total);
    report(&args, &t, start.elapsed());
    ExitCode::SUCCESS
}

fn report(args: &Args, t: &Tally, took: Duration) {
    let games = t.games.max(1) as f64;
    let (lo, hi) = wilson(t.wins, t.games);
    println!(
        "games: {}  players: {}  target: {}  first seed: {}  threads: {}",
        t.games, args.players, args.vp_target, args.seed, args.threads
    );
    println!("hero: {}  field: {}", args.hero.name(), args.field.name());
    println!(
        "hero wins: {} ({:.1}%, 95% CI {:.1}-{:.1}%; parity {:.1}%)",
        t.wins,
        100.0 * t.wins as f64 / games,
        100.0 * lo,
        100.0 * hi,
        100.0 / args.players as f64
    );
    println!("mean turns: {:.1}", t.turns as f64 / games);
    println!(
        "unfinished (over {} turns): {} (of which no player could still reach the target: {}; \
         by the Victory Point cards alone: {})",
        args.max_turns,
        t.games - t.finished,
        t.unwinnable,
        t.by_cards
    );
    println!(
        "refused answers replaced by random legal ones: hero {}, field {}",
        t.hero_fallbacks, t.field_fallbacks
    );
    let h = &t.micros;
    println!(
        "hero think time per decision: mean {:.3} ms, p99 {:.3} ms, max {:.3} ms ({} decisions)",
        h.mean() / 1000.0,
        h.value_at_quantile(0.99) as f64 / 1000.0,
        h.max() as f64 / 1000.0,
        t.decisions
    );
    println!(
        "wall time: {:.1} s ({:.2} games/s)",
        took.as_secs_f64(),
        games / took.as_secs_f64().max(1e-9)
    );
}
