//! Persistence: the game log in a [`catan_store::Store`] (PostgreSQL or an
//! embedded SQLite file) behind the lobby actor's write-ahead
//! [`crate::journal::Journal`], recovery of unfinished games at start-up, and
//! the saved-games HTTP endpoints.
//!
//! The store is chosen by [`open_store`]: `DATABASE_URL` when set, otherwise
//! `catan.db` in the data directory, so a bare `cargo run -p catan-server`
//! needs nothing installed.

mod read;
pub mod recovery;
pub mod saved;
pub mod steps;
pub mod store_journal;

pub use recovery::{
    RecoveryReport, recover, restore_room, resume_loaded, resume_loaded_onto, resume_on_demand,
};
pub use store_journal::{StoreJournal, WRITER_CONNECTIONS};

use crate::config::Config;
use crate::state::AppState;
use catan_store::Store;
use std::path::PathBuf;
use std::sync::Arc;

/// File name of the embedded database inside the data directory.
pub const SQLITE_FILE: &str = "catan.db";

/// Where the game log lives, as [`open_store`] would choose it: the
/// configured URL, or the SQLite file in the data directory.
pub fn database_location(config: &Config) -> DatabaseLocation {
    match config.database_url.as_deref().map(str::trim) {
        Some(url) if !url.is_empty() => DatabaseLocation::Url(url.to_string()),
        _ => DatabaseLocation::SqliteFile(config.data_dir.join(SQLITE_FILE)),
    }
}

/// The database a server will use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatabaseLocation {
    /// An explicit `DATABASE_URL` (`postgres://...`, `sqlite:...` or a path).
    Url(String),
    /// The default: an SQLite file in the data directory.
    SqliteFile(PathBuf),
}

impl DatabaseLocation {
    /// A description for logs that never shows a password.
    pub fn describe(&self) -> String {
        match self {
            DatabaseLocation::Url(u) => redact_url(u),
            DatabaseLocation::SqliteFile(p) => format!("sqlite file {}", p.display()),
        }
    }
}

/// `scheme://user:secret@host/db` becomes `scheme://user:***@host/db`.
fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let Some((auth, host)) = rest.split_once('@') else {
        return url.to_string();
    };
    match auth.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

/// Why the store could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The data directory could not be created.
    #[error("cannot create the data directory {path}: {source}")]
    DataDir {
        /// The directory.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// Connecting or migrating failed.
    #[error("cannot open the database ({location}): {source}")]
    Store {
        /// Where (password redacted).
        location: String,
        /// What went wrong.
        source: catan_store::StoreError,
    },
}

/// Opens the configured store (creating the data directory and the SQLite
/// file if needed) and applies the migrations.
pub async fn open_store(config: &Config) -> Result<Store, OpenError> {
    open_store_with(config, &config.store_options()).await
}

/// [`open_store`] with its own pool size and timeouts.
async fn open_store_with(
    config: &Config,
    options: &catan_store::StoreOptions,
) -> Result<Store, OpenError> {
    let location = database_location(config);
    let target = match &location {
        DatabaseLocation::Url(u) => u.clone(),
        DatabaseLocation::SqliteFile(path) => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|source| OpenError::DataDir {
                    path: dir.to_path_buf(),
                    source,
                })?;
            }
            path.to_string_lossy().into_owned()
        }
    };
    Store::connect_with(&target, options)
        .await
        .map_err(|source| OpenError::Store {
            location: location.describe(),
            source,
        })
}

/// The journal over `store`. On PostgreSQL its appends get a pool of their
/// own (`Config::journal_store_options`), so that requests filling the main
/// pool never make a game's actions wait for a connection; SQLite has one
/// writer at a time anyway, and a second pool would only contend for its
/// lock.
async fn journal_over(config: &Config, store: &Store) -> Result<StoreJournal, OpenError> {
    let deadline = config.journal_deadline();
    if store.backend() == catan_store::Backend::Sqlite {
        return Ok(StoreJournal::new(store.clone(), deadline));
    }
    let appends = open_store_with(config, &config.journal_store_options()).await?;
    Ok(StoreJournal::with_writer(store.clone(), appends, deadline))
}

/// A thread `name` with a runtime of its own and a pool with `options`
/// opened on it.
async fn pool_thread(
    name: &str,
    config: &Config,
    options: catan_store::StoreOptions,
) -> Result<crate::cluster::PoolThread, StartError> {
    let config = config.clone();
    crate::cluster::PoolThread::start(name, async move {
        open_store_with(&config, &options)
            .await
            .map_err(StartError::from)
    })
    .await
}

/// Why the server could not start on its store.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The store could not be opened.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// Listing the unfinished games failed.
    #[error("cannot load unfinished games: {0}")]
    Recover(#[from] catan_store::StoreError),
    /// Joining the cluster failed.
    #[error(transparent)]
    Cluster(#[from] crate::cluster::JoinError),
    /// The cluster beat's thread could not be started.
    #[error("cannot start the cluster beat's thread: {0}")]
    BeatThread(#[from] std::io::Error),
}

/// Opens the configured store, builds the application state journaling to
/// it, and resumes every unfinished game. Call it on the Tokio runtime that
/// will serve the app (it spawns the lobby actors and the commit writer).
pub async fn persistent_state(config: Config) -> Result<(AppState, RecoveryReport), StartError> {
    let location = database_location(&config);
    let store = open_store(&config).await?;
    tracing::info!(database = %location.describe(), backend = ?store.backend(), "game store open");
    if config.clustered() {
        return clustered_state(config, store).await;
    }
    let journal = Arc::new(journal_over(&config, &store).await?);
    let state = AppState::new(config, journal).with_store(store.clone());
    let report = recover(&state.registry, &store).await?;
    tracing::info!(
        resumed = report.resumed.len(),
        finished = report.finished.len(),
        failed = report.failed.len(),
        "unfinished games recovered"
    );
    Ok((state, report))
}

/// [`persistent_state`] for one node of a cluster: the journal is fenced by
/// the node's leases, the node registers itself, and unfinished games are
/// not all resumed here: the cluster's beat takes over those nobody serves,
/// a share per node.
async fn clustered_state(
    config: Config,
    store: Store,
) -> Result<(AppState, RecoveryReport), StartError> {
    use crate::cluster::Cluster;
    let (leases, lost) = Cluster::leases();
    let journal = Arc::new(
        journal_over(&config, &store)
            .await?
            .fenced_by(leases.clone()),
    );
    let state = AppState::new(config.clone(), journal).with_store(store.clone());
    // The beat's pool and the takeovers' are each opened on a thread and
    // runtime of their own, so that their connections are driven there
    // (`cluster::PoolThread`).
    let beat = pool_thread("cluster-beat", &config, config.beat_store_options()).await?;
    let takeovers =
        pool_thread("cluster-takeover", &config, config.takeover_store_options()).await?;
    let cluster = Cluster::join(
        &config,
        crate::cluster::Stores { store, takeovers },
        beat,
        state.registry.clone(),
        leases,
        lost,
        state.socket_counter(),
    )
    .await?;
    Ok((state.with_cluster(cluster), RecoveryReport::default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_url_wins_over_the_data_dir() {
        let mut c = Config {
            data_dir: PathBuf::from("somewhere"),
            ..Config::default()
        };
        assert_eq!(
            database_location(&c),
            DatabaseLocation::SqliteFile(PathBuf::from("somewhere").join(SQLITE_FILE))
        );
        c.database_url = Some("  ".into());
        assert!(matches!(
            database_location(&c),
            DatabaseLocation::SqliteFile(_)
        ));
        c.database_url = Some("postgres://u:pw@h/db".into());
        let loc = database_location(&c);
        assert_eq!(loc, DatabaseLocation::Url("postgres://u:pw@h/db".into()));
        assert_eq!(loc.describe(), "postgres://u:***@h/db");
    }
}
