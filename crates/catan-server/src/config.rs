//! Server configuration from flags and environment variables.
//!
//! Every setting has a flag and an environment variable; flags win. Durations
//! are in milliseconds so that tests can use short ones.

use catan_bots::search::{SERVER_BUDGET_MS, SearchConfig};
use clap::Parser;
use std::net::SocketAddr;
use std::path::PathBuf;

/// How log lines are written.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines; ANSI colours only when writing to a terminal.
    Text,
    /// One JSON object per line.
    Json,
}

/// Default bind address.
pub const DEFAULT_BIND: &str = "127.0.0.1:8080";

/// Everything the server can be told at start.
#[derive(Parser, Clone, Debug)]
#[command(name = "catan-server", about = "Authoritative online Catan server")]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "CATAN_BIND", default_value = DEFAULT_BIND)]
    pub bind: SocketAddr,
    /// Database URL: `postgres://...`, `sqlite://...` or a file path. When
    /// unset, the game log is the SQLite file `catan.db` in the data directory.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// Directory for the embedded database (created if missing).
    #[arg(long, env = "CATAN_DATA_DIR", default_value = "data")]
    pub data_dir: PathBuf,
    /// Directory of the static web front end: only its public files (the
    /// browser tests and npm files beside it in `web/` are never served).
    #[arg(long, env = "CATAN_STATIC_DIR", default_value = "web/public")]
    pub static_dir: PathBuf,
    /// Lets the pages turn on their test hooks (`window.catan`, the kept
    /// update history, `?autoplay=1`): for the browser tests only, never in
    /// production. The pages learn it from `GET /api/config`.
    #[arg(long, env = "CATAN_TEST_HOOKS", default_value_t = false)]
    pub test_hooks: bool,
    /// Log filter when `RUST_LOG` is not set (e.g. `info`, `catan_server=debug`).
    #[arg(long, default_value = "info")]
    pub log: String,
    /// Log line format: `text` (coloured only on a terminal) or `json` (one
    /// object per line, for log collectors).
    #[arg(long, env = "CATAN_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Origins allowed to open WebSockets (comma separated); empty allows any.
    #[arg(long, env = "CATAN_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,
    /// Bot think time for lobbies that do not choose one.
    #[arg(long, env = "CATAN_BOT_DELAY_MS", default_value_t = 800)]
    pub bot_delay_ms: u64,
    /// How long a bot's trade offer stays open for the connected people it
    /// was made to, unless all of them answer sooner.
    #[arg(long, env = "CATAN_BOT_OFFER_WAIT_MS", default_value_t = 15_000)]
    pub bot_offer_wait_ms: u64,
    /// Wall-time think budget per decision of a `hard` bot (it thinks off
    /// the lobby actor, on a pool of one thread per core).
    // Why a second: `SERVER_BUDGET_MS`'s comment.
    #[arg(long, env = "CATAN_BOT_THINK_MS", default_value_t = SERVER_BUDGET_MS)]
    pub bot_think_ms: u64,
    /// Playouts of a `hard` bot's decision, before the factor its key
    /// decisions get: robber moves are searched with up to twelve times
    /// this many, opening placements six times (their playouts are longer),
    /// every other decision with this many once some player is within 2
    /// points of the target, and not at all before (whichever of this and
    /// the think budget comes first ends a search).
    #[arg(long, env = "CATAN_BOT_THINK_PLAYOUTS", default_value_t = SearchConfig::default().max_playouts)]
    pub bot_think_playouts: u32,
    /// How long a disconnected player the game waits for is given before a
    /// stand-in acts for them (with or without a turn timer).
    #[arg(long, env = "CATAN_TURN_GRACE_MS", default_value_t = 30_000)]
    pub turn_grace_ms: u64,
    /// How long a lobby with nobody connected lives while no game runs in
    /// it: a waiting room is closed, a finished game's lobby leaves memory.
    #[arg(long, env = "CATAN_LOBBY_IDLE_MS", default_value_t = 600_000)]
    pub lobby_idle_ms: u64,
    /// How long a running game with nobody connected stays in memory with a
    /// durable journal; it is then unloaded and resumed from its log on the
    /// next request. Apart from `lobby_idle_ms` because the two weigh
    /// different things: memory held by abandoned games against a waiting
    /// room's friends still on their way.
    #[arg(long, env = "CATAN_GAME_UNLOAD_MS", default_value_t = 600_000)]
    pub game_unload_ms: u64,
    /// Live lobbies one client address may have created.
    #[arg(long, env = "CATAN_MAX_LOBBIES_PER_CLIENT", default_value_t = 5)]
    pub max_lobbies_per_client: usize,
    /// Live lobbies in total.
    #[arg(long, env = "CATAN_MAX_LOBBIES", default_value_t = 1000)]
    pub max_lobbies: usize,
    /// Spectators per lobby.
    #[arg(long, env = "CATAN_MAX_SPECTATORS", default_value_t = 100)]
    pub max_spectators: usize,
    /// Messages queued per connection before it counts as too slow and is closed.
    #[arg(long, env = "CATAN_CONN_QUEUE", default_value_t = 256)]
    pub conn_queue: usize,
    /// Messages per second a connection may send (sustained).
    #[arg(long, env = "CATAN_RATE_PER_SEC", default_value_t = 10.0)]
    pub rate_per_sec: f64,
    /// Messages a connection may send in a burst.
    #[arg(long, env = "CATAN_RATE_BURST", default_value_t = 30)]
    pub rate_burst: u32,
    /// Refused messages in a row after which a connection is closed as a flood.
    #[arg(long, env = "CATAN_FLOOD_STRIKES", default_value_t = 20)]
    pub flood_strikes: u32,
    /// Interval between WebSocket pings.
    #[arg(long, env = "CATAN_HEARTBEAT_MS", default_value_t = 15_000)]
    pub heartbeat_ms: u64,
    /// Silence after which a socket counts as dead and is closed.
    #[arg(long, env = "CATAN_IDLE_SOCKET_MS", default_value_t = 45_000)]
    pub dead_socket_ms: u64,
    /// Use the first `X-Forwarded-For` address as the client (behind a proxy).
    #[arg(long, env = "CATAN_TRUST_FORWARDED_FOR", default_value_t = false)]
    pub trust_forwarded_for: bool,
    /// How long one write to a socket may take before the peer counts as
    /// not reading and the connection is dropped.
    #[arg(long, env = "CATAN_WRITE_TIMEOUT_MS", default_value_t = 10_000)]
    pub write_timeout_ms: u64,
    /// WebSockets that may be open at once without having said hello.
    #[arg(long, env = "CATAN_MAX_UNAUTHENTICATED", default_value_t = 1024)]
    pub max_unauthenticated: usize,
    /// How long an HTTP request (body included) may take before it is
    /// answered with 408.
    #[arg(long, env = "CATAN_HTTP_TIMEOUT_MS", default_value_t = 10_000)]
    pub http_timeout_ms: u64,
    /// HTTP POST requests (create, join, leave, bots, start) per second one
    /// client address may make, sustained.
    #[arg(long, env = "CATAN_HTTP_RATE_PER_SEC", default_value_t = 2.0)]
    pub http_rate_per_sec: f64,
    /// HTTP POST requests one client address may make in a burst.
    #[arg(long, env = "CATAN_HTTP_RATE_BURST", default_value_t = 30)]
    pub http_rate_burst: u32,
    /// The turn limit of lobbies that do not choose one: at this turn a game
    /// nobody has won ends drawn (so that no game, bots alone included, runs
    /// without end). 0: no limit unless the lobby sets one.
    #[arg(long, env = "CATAN_TURN_LIMIT", default_value_t = 500)]
    pub turn_limit: u32,
    /// Longest the lobby waits for the database to store an action. Past it
    /// the action is refused with `storage_unavailable` and, since it may
    /// still commit, the lobby takes no other action until it has read back
    /// whether the action is in the log.
    #[arg(long, env = "CATAN_JOURNAL_DEADLINE_MS", default_value_t = 5_000)]
    pub journal_deadline_ms: u64,
    /// Longest one database statement may run: PostgreSQL's
    /// `statement_timeout`, SQLite's busy timeout. Keep it below the journal
    /// deadline, so that a slow database fails a write outright (nothing
    /// stored) before the deadline leaves it in doubt.
    #[arg(long, env = "CATAN_DB_STATEMENT_TIMEOUT_MS", default_value_t = 4_000)]
    pub db_statement_timeout_ms: u64,
    /// The base URL clients reach this server at (e.g. `http://10.0.0.5:8080`).
    /// Setting it makes the server one node of a cluster over the PostgreSQL
    /// database (docs/CLUSTER.md); unset, it runs alone.
    #[arg(long, env = "CATAN_NODE_URL")]
    pub node_url: Option<String>,
    /// This node's id in the cluster (default: the host and port of
    /// `--node-url`). A restarted node should keep its id.
    #[arg(long, env = "CATAN_NODE_ID")]
    pub node_id: Option<String>,
    /// How long a node's hold on a lobby (its lease) lasts unless renewed;
    /// renewed three times within it. A node that dies loses its lobbies to
    /// the others after at most this long.
    #[arg(long, env = "CATAN_LEASE_MS", default_value_t = 3_000)]
    pub lease_ms: u64,
    /// Whether this node holds a database session the others watch, and
    /// watches theirs: a node whose process died is then cut as soon as
    /// the database sees its connection close, without waiting for its
    /// lease (docs/CLUSTER.md, "Node sessions"). Turn it off only behind a
    /// connection pooler that pools transactions, where a session lock
    /// means nothing (`--node-sessions false`).
    #[arg(long, env = "CATAN_NODE_SESSIONS", default_value_t = true, action = clap::ArgAction::Set)]
    pub node_sessions: bool,
    /// Fault injection for the tests of panic isolation: a lobby whose chat
    /// receives exactly this line panics. No flag or variable sets it, so a
    /// running server cannot be made to use it; only code that builds a
    /// `Config` (the tests) can.
    #[arg(skip)]
    pub panic_on_chat: Option<String>,
    /// For tests that need a known game: every game this server starts uses
    /// this seed (and every lobby's own randomness, bot seeds included, is
    /// drawn from it) instead of fresh OS randomness. Like `panic_on_chat`,
    /// no flag or variable sets it; only code that builds a `Config` can.
    #[arg(skip)]
    pub game_seed: Option<u64>,
}

impl Default for Config {
    /// The documented defaults (the flags' own), ignoring the environment
    /// (tests rely on that): parsed from an empty command line with every
    /// environment variable unhooked, so each default is written once.
    fn default() -> Self {
        use clap::{CommandFactory, FromArgMatches};
        let cmd = Config::command().mut_args(|a| a.env(None));
        let matches = cmd.get_matches_from(["catan-server"]);
        // Every field has a default, so an empty command line always parses.
        Config::from_arg_matches(&matches).unwrap_or_else(|e| panic!("config defaults: {e}"))
    }
}

impl Config {
    /// [`Config::journal_deadline_ms`] as a duration (at least 10 ms).
    pub fn journal_deadline(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.journal_deadline_ms.max(10))
    }
    /// The store's timeouts: [`Config::db_statement_timeout_ms`] for
    /// statements, and no longer than the journal deadline to get a pooled
    /// connection.
    pub fn store_options(&self) -> catan_store::StoreOptions {
        let statement = std::time::Duration::from_millis(self.db_statement_timeout_ms.max(10));
        catan_store::StoreOptions {
            statement_timeout: statement,
            acquire_timeout: statement.min(std::time::Duration::from_secs(3)),
            ..catan_store::StoreOptions::default()
        }
    }
    /// The cluster beat's own small pool (node beat, lease renewals and
    /// releases): four connections (two renewals in flight, the node's load
    /// report and a parking of leases), apart from the main pool so that client
    /// traffic filling that pool can never hold renewals up until the
    /// node's leases run out. A statement may take two thirds of the lease
    /// (a slow renewal answered in time still renews: the beat gives it up
    /// only when the node must stop serving anyway); a wait for a
    /// connection, a third. Its commits do not wait for the disk
    /// (`StoreOptions::asynchronous_commit`): a renewal must not wait
    /// behind a checkpoint.
    pub fn beat_store_options(&self) -> catan_store::StoreOptions {
        let lease = self.lease();
        catan_store::StoreOptions {
            statement_timeout: lease * 2 / 3,
            acquire_timeout: lease / 3,
            max_connections: 4,
            asynchronous_commit: true,
        }
    }
    /// The appends' own pool (PostgreSQL): one connection per group commit
    /// in flight and one to settle an append in doubt
    /// (`persist::WRITER_CONNECTIONS`), the store's usual timeouts and
    /// synchronous commits.
    pub fn journal_store_options(&self) -> catan_store::StoreOptions {
        catan_store::StoreOptions {
            max_connections: crate::persist::WRITER_CONNECTIONS,
            ..self.store_options()
        }
    }
    /// The takeovers' own pool (`cluster::Stores`): one connection for each
    /// takeover that may run at once (`cluster::TAKEOVERS_AT_ONCE`) and one
    /// for the reaper's looks for orphans, apart from the main pool, which
    /// the lookups and appends of a node busy with a dead node's clients
    /// keep full; the store's usual timeouts.
    pub fn takeover_store_options(&self) -> catan_store::StoreOptions {
        catan_store::StoreOptions {
            max_connections: crate::cluster::TAKEOVERS_AT_ONCE as u32 + 1,
            ..self.store_options()
        }
    }
    /// Whether this server is a node of a cluster ([`Config::node_url`] set).
    pub fn clustered(&self) -> bool {
        self.node_url
            .as_deref()
            .is_some_and(|u| !u.trim().is_empty())
    }

    /// [`Config::lease_ms`] as a duration (at least 300 ms).
    pub fn lease(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.lease_ms.max(300))
    }

    /// [`Config::lobby_idle_ms`] as a duration.
    pub fn lobby_idle(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.lobby_idle_ms)
    }
    /// [`Config::game_unload_ms`] as a duration.
    pub fn game_unload(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.game_unload_ms)
    }
    /// [`Config::turn_grace_ms`] as a duration.
    pub fn turn_grace(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.turn_grace_ms)
    }
    /// [`Config::heartbeat_ms`] as a duration (at least 10 ms).
    pub fn heartbeat(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.heartbeat_ms.max(10))
    }
    /// [`Config::write_timeout_ms`] as a duration (at least 10 ms).
    pub fn write_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.write_timeout_ms.max(10))
    }
    /// [`Config::http_timeout_ms`] as a duration (at least 10 ms).
    pub fn http_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.http_timeout_ms.max(10))
    }
    /// [`Config::dead_socket_ms`] as a duration.
    pub fn dead_socket(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.dead_socket_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_ignore_the_environment() {
        // SAFETY-free: only reads; the variable is read by clap, not set here.
        let d = Config::default();
        assert_eq!(d.static_dir, PathBuf::from("web/public"));
        assert!(!d.test_hooks);
        assert_eq!(d.bot_delay_ms, 800);
    }

    #[test]
    fn flags_parse_and_defaults_match() {
        let c = Config::try_parse_from([
            "catan-server",
            "--bind",
            "0.0.0.0:9000",
            "--allowed-origins",
            "https://a.example,https://b.example",
            "--bot-delay-ms",
            "0",
        ])
        .unwrap();
        assert_eq!(c.bind.port(), 9000);
        assert_eq!(c.allowed_origins.len(), 2);
        assert_eq!(c.bot_delay_ms, 0);
        let d = Config::default();
        assert_eq!(d.bind.to_string(), DEFAULT_BIND);
        assert_eq!(d.conn_queue, 256);
        assert_eq!(d.write_timeout_ms, 10_000);
    }
}
