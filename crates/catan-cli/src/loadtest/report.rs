//! The figures a run reports: one progress line per interval, and a final
//! summary printed as text and optionally written as JSON.

use super::metrics::{Latency, ReconnectParts};
use super::procstat::{self, ProcSample};
use super::verify::Totals;
use serde::Serialize;
use std::collections::BTreeMap;

/// Memory and CPU of one process over the measured window.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ProcFigures {
    /// Resident memory at the end, MiB.
    pub rss_mib: f64,
    /// Peak resident memory, MiB.
    pub peak_rss_mib: f64,
    /// Average CPU over the window, percent of one core.
    pub cpu_percent: f64,
    /// Threads at the end.
    pub threads: u64,
    /// Open files at the end.
    pub fds: u64,
}

impl ProcFigures {
    /// Figures from a sample at the start and one at the end.
    pub fn between(a: &ProcSample, b: &ProcSample, ticks: u64) -> ProcFigures {
        ProcFigures {
            rss_mib: mib(b.rss_kib),
            peak_rss_mib: mib(b.hwm_kib),
            cpu_percent: round1(procstat::cpu_percent(a, b, ticks)),
            threads: b.threads,
            fds: b.fds,
        }
    }
}

/// The server restart of the fault run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Fault {
    /// Seconds into the measurement when the server was killed.
    pub killed_at_secs: f64,
    /// Seconds from the kill until the new server answered /healthz.
    pub restart_secs: f64,
    /// Seconds from the kill until as many sockets were open as before it
    /// (none if that never happened).
    pub sockets_back_secs: Option<f64>,
    /// Sockets open just before the kill.
    pub sockets_before: i64,
    /// In a cluster run (`--kill-node`): which node was killed (not
    /// restarted; its lobbies move to the others).
    pub node_killed: Option<usize>,
    /// `--watch-fault`: another process made the fault, and the times count
    /// from the first socket this run lost.
    pub watched: bool,
    /// Sockets still away at each whole second after the kill, until all
    /// were back: where the time to recovery went (the lobbies' takeover,
    /// or the clients' last few reconnects).
    pub away_by_second: Vec<i64>,
    /// Where the reconnects spent their time (none if none happened).
    pub reconnects: Option<ReconnectParts>,
}

/// Everything a run reports at the end.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// Games asked for.
    pub games_requested: usize,
    /// Games set up and started.
    pub games_ready: u64,
    /// Games whose setup failed.
    pub games_failed: u64,
    /// Games that reached game over.
    pub games_finished: u64,
    /// Sockets the ready games should hold.
    pub sockets_expected: u64,
    /// Sockets open at the end of the measurement.
    pub sockets_held: i64,
    /// Fewest sockets open at any sample during the measurement.
    pub sockets_min: i64,
    /// Source addresses used.
    pub source_ips: usize,
    /// Pace per game, ms.
    pub pace_ms: u64,
    /// Seconds to set every game up.
    pub setup_secs: f64,
    /// Seconds measured.
    pub run_secs: f64,
    /// Actions sent during the measurement.
    pub actions_sent: u64,
    /// Actions accepted during the measurement.
    pub actions_accepted: u64,
    /// Accepted actions per second.
    pub actions_per_sec: f64,
    /// Action-to-last-client latency over the measurement.
    pub latency: Latency,
    /// Errors by code (refusals and client-side failures), whole run.
    pub errors: BTreeMap<String, u64>,
    /// Unrequested socket closes, whole run.
    pub disconnects: u64,
    /// Successful reconnects, whole run.
    pub reconnects: u64,
    /// Sockets sent to another node with 4010 (a cluster).
    pub moves: u64,
    /// Latency samples dropped because a client disconnected first.
    pub samples_dropped: u64,
    /// The server process, if known.
    pub server: Option<ProcFigures>,
    /// This load generator.
    pub client: ProcFigures,
    /// The fault run's restart.
    pub fault: Option<Fault>,
    /// The final log check (none when skipped).
    pub check: Option<Totals>,
    /// Some setup failures.
    pub setup_errors: Vec<String>,
}

/// KiB to MiB.
pub fn mib(kib: u64) -> f64 {
    round1(kib as f64 / 1024.0)
}

/// Rounds to one decimal.
pub fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Microseconds as milliseconds with two decimals.
pub fn ms(us: u64) -> String {
    format!("{:.2}", us as f64 / 1000.0)
}

/// Prints the summary for people.
pub fn print(s: &Summary) {
    println!("== catan loadtest summary ==");
    println!(
        "games      {} requested, {} ready, {} failed setup, {} finished",
        s.games_requested, s.games_ready, s.games_failed, s.games_finished
    );
    println!(
        "sockets    {} held at the end of {} expected (fewest during the run: {}), over {} source address(es)",
        s.sockets_held, s.sockets_expected, s.sockets_min, s.source_ips
    );
    println!(
        "timing     setup {:.1}s, measured {:.1}s, pace {} ms per game",
        s.setup_secs, s.run_secs, s.pace_ms
    );
    println!(
        "actions    {} sent, {} accepted, {:.1} actions/s",
        s.actions_sent, s.actions_accepted, s.actions_per_sec
    );
    let l = &s.latency;
    println!(
        "latency    action -> every client of the lobby: p50 {} ms, p95 {} ms, p99 {} ms, max {} ms ({} samples)",
        ms(l.p50_us),
        ms(l.p95_us),
        ms(l.p99_us),
        ms(l.max_us),
        l.count
    );
    let errors: Vec<String> = s.errors.iter().map(|(k, v)| format!("{k}={v}")).collect();
    println!(
        "errors     {} [{}]; disconnects {}, reconnects {}, moved {}, samples dropped {}",
        s.errors.values().sum::<u64>(),
        errors.join(" "),
        s.disconnects,
        s.reconnects,
        s.moves,
        s.samples_dropped
    );
    if let Some(p) = &s.server {
        println!(
            "server     RSS {} MiB (peak {} MiB), CPU {}% of one core, {} threads, {} fds",
            p.rss_mib, p.peak_rss_mib, p.cpu_percent, p.threads, p.fds
        );
    }
    let c = &s.client;
    println!(
        "loadgen    RSS {} MiB (peak {} MiB), CPU {}% of one core",
        c.rss_mib, c.peak_rss_mib, c.cpu_percent
    );
    if let Some(f) = &s.fault {
        let back = f
            .sockets_back_secs
            .map_or("never".to_string(), |t| format!("{t:.1}s"));
        match f.node_killed {
            None if f.watched => println!(
                "fault      made by another process: first socket lost at {:.1}s; all {} sockets back after {} (time to recovery)",
                f.killed_at_secs, f.sockets_before, back
            ),
            Some(n) => println!(
                "fault      SIGKILL of node {n} at {:.1}s; all {} sockets back on the other nodes after {} (time to recovery)",
                f.killed_at_secs, f.sockets_before, back
            ),
            None => println!(
                "fault      SIGKILL at {:.1}s; new server healthy after {:.1}s; all {} sockets back after {}",
                f.killed_at_secs, f.restart_secs, f.sockets_before, back
            ),
        }
        if !f.away_by_second.is_empty() {
            let curve: Vec<String> = f
                .away_by_second
                .iter()
                .enumerate()
                .map(|(s, n)| format!("{}s {n}", s + 1))
                .collect();
            println!("fault      sockets still away after {}", curve.join(", "));
        }
        if let Some(r) = &f.reconnects {
            let parts = [
                ("waited", r.waited),
                ("lookup", r.lookup),
                ("open", r.open),
                ("welcome", r.welcome),
                ("in all", r.total),
            ];
            // A single server is never asked where a lobby lives: no
            // lookup part then.
            let parts: Vec<String> = parts
                .iter()
                .filter(|(_, l)| l.count > 0)
                .map(|(name, l)| {
                    format!(
                        "{name} {} / {} / {}",
                        ms(l.p50_us),
                        ms(l.p99_us),
                        ms(l.max_us)
                    )
                })
                .collect();
            println!(
                "fault      reconnects, p50 / p99 / max in ms: {}",
                parts.join("; ")
            );
        }
    }
    for e in &s.setup_errors {
        println!("setup      {e}");
    }
    match &s.check {
        None => println!("check      skipped"),
        Some(t) => {
            println!(
                "check      {} games compared ({} via HTTP, {} from the database), {} unreadable; {} logged actions, {} acknowledged and confirmed, {} unanswered but logged, {} stand-in",
                t.games_checked,
                t.from_http,
                t.from_database,
                t.games_unverifiable,
                t.actions_logged,
                t.actions_confirmed,
                t.unanswered_but_logged,
                t.stand_ins
            );
            println!(
                "check      lost {}, duplicated {}, unexplained {} -> {}",
                t.lost,
                t.duplicated,
                t.unexplained,
                if t.passed() { "PASS" } else { "FAIL" }
            );
            for e in &t.examples {
                println!("check      {e}");
            }
        }
    }
}
