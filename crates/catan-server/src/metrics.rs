//! Prometheus metrics of the server, served at `GET /metrics` in the
//! OpenMetrics text format (docs/PROTOCOL.md lists each one).
//!
//! One set per process: the counters are process-wide statics, so that the
//! places that count (the socket code, the lobby actors, the journal, the
//! error responses) need no handle passed down to them. Gauges that describe
//! the present (lobbies, sockets) are read from the app state at each scrape.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use std::sync::LazyLock;
use std::time::Duration;

/// Where a refusal was sent.
#[derive(
    Clone, Copy, Debug, Hash, PartialEq, Eq, prometheus_client::encoding::EncodeLabelValue,
)]
#[allow(non_camel_case_types)]
pub enum Via {
    /// A `rejected` message on a WebSocket.
    ws,
    /// An HTTP error response.
    http,
}

/// Labels of `catan_refusals_total`.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RefusalLabels {
    /// The refusal code.
    pub code: &'static str,
    /// Where it was sent.
    pub via: Via,
}

/// Labels of `catan_actions_total`.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ActorLabels {
    /// Who acted: `player`, `bot` or `stand_in`.
    pub by: &'static str,
}

/// Every metric the server keeps.
pub struct Metrics {
    registry: Registry,
    /// Live lobbies (set at each scrape).
    pub lobbies: Gauge,
    /// Open WebSocket tasks (set at each scrape).
    pub sockets: Gauge,
    /// Accepted game actions, by who acted.
    pub actions: Family<ActorLabels, Counter>,
    /// Seconds from handing an action to the journal to its commit.
    pub journal_append: Histogram,
    /// Actions per group-commit batch written to the store.
    pub batch_size: Histogram,
    /// Journal appends that failed (the action was refused).
    pub journal_failures: Counter,
    /// Appends whose outcome was unknown at their deadline (held, settled).
    pub journal_in_doubt: Counter,
    /// Of those, actions settling found were not stored and dropped.
    pub journal_in_doubt_dropped: Counter,
    /// Refusals sent, by code and channel.
    pub refusals: Family<RefusalLabels, Counter>,
    /// Connections closed for not keeping up with their queue (4008).
    pub slow_consumer_kicks: Counter,
    /// Connections dropped because a write to them did not finish in time.
    pub write_timeouts: Counter,
    /// Lobby tasks that ended in a panic.
    pub lobby_panics: Counter,
    /// Lobbies this node took over from another node's log (cluster).
    pub cluster_takeovers: Counter,
    /// Leases this node found taken over, or could not renew in time.
    pub cluster_leases_lost: Counter,
    /// Seconds one lease renewal statement took (cluster).
    pub cluster_renew: Histogram,
    /// 1 while this node refuses new lobbies because its lease renewals
    /// are slow (cluster), else 0.
    pub cluster_busy: Gauge,
    /// Other nodes found dead by their closed database session and cut
    /// before their leases ran out, by this node or another, each counted
    /// once when this node heard of it (cluster).
    pub cluster_nodes_cut: Counter,
}

impl Metrics {
    fn new() -> Metrics {
        let mut registry = Registry::with_prefix("catan");
        let lobbies = Gauge::default();
        let sockets = Gauge::default();
        let actions = Family::<ActorLabels, Counter>::default();
        let journal_append = Histogram::new(exponential_buckets(0.0005, 2.0, 14));
        let batch_size = Histogram::new(exponential_buckets(1.0, 2.0, 12));
        let journal_failures = Counter::default();
        let journal_in_doubt = Counter::default();
        let journal_in_doubt_dropped = Counter::default();
        let refusals = Family::<RefusalLabels, Counter>::default();
        let slow_consumer_kicks = Counter::default();
        let write_timeouts = Counter::default();
        let lobby_panics = Counter::default();
        let cluster_takeovers = Counter::default();
        let cluster_leases_lost = Counter::default();
        let cluster_renew = Histogram::new(exponential_buckets(0.0005, 2.0, 14));
        let cluster_busy = Gauge::default();
        let cluster_nodes_cut = Counter::default();
        registry.register("lobbies", "Live lobbies", lobbies.clone());
        registry.register("sockets", "Open WebSocket connections", sockets.clone());
        registry.register(
            "actions",
            "Accepted game actions by who acted",
            actions.clone(),
        );
        registry.register(
            "journal_append_seconds",
            "Time from handing an action to the journal until it is committed",
            journal_append.clone(),
        );
        registry.register(
            "journal_batch_actions",
            "Actions per group-commit batch written to the store",
            batch_size.clone(),
        );
        registry.register(
            "journal_failures",
            "Journal appends that failed; each action was refused with storage_unavailable",
            journal_failures.clone(),
        );
        registry.register(
            "journal_in_doubt",
            "Appends whose outcome was unknown at their deadline; the lobby held the action until settled",
            journal_in_doubt.clone(),
        );
        registry.register(
            "journal_in_doubt_dropped",
            "Actions in doubt that settling found another action in place of, and dropped",
            journal_in_doubt_dropped.clone(),
        );
        registry.register(
            "refusals",
            "Refusals sent, by code and channel",
            refusals.clone(),
        );
        registry.register(
            "slow_consumer_kicks",
            "Connections closed with 4008 because their queue was full",
            slow_consumer_kicks.clone(),
        );
        registry.register(
            "write_timeouts",
            "Connections dropped because a write to them did not finish in time",
            write_timeouts.clone(),
        );
        registry.register(
            "lobby_panics",
            "Lobby tasks that ended in a panic",
            lobby_panics.clone(),
        );
        registry.register(
            "cluster_takeovers",
            "Lobbies this node took over from another node's log",
            cluster_takeovers.clone(),
        );
        registry.register(
            "cluster_leases_lost",
            "Lobby leases this node lost (taken over, or not renewed in time)",
            cluster_leases_lost.clone(),
        );
        registry.register(
            "cluster_renew_seconds",
            "Time one batched lease renewal took",
            cluster_renew.clone(),
        );
        registry.register(
            "cluster_busy",
            "1 while this node refuses new lobbies because its lease renewals are slow",
            cluster_busy.clone(),
        );
        registry.register(
            "cluster_nodes_cut",
            "Other nodes found dead by their closed database session and cut before their leases ran out (by any node; counted when this node heard of it)",
            cluster_nodes_cut.clone(),
        );
        Metrics {
            registry,
            lobbies,
            sockets,
            actions,
            journal_append,
            batch_size,
            journal_failures,
            journal_in_doubt,
            journal_in_doubt_dropped,
            refusals,
            slow_consumer_kicks,
            write_timeouts,
            lobby_panics,
            cluster_takeovers,
            cluster_leases_lost,
            cluster_renew,
            cluster_busy,
            cluster_nodes_cut,
        }
    }

    /// Counts one refusal.
    pub fn refused(&self, code: catan_protocol::Code, via: Via) {
        self.refusals
            .get_or_create(&RefusalLabels {
                code: code.as_str(),
                via,
            })
            .inc();
    }

    /// Records one journal append's time.
    pub fn appended(&self, took: Duration) {
        self.journal_append.observe(took.as_secs_f64());
    }

    /// Everything in the OpenMetrics text format.
    pub fn render(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }
}

static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

/// The process's metrics.
pub fn metrics() -> &'static Metrics {
    &METRICS
}
