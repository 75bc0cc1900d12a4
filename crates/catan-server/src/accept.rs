//! The server's listening socket as axum takes it, waiting briefly instead
//! of a second when the process is out of files. axum's own loop sleeps a
//! whole second after such an error, and accepts nothing meanwhile: on a
//! node at its file limit (a survivor holding 18,000 sockets while a dead
//! node's clients reconnect), each of those seconds held every waiting
//! connection, and the clients behind them, for a second more
//! (docs/PERFORMANCE.md). Connections wait in the kernel's queue meanwhile
//! (`main.rs`, `LISTEN_BACKLOG`) and are accepted as soon as a file is free.

use std::io;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};

/// Pause before accepting again after the process ran out of files.
const OUT_OF_FILES_PAUSE: Duration = Duration::from_millis(10);
/// At most one log line per this long while out of files.
const LOG_EVERY: Duration = Duration::from_secs(1);

/// A [`TcpListener`] for `axum::serve` that retries quickly when out of files.
#[derive(Debug)]
pub struct Patient {
    inner: TcpListener,
    logged: Option<Instant>,
}

impl Patient {
    /// Wraps `inner`.
    pub fn new(inner: TcpListener) -> Patient {
        Patient {
            inner,
            logged: None,
        }
    }
}

impl axum::serve::Listener for Patient {
    type Io = TcpStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (TcpStream, SocketAddr) {
        loop {
            match self.inner.accept().await {
                Ok(conn) => return conn,
                Err(e) => {
                    if self.logged.is_none_or(|t| t.elapsed() >= LOG_EVERY) {
                        tracing::warn!(error = %e, "cannot accept a connection; trying again");
                        self.logged = Some(Instant::now());
                    }
                    // Out of files, or another error a moment may cure (a
                    // connection reset while it waited is not worth a pause,
                    // but a short one costs nothing).
                    tokio::time::sleep(OUT_OF_FILES_PAUSE).await;
                }
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}
