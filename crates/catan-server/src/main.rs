//! The `catan-server` binary: reads configuration, serves [`catan_server::app`]
//! until SIGTERM or ctrl-c, then closes sockets and stops gracefully.

use anyhow::Context;
use catan_server::{AppState, Config, MemoryJournal, app};
use clap::Parser;
use std::net::SocketAddr;
use std::sync::Arc;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = Config::parse();
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(&config.log));
    tracing_subscriber::fmt().with_env_filter(filter).init();

    if config.database_url.is_some() {
        // The persistent store is wired in by the persistence work; until then
        // games live in memory.
        tracing::warn!("DATABASE_URL is set but this build keeps games in memory");
    }
    let journal = Arc::new(MemoryJournal::new());
    let state = AppState::new(config.clone(), journal);
    let listener = tokio::net::TcpListener::bind(config.bind)
        .await
        .with_context(|| format!("cannot listen on {}", config.bind))?;
    tracing::info!(addr = %config.bind, static_dir = %config.static_dir.display(), "catan-server listening");
    let stopping = state.clone();
    axum::serve(
        listener,
        app(state).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        shutdown_signal().await;
        tracing::info!("shutting down: closing sockets");
        stopping.begin_shutdown();
    })
    .await
    .context("server failed")?;
    tracing::info!("stopped");
    Ok(())
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
