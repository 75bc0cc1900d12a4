//! A TCP proxy on loopback that can turn into a black hole: while stalled it
//! accepts connections and reads every byte but forwards nothing and
//! answers nothing, like a database host that stopped answering (not one
//! that refuses). What it held is delivered once it resumes, as TCP would
//! after a partition heals, so a write sent during the stall may still
//! commit late: the "in doubt" case.

#![allow(dead_code, clippy::unwrap_used)]

use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// The proxy; dropping it stops accepting (open connections live on).
pub struct BlackHole {
    /// The port to connect to instead of the upstream's.
    pub port: u16,
    stalled: watch::Sender<bool>,
    accept: tokio::task::JoinHandle<()>,
}

impl BlackHole {
    /// Starts forwarding to `upstream`.
    pub async fn start(upstream: SocketAddr) -> BlackHole {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (stalled, rx) = watch::channel(false);
        let accept = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let rx = rx.clone();
                tokio::spawn(async move {
                    let Ok(server) = TcpStream::connect(upstream).await else {
                        return;
                    };
                    let (cr, cw) = client.into_split();
                    let (sr, sw) = server.into_split();
                    tokio::spawn(pump(cr, sw, rx.clone()));
                    tokio::spawn(pump(sr, cw, rx));
                });
            }
        });
        BlackHole {
            port,
            stalled,
            accept,
        }
    }

    /// From now on nothing gets through in either direction.
    pub fn stall(&self) {
        self.stalled.send_replace(true);
    }

    /// Delivers what was held and forwards again.
    pub fn resume(&self) {
        self.stalled.send_replace(false);
    }
}

impl Drop for BlackHole {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

/// Copies `from` to `to`, holding everything back while stalled.
async fn pump(mut from: OwnedReadHalf, mut to: OwnedWriteHalf, mut stalled: watch::Receiver<bool>) {
    let mut held = Vec::new();
    let mut eof = false;
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        if !*stalled.borrow_and_update() {
            if !held.is_empty() {
                if to.write_all(&held).await.is_err() {
                    return;
                }
                held.clear();
            }
            if eof {
                let _ = to.shutdown().await;
                return;
            }
        }
        tokio::select! {
            n = from.read(&mut buf), if !eof => match n {
                Ok(0) | Err(_) => eof = true,
                Ok(n) => held.extend_from_slice(&buf[..n]),
            },
            changed = stalled.changed() => {
                if changed.is_err() {
                    return;
                }
            }
        }
    }
}
