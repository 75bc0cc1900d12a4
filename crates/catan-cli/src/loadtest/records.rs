//! Reading each game's stored log for the final check: from the server's
//! saved-game endpoint (`GET /api/games/{id}`, a `catan_core::record::GameRecord`),
//! or straight from the database when a `--database-url` is known and the
//! endpoint does not answer (e.g. it only serves finished games).

use super::check::Logged;
use super::http::HttpConn;
use catan_core::record::GameRecord;
use catan_store::Store;
use hyper::Method;
use std::net::SocketAddr;
use uuid::Uuid;

/// How often reading a saved game answered 503 is tried, and how long apart.
const READ_TRIES: u32 = 10;
const READ_PAUSE: std::time::Duration = std::time::Duration::from_secs(1);

/// Where logs come from.
pub struct LogSource {
    server: SocketAddr,
    http: Option<HttpConn>,
    store: Option<Store>,
}

/// The actions of a record, as the check wants them.
pub fn logged(record: &GameRecord) -> Vec<Logged> {
    record
        .actions
        .iter()
        .map(|a| Logged {
            seq: a.seq,
            seat: a.seat,
            action: a.action,
            stand_in: a.stand_in,
        })
        .collect()
}

impl LogSource {
    /// A source asking `server` first and then the database at `database_url`.
    pub async fn new(server: SocketAddr, database_url: Option<&str>) -> LogSource {
        let store = match database_url {
            Some(url) => match Store::connect(url).await {
                Ok(s) => Some(s),
                Err(e) => {
                    eprintln!("loadtest: cannot open {url} for the log check: {e}");
                    None
                }
            },
            None => None,
        };
        LogSource {
            server,
            http: None,
            store,
        }
    }

    /// The stored log of game `id`, and where it came from.
    pub async fn fetch(&mut self, id: Uuid) -> Result<(Vec<Logged>, &'static str), String> {
        let http_err = match self.fetch_http(id).await {
            Ok(log) => return Ok((log, "http")),
            Err(e) => e,
        };
        match &self.store {
            Some(store) => match store.get_record(id).await {
                Ok(Some(record)) => Ok((logged(&record), "database")),
                Ok(None) => Err(format!("{http_err}; the database has no game {id}")),
                Err(e) => Err(format!("{http_err}; database: {e}")),
            },
            None => Err(http_err),
        }
    }

    /// `GET /api/games/{id}`, tried again up to [`READ_TRIES`] times while
    /// the server answers 503.
    async fn fetch_http(&mut self, id: Uuid) -> Result<Vec<Logged>, String> {
        if self.http.is_none() {
            self.http = Some(HttpConn::connect(self.server, None).await?);
        }
        let Some(conn) = self.http.as_mut() else {
            return Err("no HTTP connection".into());
        };
        let path = format!("/api/games/{id}");
        let mut tries = 0;
        let resp = loop {
            let resp = match conn.request(Method::GET, &path, None, None).await {
                Ok(r) => r,
                Err(e) => {
                    // A broken keep-alive connection is replaced next time.
                    self.http = None;
                    return Err(e);
                }
            };
            tries += 1;
            // 503 (storage_unavailable, lobby_moved) asks a client to try
            // again in a moment, as a busy cluster answers while lobbies move.
            if resp.status != 503 || tries >= READ_TRIES {
                break resp;
            }
            tokio::time::sleep(READ_PAUSE).await;
        };
        let record: GameRecord = resp.json(&format!("GET {path}"))?;
        Ok(logged(&record))
    }
}
