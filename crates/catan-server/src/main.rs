//! The `catan-server` binary: reads configuration, serves [`catan_server::app`]
//! until SIGTERM or ctrl-c, then closes sockets and stops gracefully.

use anyhow::Context;
use catan_server::config::LogFormat;
use catan_server::persist::persistent_state;
use catan_server::{Config, serve};
use clap::Parser;
use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// mimalloc instead of glibc's allocator: a recovery's thousands of
/// returning sockets and their welcomes spent about a sixth of a node's
/// time in glibc's `malloc` and `free` and in faulting in fresh heap pages
/// (docs/PERFORMANCE.md, "The allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's setting of how long freed memory stays with the process
/// before it goes back to the system, and this server's value in
/// milliseconds. mimalloc's default (1 s) gave back, in the middle of a
/// recovery, memory the next second's reconnects asked for again: the
/// kernel's zeroing of the refaulted pages took 6-9% of the two cores until
/// every client was back, two thirds of it the surviving nodes'
/// (docs/PERFORMANCE.md, "Freed memory kept ten seconds"). After ten quiet
/// seconds the memory still goes back.
const PURGE_DELAY: (&str, &str) = ("MIMALLOC_PURGE_DELAY", "10000");

fn main() -> anyhow::Result<()> {
    with_allocator_settings();
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?
        .block_on(run())
}

/// mimalloc reads its settings from the environment once, when the process
/// loads, and this workspace forbids the `unsafe` call that would change
/// them later: a server started without [`PURGE_DELAY`] runs itself again
/// with it (the same process id, arguments and open files). An operator's
/// own value is kept; if the new run cannot start, this one goes on with
/// mimalloc's default.
fn with_allocator_settings() {
    use std::os::unix::process::CommandExt;
    let (name, value) = PURGE_DELAY;
    if std::env::var_os(name).is_some() {
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    // `exec` only returns if it failed.
    let mut args = std::env::args_os();
    let mut again = std::process::Command::new(exe);
    if let Some(arg0) = args.next() {
        again.arg0(arg0);
    }
    let error = again.args(args).env(name, value).exec();
    eprintln!(
        "catan-server: cannot run itself again with {name}={value} ({error}); going on without"
    );
}

async fn run() -> anyhow::Result<()> {
    let config = Config::parse();
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(&config.log));
    let logs = tracing_subscriber::fmt().with_env_filter(filter);
    match config.log_format {
        // Colour codes only where a person reads them: a file or a pipe to a
        // log collector gets plain text.
        LogFormat::Text => logs.with_ansi(std::io::stdout().is_terminal()).init(),
        LogFormat::Json => logs.json().init(),
    }

    // The game log: DATABASE_URL, or catan.db in the data directory.
    // Unfinished games are resumed before the first request is served.
    let (state, _recovered) = persistent_state(config.clone())
        .await
        .context("cannot start on the game store")?;
    let store = state.store.clone();
    let listener =
        listen(config.bind).with_context(|| format!("cannot listen on {}", config.bind))?;
    tracing::info!(addr = %config.bind, static_dir = %config.static_dir.display(), "catan-server listening");
    // A cluster node hands its lobbies to the other nodes before it stops
    // serving (docs/CLUSTER.md): the sockets close with "moved" and the
    // clients reconnect where their lobby went.
    let cluster = state.cluster.clone();
    let stop = async move {
        shutdown_signal().await;
        if let Some(cluster) = cluster {
            tracing::info!("draining: handing lobbies to the other nodes");
            cluster.drain().await;
        }
    };
    serve(listener, state, stop)
        .await
        .context("server failed")?;
    if let Some(store) = store {
        store.close().await;
    }
    tracing::info!("stopped");
    Ok(())
}

/// Connections the kernel may hold for the server before it accepts them
/// (capped by the kernel's `net.core.somaxconn`). A dead node's clients
/// all reconnect to the survivors within a second or two; with the usual
/// 1,024 the queue overflowed, their connection requests were dropped, and
/// each waited for its retry one to three seconds later
/// (docs/PERFORMANCE.md).
const LISTEN_BACKLOG: u32 = 8192;

/// A listening socket on `addr` with [`LISTEN_BACKLOG`].
fn listen(addr: std::net::SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    // As `TcpListener::bind` does: a restarted server may bind at once.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %e, "cannot listen for ctrl-c");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                tracing::error!(error = %e, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}
