//! A thread with a Tokio runtime of its own, and a database pool opened
//! on it so that its connections are driven there. On a node whose main
//! runtime is swamped (tens of thousands of sockets on two cores), a task
//! that is ready waits its turn behind every other one: at 10,000 games a
//! renewal of a single row was answered after more than the lease time,
//! so nodes gave every lobby up while the database had renewed their
//! leases; and at 2,000 games a node a takeover's claim and log load,
//! which the database answered within a few milliseconds, took 0.1-1.5 s
//! each to be seen by the node (docs/PERFORMANCE.md). The beat runs on one
//! such thread, the takeovers' claims and loads on another.

use catan_store::Store;
use std::future::Future;

/// A thread with a runtime and a pool of its own.
#[derive(Debug)]
pub struct PoolThread {
    handle: tokio::runtime::Handle,
    /// The pool, opened on this runtime.
    store: Store,
}

impl PoolThread {
    /// Starts the thread `name` (it runs until the process ends) and opens
    /// its pool on it with `open`, so that the pool's connections are
    /// driven there.
    pub async fn start<F, E>(name: &str, open: F) -> Result<PoolThread, E>
    where
        F: Future<Output = Result<Store, E>> + Send + 'static,
        E: From<std::io::Error> + Send + 'static,
    {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let handle = rt.handle().clone();
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || rt.block_on(std::future::pending::<()>()))?;
        let store = handle
            .spawn(open)
            .await
            .map_err(|e| E::from(std::io::Error::other(e)))??;
        Ok(PoolThread { handle, store })
    }

    /// Where to spawn the work that uses the pool.
    pub fn handle(&self) -> &tokio::runtime::Handle {
        &self.handle
    }

    /// The pool.
    pub fn store(&self) -> &Store {
        &self.store
    }
}
