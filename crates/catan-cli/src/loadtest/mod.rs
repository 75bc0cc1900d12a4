//! `catan loadtest`: many concurrent games against a running (or spawned)
//! server over real WebSockets, with latency, throughput, error and server
//! resource figures, an optional mid-run SIGKILL of the server (the fault
//! run), and a final check of every game's stored log against what its
//! clients saw. docs/PERFORMANCE.md shows how to run it and what it measured.

mod check;
mod game;
mod http;
mod metrics;
mod net;
mod procstat;
mod proto;
mod records;
mod report;
mod runner;
mod server;
mod setup;
mod verify;
mod wsclient;

use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// `catan loadtest` options.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// The server (loopback only), e.g. http://127.0.0.1:8080.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,
    /// The nodes of a cluster, one URL each (comma separated; instead of
    /// --url): game `i` is set up on node `i mod n`, and clients follow
    /// their lobby to whichever node serves it (docs/CLUSTER.md).
    #[arg(long, value_delimiter = ',')]
    pub urls: Vec<String>,
    /// The cluster fault run: with --spawn-server, --urls and --kill-after,
    /// SIGKILL this node (0-based) and do not restart it; its lobbies must
    /// come back on the other nodes.
    #[arg(long)]
    pub kill_node: Option<usize>,
    /// A fault made by another process (scripts/loadtest-cluster.sh kills a
    /// node that several load generators share): time to recovery counts
    /// from the first socket this run loses to all of its sockets back.
    #[arg(long, conflicts_with = "kill_after")]
    pub watch_fault: bool,
    /// Concurrent games (lobbies), each with 4 seat sockets and the spectators.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// How long to measure once every game is set up (e.g. 60s, 2m, 500ms).
    #[arg(long, default_value = "60s", value_parser = parse_duration)]
    pub duration: Duration,
    /// One action per this many milliseconds per game.
    #[arg(long, default_value_t = 2000)]
    pub pace_ms: u64,
    /// Source addresses to spread client sockets over (loopback only).
    #[arg(long, value_delimiter = ',')]
    pub source_ips: Vec<IpAddr>,
    /// Use 127.0.0.1..127.0.0.N as source addresses (instead of --source-ips).
    #[arg(long)]
    pub source_count: Option<usize>,
    /// Spectator sockets per lobby.
    #[arg(long, default_value_t = 1)]
    pub spectators: usize,
    /// Report RSS and CPU of this process (the server) while running.
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Start this server binary on --url's address, and stop it at the end.
    #[arg(long)]
    pub spawn_server: Option<PathBuf>,
    /// DATABASE_URL for the spawned server; also read for the log check when
    /// the server's /api/games/{id} does not answer.
    #[arg(long)]
    pub database_url: Option<String>,
    /// The fault run: SIGKILL the spawned server this long into the
    /// measurement, restart it on the same database, and let clients reconnect.
    #[arg(long, value_parser = parse_duration)]
    pub kill_after: Option<Duration>,
    /// Interval between progress lines.
    #[arg(long, default_value = "5s", value_parser = parse_duration)]
    pub report_every: Duration,
    /// Games set up at once.
    #[arg(long, default_value_t = 32)]
    pub setup_concurrency: usize,
    /// Log level of the spawned server.
    #[arg(long, default_value = "warn")]
    pub server_log_level: String,
    /// File for the spawned server's output (default: a file in the temp dir).
    #[arg(long)]
    pub server_log: Option<PathBuf>,
    /// Write the final figures as JSON here.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Seed of the bots' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Skip the final log check (e.g. a server that keeps games in memory).
    #[arg(long)]
    pub no_check: bool,
    /// Tokio worker threads of this tool (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Exit code when the log check finds lost, duplicated or unexplained actions.
pub const EXIT_CHECK_FAILED: u8 = 2;

/// Parses `90s`, `2m`, `500ms` or a bare number of seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let n: f64 = num
        .parse()
        .map_err(|_| format!("{s:?} is not a duration like 60s, 2m or 500ms"))?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" => n,
        "m" | "min" => n * 60.0,
        "h" => n * 3600.0,
        _ => return Err(format!("{s:?}: unknown unit {unit:?} (ms, s, m, h)")),
    };
    if !secs.is_finite() || secs < 0.0 {
        return Err(format!("{s:?} is not a duration"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Runs the load test; exit 0 when it ran and the check passed,
/// [`EXIT_CHECK_FAILED`] when the check found a problem, 1 on a tool failure.
pub fn run(args: Args) -> ExitCode {
    let mut rt = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = args.threads {
        rt.worker_threads(n.max(1));
    }
    let rt = match rt.enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("loadtest: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match rt.block_on(runner::run(args)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(EXIT_CHECK_FAILED),
        Err(e) => {
            eprintln!("loadtest: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse() {
        assert_eq!(parse_duration("60s").unwrap(), Duration::from_secs(60));
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("15").unwrap(), Duration::from_secs(15));
        assert_eq!(parse_duration("1.5s").unwrap(), Duration::from_millis(1500));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("5 parsecs").is_err());
    }
}
