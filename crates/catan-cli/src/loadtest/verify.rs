//! The final check over every game: fetch each stored log (a few at a time)
//! and compare it with what that game's clients saw.

use super::check::{self, Verdict};
use super::game::Outcome;
use super::records::LogSource;
use serde::Serialize;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// Logs fetched at once.
const WORKERS: usize = 8;
/// Problems printed per kind; the rest are counted.
const SHOW: usize = 10;

/// The check's totals.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Totals {
    /// Games whose log was compared.
    pub games_checked: u64,
    /// Games whose log could not be read.
    pub games_unverifiable: u64,
    /// Games with a problem.
    pub games_bad: u64,
    /// Log entries read.
    pub actions_logged: u64,
    /// Acknowledged actions found as acknowledged.
    pub actions_confirmed: u64,
    /// Actions logged whose answer never reached the client (fault run).
    pub unanswered_but_logged: u64,
    /// Stand-in actions.
    pub stand_ins: u64,
    /// Lost actions.
    pub lost: u64,
    /// Duplicated actions.
    pub duplicated: u64,
    /// Logged actions nobody sent.
    pub unexplained: u64,
    /// Logs read from the HTTP endpoint.
    pub from_http: u64,
    /// Logs read from the database.
    pub from_database: u64,
    /// Some of the problems, for the report.
    pub examples: Vec<String>,
}

impl Totals {
    /// Whether every log was read and matched.
    pub fn passed(&self) -> bool {
        self.games_unverifiable == 0 && self.games_bad == 0
    }

    fn add(&mut self, id: &str, v: &Verdict) {
        self.games_checked += 1;
        self.actions_logged += v.logged;
        self.actions_confirmed += v.confirmed;
        self.unanswered_but_logged += v.unanswered_logged;
        self.stand_ins += v.stand_ins;
        self.lost += v.lost.len() as u64;
        self.duplicated += v.duplicated.len() as u64;
        self.unexplained += v.unexplained.len() as u64;
        if !v.ok() {
            self.games_bad += 1;
        }
        for p in v.lost.iter().chain(&v.duplicated).chain(&v.unexplained) {
            if self.examples.len() < SHOW {
                self.examples.push(format!("game {id}: {p}"));
            }
        }
    }
}

/// Checks every game that was set up.
pub async fn verify_all(
    server: SocketAddr,
    database_url: Option<String>,
    outcomes: &[Outcome],
) -> Totals {
    let games: Vec<_> = outcomes
        .iter()
        .filter(|o| o.setup_error.is_none())
        .filter_map(|o| o.lobby.map(|id| (id, o.observed.clone())))
        .collect();
    let queue = Arc::new(Mutex::new(games));
    let totals = Arc::new(Mutex::new(Totals::default()));
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..WORKERS {
        let queue = queue.clone();
        let totals = totals.clone();
        let url = database_url.clone();
        workers.spawn(async move {
            let mut source = LogSource::new(server, url.as_deref()).await;
            loop {
                let next = queue.lock().unwrap_or_else(|p| p.into_inner()).pop();
                let Some((id, observed)) = next else { break };
                let fetched = source.fetch(id).await;
                let mut t = totals.lock().unwrap_or_else(|p| p.into_inner());
                match fetched {
                    Ok((log, from)) => {
                        if from == "http" {
                            t.from_http += 1;
                        } else {
                            t.from_database += 1;
                        }
                        t.add(&id.to_string(), &check::check(&observed, &log));
                    }
                    Err(e) => {
                        t.games_unverifiable += 1;
                        if t.examples.len() < SHOW {
                            t.examples.push(format!("game {id}: log unreadable: {e}"));
                        }
                    }
                }
            }
        });
    }
    while workers.join_next().await.is_some() {}
    totals.lock().unwrap_or_else(|p| p.into_inner()).clone()
}
