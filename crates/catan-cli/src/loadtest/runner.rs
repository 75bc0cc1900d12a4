//! The run itself: optional server start, setting up every game, the
//! measured window with progress lines (and the fault run's SIGKILL and
//! restart), draining, the final log check and the summary.

use super::game::{self, Outcome, Phase, Shared};
use super::metrics::{Latency, Metrics};
use super::net::{self, Sources};
use super::procstat::{self, ProcSample};
use super::report::{self, Fault, ProcFigures, Summary};
use super::server::Spawned;
use super::verify;
use super::{Args, setup::SEATS};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Mutex, Semaphore, watch};
use tokio::time::Instant;

/// How often the monitor looks at the counters.
const SAMPLE: Duration = Duration::from_millis(250);
/// How long in-flight actions get to be answered after the measurement.
const DRAIN: Duration = Duration::from_secs(5);

/// Runs the load test; `Ok(passed)` tells whether the log check passed.
pub async fn run(args: Args) -> Result<bool, String> {
    let targets = targets(&args)?;
    let ips = match args.source_count {
        Some(n) => net::loopback_range(n),
        None => args.source_ips.clone(),
    };
    net::check_sources(&ips)?;
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if args.spectators + SEATS > 64 {
        return Err("at most 60 spectators per lobby".into());
    }
    if args.kill_after.is_some() && args.spawn_server.is_none() {
        return Err("--kill-after needs --spawn-server (the tool restarts the server)".into());
    }
    if let Some(k) = args.kill_node
        && (args.kill_after.is_none() || targets.len() < 2 || k >= targets.len())
    {
        return Err(
            "--kill-node N needs --kill-after, --spawn-server and --urls with more than N nodes"
                .into(),
        );
    }
    if targets.len() > 1
        && args.spawn_server.is_some()
        && !args
            .database_url
            .as_deref()
            .is_some_and(|u| u.starts_with("postgres"))
    {
        return Err("a cluster of nodes needs --database-url postgres://...".into());
    }
    let per_game = (SEATS + args.spectators) as u64;
    let needed = args.games as u64 * per_game + 64;
    if let Some(limit) = procstat::open_files_limit()
        && limit < needed
    {
        eprintln!(
            "loadtest: warning: {needed} sockets need more open files than this process may have ({limit}); raise `ulimit -n`"
        );
    }

    let mut spawned = Vec::new();
    if let Some(bin) = &args.spawn_server {
        for (i, &addr) in targets.iter().enumerate() {
            let log = match (&args.server_log, targets.len()) {
                (Some(p), 1) => p.clone(),
                (Some(p), _) => p.with_extension(format!("node-{i}.log")),
                (None, _) => std::env::temp_dir().join(format!(
                    "catan-loadtest-server-{}-{i}.log",
                    std::process::id()
                )),
            };
            let mut s = Spawned::new(
                bin,
                addr,
                args.database_url.as_deref(),
                args.games,
                &args.server_log_level,
                log,
            );
            if targets.len() > 1 {
                s = s.node(&format!("node-{i}"), &format!("http://{addr}"));
            }
            let started = s.start().await;
            let took = match started {
                Ok(t) => t,
                Err(e) => {
                    for s in spawned.iter_mut() {
                        Spawned::stop(s).await;
                    }
                    return Err(e);
                }
            };
            println!(
                "server     started {} (pid {}) on {addr} in {:.1}s; log {}",
                bin.display(),
                s.pid().unwrap_or(0),
                took.as_secs_f64(),
                s.log_path().display()
            );
            spawned.push(s);
        }
    }
    let result = measure(&args, &targets, ips, &mut spawned).await;
    for s in spawned.iter_mut() {
        s.stop().await;
    }
    let summary = result?;
    report::print(&summary);
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(summary.check.as_ref().is_none_or(|t| t.passed()))
}

/// The servers to load: `--urls`, or `--url` alone.
fn targets(args: &Args) -> Result<Vec<std::net::SocketAddr>, String> {
    if args.urls.is_empty() {
        return Ok(vec![net::parse_target(&args.url)?]);
    }
    args.urls.iter().map(|u| net::parse_target(u)).collect()
}

async fn measure(
    args: &Args,
    targets: &[std::net::SocketAddr],
    ips: Vec<std::net::IpAddr>,
    spawned: &mut Vec<Spawned>,
) -> Result<Summary, String> {
    let ticks = procstat::clock_ticks();
    let per_game = (SEATS + args.spectators) as i64;
    let metrics = Arc::new(Metrics::default());
    let source_count = ips.len().max(1);
    let shared = Arc::new(Shared {
        servers: targets.to_vec(),
        sources: Sources::new(ips),
        pace: Duration::from_millis(args.pace_ms),
        spectators: args.spectators,
        metrics: metrics.clone(),
        seed: args.seed,
        setup_slots: Semaphore::new(args.setup_concurrency.max(1)),
    });
    let server_pid = Arc::new(Mutex::new(
        spawned.first().and_then(|s| s.pid()).or(args.server_pid),
    ));
    let (phase_tx, phase_rx) = watch::channel(Phase::Run);
    let mut drivers = tokio::task::JoinSet::new();
    for i in 0..args.games {
        drivers.spawn(game::drive(shared.clone(), i, phase_rx.clone()));
    }

    // 1. Setup.
    let t0 = Instant::now();
    let mut next_line = t0 + args.report_every;
    loop {
        let ready = Metrics::get(&metrics.games_ready);
        let failed = Metrics::get(&metrics.games_failed);
        if ready + failed >= args.games as u64 {
            break;
        }
        if Instant::now() >= next_line {
            println!(
                "setup      {:>6.1}s  ready {ready}/{} failed {failed} sockets {}",
                t0.elapsed().as_secs_f64(),
                args.games,
                metrics.sockets()
            );
            next_line += args.report_every;
        }
        tokio::time::sleep(SAMPLE).await;
    }
    let setup_secs = t0.elapsed().as_secs_f64();
    println!(
        "setup      done in {setup_secs:.1}s: {} games ready, {} failed, {} sockets",
        Metrics::get(&metrics.games_ready),
        Metrics::get(&metrics.games_failed),
        metrics.sockets()
    );

    // 2. The measured window.
    metrics.reset_latency();
    let start = Instant::now();
    let accepted0 = Metrics::get(&metrics.actions_accepted);
    let sent0 = Metrics::get(&metrics.actions_sent);
    let me = std::process::id();
    let client0 = procstat::sample(me);
    let server0 = sample_server(&server_pid).await;
    let mut last_line = (start, accepted0, client0, server0);
    let mut server_base = server0;
    let mut next_line = start + args.report_every;
    let mut sockets_min = metrics.sockets();
    let spawned_cell = Arc::new(Mutex::new(std::mem::take(spawned)));
    let mut kill = args.kill_after.map(|k| start + k);
    let mut fault: Option<Fault> = None;
    let restart_done: Arc<Mutex<Option<Result<f64, String>>>> = Arc::new(Mutex::new(None));
    let end = start + args.duration;
    while Instant::now() < end {
        tokio::time::sleep(SAMPLE.min(end.saturating_duration_since(Instant::now()))).await;
        let now = Instant::now();
        sockets_min = sockets_min.min(metrics.sockets());
        if let Some(at) = kill
            && now >= at
        {
            kill = None;
            let before = metrics.sockets();
            fault = Some(Fault {
                killed_at_secs: report::round1(now.duration_since(start).as_secs_f64()),
                sockets_before: before,
                node_killed: args.kill_node,
                ..Fault::default()
            });
            match args.kill_node {
                Some(k) => {
                    println!("fault      SIGKILL node {k} ({before} sockets open); not restarted");
                    kill_node(spawned_cell.clone(), k, server_pid.clone()).await?;
                }
                None => {
                    println!("fault      SIGKILL the server ({before} sockets open)");
                    restart(
                        spawned_cell.clone(),
                        server_pid.clone(),
                        restart_done.clone(),
                        now,
                    );
                }
            }
        }
        if args.watch_fault
            && fault.is_none()
            && let Some(at) = metrics.first_drop()
        {
            let before = Metrics::get(&metrics.games_ready) as i64 * per_game;
            fault = Some(Fault {
                killed_at_secs: report::round1(at.duration_since(start).as_secs_f64()),
                sockets_before: before,
                watched: true,
                ..Fault::default()
            });
            println!(
                "fault      first socket lost {:.1}s into the run ({before} sockets expected)",
                at.duration_since(start).as_secs_f64()
            );
        }
        if let Some(f) = fault.as_mut() {
            if f.restart_secs == 0.0
                && let Some(r) = restart_done.lock().await.take()
            {
                f.restart_secs = report::round1(r?);
                println!(
                    "fault      new server healthy {:.1}s after the kill",
                    f.restart_secs
                );
            }
            let kill_at = match metrics.first_drop() {
                Some(at) if f.watched => at,
                _ => start + Duration::from_secs_f64(f.killed_at_secs),
            };
            if f.sockets_back_secs.is_none() {
                let whole = now.saturating_duration_since(kill_at).as_secs() as usize;
                let away = (f.sockets_before - metrics.sockets()).max(0);
                while f.away_by_second.len() < whole {
                    f.away_by_second.push(away);
                }
            }
            if f.sockets_back_secs.is_none()
                && (f.restart_secs > 0.0 || f.node_killed.is_some() || f.watched)
                && metrics.sockets() >= f.sockets_before
            {
                let back = report::round1(now.duration_since(kill_at).as_secs_f64());
                f.sockets_back_secs = Some(back);
                println!(
                    "fault      all {} sockets back {back:.1}s after the kill",
                    f.sockets_before
                );
            }
        }
        if now >= next_line {
            next_line += args.report_every;
            let accepted = Metrics::get(&metrics.actions_accepted);
            let client = procstat::sample(me);
            let server = sample_server(&server_pid).await;
            let dt = now.duration_since(last_line.0).as_secs_f64().max(1e-9);
            let rate = (accepted - last_line.1) as f64 / dt;
            // After the fault run's restart, CPU is measured from the new
            // process's first sample.
            if let (Some(base), Some(now_s)) = (&server_base, &server)
                && base.pid != now_s.pid
            {
                server_base = server;
            }
            line(
                now.duration_since(start).as_secs_f64(),
                &metrics,
                rate,
                metrics.take_interval(),
                (&last_line.3, &server),
                (&last_line.2, &client),
                ticks,
            );
            last_line = (now, accepted, client, server);
        }
    }
    let run_secs = start.elapsed().as_secs_f64();
    let accepted = Metrics::get(&metrics.actions_accepted) - accepted0;
    let sent = Metrics::get(&metrics.actions_sent) - sent0;
    let latency = metrics.total_latency();
    let sockets_held = metrics.sockets();
    let client_end = procstat::sample(me);
    let server_end = sample_server(&server_pid).await;

    // 3. Drain and stop.
    phase_tx.send_replace(Phase::Drain);
    tokio::time::sleep(DRAIN.min(Duration::from_millis(args.pace_ms * 2 + 500))).await;
    phase_tx.send_replace(Phase::Stop);
    let mut outcomes: Vec<Outcome> = Vec::with_capacity(args.games);
    while let Some(r) = drivers.join_next().await {
        match r {
            Ok(o) => outcomes.push(o),
            Err(e) => return Err(format!("a game driver failed: {e}")),
        }
    }
    *spawned = std::mem::take(&mut *spawned_cell.lock().await);

    // 4. Check.
    let check = if args.no_check {
        None
    } else {
        let t = Instant::now();
        // The database to fall back on when /api/games/{id} does not answer.
        let db = args.database_url.clone().or_else(|| {
            spawned
                .first()
                .and_then(|s| s.data_dir())
                .map(|d| format!("sqlite://{}/catan.db", d.display()))
        });
        // A node killed for good cannot answer: read through another.
        let reader = match args.kill_node {
            Some(k) => targets[(k + 1) % targets.len()],
            None => targets[0],
        };
        let totals = verify::verify_all(reader, db, &outcomes).await;
        println!(
            "check      read {} logs in {:.1}s",
            totals.games_checked + totals.games_unverifiable,
            t.elapsed().as_secs_f64()
        );
        Some(totals)
    };
    let setup_errors = outcomes
        .iter()
        .filter_map(|o| o.setup_error.as_ref())
        .take(5)
        .cloned()
        .collect();
    let ready = Metrics::get(&metrics.games_ready);
    Ok(Summary {
        games_requested: args.games,
        games_ready: ready,
        games_failed: Metrics::get(&metrics.games_failed),
        games_finished: Metrics::get(&metrics.games_finished),
        sockets_expected: ready * (SEATS + args.spectators) as u64,
        sockets_held,
        sockets_min,
        source_ips: source_count,
        pace_ms: args.pace_ms,
        setup_secs: report::round1(setup_secs),
        run_secs: report::round1(run_secs),
        actions_sent: sent,
        actions_accepted: accepted,
        actions_per_sec: report::round1(accepted as f64 / run_secs.max(1e-9)),
        latency,
        errors: metrics.errors(),
        disconnects: Metrics::get(&metrics.disconnects),
        reconnects: Metrics::get(&metrics.reconnects),
        moves: Metrics::get(&metrics.moves),
        samples_dropped: Metrics::get(&metrics.samples_dropped),
        server: match (server_base, server_end) {
            (Some(a), Some(b)) => Some(ProcFigures::between(&a, &b, ticks)),
            _ => None,
        },
        client: match (client0, client_end) {
            (Some(a), Some(b)) => ProcFigures::between(&a, &b, ticks),
            _ => ProcFigures::default(),
        },
        fault: fault.map(|f| Fault {
            reconnects: metrics.reconnect_parts(),
            ..f
        }),
        check,
        setup_errors,
    })
}

async fn sample_server(pid: &Arc<Mutex<Option<u32>>>) -> Option<ProcSample> {
    let pid = (*pid.lock().await)?;
    procstat::sample(pid)
}

/// The cluster fault: SIGKILLs node `k` for good (the measured server's
/// figures stop if it was node 0).
async fn kill_node(
    nodes: Arc<Mutex<Vec<Spawned>>>,
    k: usize,
    pid: Arc<Mutex<Option<u32>>>,
) -> Result<(), String> {
    let mut nodes = nodes.lock().await;
    let node = nodes
        .get_mut(k)
        .ok_or_else(|| format!("there is no node {k}"))?;
    node.kill().await?;
    if k == 0 {
        *pid.lock().await = None;
    }
    Ok(())
}

/// Kills and restarts the spawned server in the background, so that the
/// progress lines keep coming while it recovers.
fn restart(
    server: Arc<Mutex<Vec<Spawned>>>,
    pid: Arc<Mutex<Option<u32>>>,
    done: Arc<Mutex<Option<Result<f64, String>>>>,
    killed: Instant,
) {
    tokio::spawn(async move {
        let mut guard = server.lock().await;
        let r = match guard.first_mut() {
            None => Err("no spawned server to kill".to_string()),
            Some(s) => match s.kill().await {
                Err(e) => Err(e),
                Ok(()) => {
                    *pid.lock().await = None;
                    match s.start().await {
                        Ok(_) => {
                            *pid.lock().await = s.pid();
                            Ok(killed.elapsed().as_secs_f64())
                        }
                        Err(e) => Err(e),
                    }
                }
            },
        };
        *done.lock().await = Some(r);
    });
}

/// One progress line.
fn line(
    t: f64,
    m: &Metrics,
    rate: f64,
    l: Latency,
    server: (&Option<ProcSample>, &Option<ProcSample>),
    client: (&Option<ProcSample>, &Option<ProcSample>),
    ticks: u64,
) {
    let proc = |p: (&Option<ProcSample>, &Option<ProcSample>)| match p {
        (Some(a), Some(b)) => format!(
            "rss {:.0} MiB cpu {:.0}%",
            report::mib(b.rss_kib),
            procstat::cpu_percent(a, b, ticks)
        ),
        (_, Some(b)) => format!("rss {:.0} MiB", report::mib(b.rss_kib)),
        _ => "-".to_string(),
    };
    println!(
        "run {t:>7.1}s  games {} sockets {} | {rate:>7.1} actions/s | p50 {} p95 {} p99 {} max {} ms | errors {} disc {} | server {} fds {} | loadgen {}",
        Metrics::get(&m.games_ready),
        m.sockets(),
        report::ms(l.p50_us),
        report::ms(l.p95_us),
        report::ms(l.p99_us),
        report::ms(l.max_us),
        m.error_count(),
        Metrics::get(&m.disconnects),
        proc(server),
        server.1.map_or(0, |s| s.fds),
        proc(client),
    );
}
