//! Counters and latency histograms shared by every game driver.
//!
//! Latencies are microseconds from sending an action to the moment the last
//! client of that lobby (every seat and spectator connected at send time)
//! received the update it caused. One histogram covers the whole run and a
//! second is drained at every report interval.

use hdrhistogram::Histogram;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;
use tokio::time::Instant;

/// Highest latency the histograms record exactly (larger values are clamped).
const MAX_LATENCY_US: u64 = 120_000_000;

/// Run-wide counters.
#[derive(Debug)]
pub struct Metrics {
    /// Sockets currently open (seats and spectators).
    pub sockets_open: AtomicI64,
    /// Games whose lobby, seats and sockets are set up and started.
    pub games_ready: AtomicU64,
    /// Games whose setup failed.
    pub games_failed: AtomicU64,
    /// Games that reached game over.
    pub games_finished: AtomicU64,
    /// Actions sent.
    pub actions_sent: AtomicU64,
    /// Actions the server accepted.
    pub actions_accepted: AtomicU64,
    /// Socket closes not asked for by this tool.
    pub disconnects: AtomicU64,
    /// Successful reconnects.
    pub reconnects: AtomicU64,
    /// Sockets a cluster node closed with 4010, sending the client to the
    /// lobby's node.
    pub moves: AtomicU64,
    /// Latency samples abandoned because a client dropped before the update.
    pub samples_dropped: AtomicU64,
    /// When the first socket close not asked for happened since the last
    /// [`Metrics::reset_latency`] (`--watch-fault` times recovery from it).
    first_drop: Mutex<Option<Instant>>,
    errors: Mutex<BTreeMap<String, u64>>,
    total: Mutex<Histogram<u64>>,
    interval: Mutex<Histogram<u64>>,
    reconnect: Mutex<[Histogram<u64>; 5]>,
}

/// One part of a reconnect, timed by [`Metrics::reconnect_part`].
#[derive(Clone, Copy, Debug)]
pub enum Part {
    /// From losing the socket to starting the attempt that succeeded
    /// (backoff and failed attempts).
    Waited = 0,
    /// One `GET /api/lobbies/{id}` round over the nodes (every attempt).
    Lookup = 1,
    /// Connecting and the WebSocket handshake (every successful one).
    Open = 2,
    /// From the open socket to its welcome.
    Welcome = 3,
    /// From losing the socket to the welcome on the new one.
    Total = 4,
}

/// Where a run's reconnects spent their time (`--watch-fault` and the
/// fault runs report it: which part of a recovery is the clients').
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct ReconnectParts {
    /// Backoff and failed attempts before the attempt that succeeded.
    pub waited: Latency,
    /// Asking where the lobby lives.
    pub lookup: Latency,
    /// Connecting and the WebSocket handshake.
    pub open: Latency,
    /// Waiting for the welcome on the open socket.
    pub welcome: Latency,
    /// From the lost socket to the welcome on the new one.
    pub total: Latency,
}

/// Percentiles of one histogram, in microseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Latency {
    /// Samples.
    pub count: u64,
    /// Median.
    pub p50_us: u64,
    /// 95th percentile.
    pub p95_us: u64,
    /// 99th percentile.
    pub p99_us: u64,
    /// Largest.
    pub max_us: u64,
}

impl Latency {
    fn of(h: &Histogram<u64>) -> Latency {
        if h.is_empty() {
            return Latency::default();
        }
        Latency {
            count: h.len(),
            p50_us: h.value_at_quantile(0.50),
            p95_us: h.value_at_quantile(0.95),
            p99_us: h.value_at_quantile(0.99),
            max_us: h.max(),
        }
    }
}

fn histogram() -> Histogram<u64> {
    // Constant bounds that hdrhistogram always accepts (1 <= low, high >= 2 * low, 3 digits).
    Histogram::new_with_bounds(1, MAX_LATENCY_US, 3).expect("valid constant histogram bounds")
}

/// A duration as a histogram records it: microseconds within the bounds
/// (`saturating_record` cannot fail on them).
fn micros(d: Duration) -> u64 {
    (d.as_micros() as u64).clamp(1, MAX_LATENCY_US)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Counters stay meaningful even if a driver panicked mid-update.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            sockets_open: AtomicI64::new(0),
            games_ready: AtomicU64::new(0),
            games_failed: AtomicU64::new(0),
            games_finished: AtomicU64::new(0),
            actions_sent: AtomicU64::new(0),
            actions_accepted: AtomicU64::new(0),
            disconnects: AtomicU64::new(0),
            reconnects: AtomicU64::new(0),
            moves: AtomicU64::new(0),
            samples_dropped: AtomicU64::new(0),
            first_drop: Mutex::new(None),
            errors: Mutex::new(BTreeMap::new()),
            total: Mutex::new(histogram()),
            interval: Mutex::new(histogram()),
            reconnect: Mutex::new(std::array::from_fn(|_| histogram())),
        }
    }
}

impl Metrics {
    /// Adds one to a counter.
    pub fn bump(c: &AtomicU64) {
        c.fetch_add(1, Ordering::Relaxed);
    }

    /// Reads a counter.
    pub fn get(c: &AtomicU64) -> u64 {
        c.load(Ordering::Relaxed)
    }

    /// Counts one error under `code` (a refusal code or a client-side kind).
    pub fn error(&self, code: &str) {
        *lock(&self.errors).entry(code.to_string()).or_insert(0) += 1;
    }

    /// Errors by code.
    pub fn errors(&self) -> BTreeMap<String, u64> {
        lock(&self.errors).clone()
    }

    /// Total errors.
    pub fn error_count(&self) -> u64 {
        lock(&self.errors).values().sum()
    }

    /// Records one action-to-broadcast latency.
    pub fn latency(&self, d: Duration) {
        let us = micros(d);
        // `saturating_record` cannot fail; values above the bound are clamped.
        lock(&self.total).saturating_record(us);
        lock(&self.interval).saturating_record(us);
    }

    /// Records how long one part of a reconnect took.
    pub fn reconnect_part(&self, part: Part, d: Duration) {
        lock(&self.reconnect)[part as usize].saturating_record(micros(d));
    }

    /// Where the run's reconnects spent their time (none if none happened).
    pub fn reconnect_parts(&self) -> Option<ReconnectParts> {
        let h = lock(&self.reconnect);
        if h[Part::Total as usize].is_empty() {
            return None;
        }
        Some(ReconnectParts {
            waited: Latency::of(&h[Part::Waited as usize]),
            lookup: Latency::of(&h[Part::Lookup as usize]),
            open: Latency::of(&h[Part::Open as usize]),
            welcome: Latency::of(&h[Part::Welcome as usize]),
            total: Latency::of(&h[Part::Total as usize]),
        })
    }

    /// The run's latency so far.
    pub fn total_latency(&self) -> Latency {
        Latency::of(&lock(&self.total))
    }

    /// The latency since the last call, and a fresh interval.
    pub fn take_interval(&self) -> Latency {
        let mut h = lock(&self.interval);
        let l = Latency::of(&h);
        h.reset();
        l
    }

    /// Forgets latencies and the first drop so far (the setup ramp is not
    /// part of the measurement).
    pub fn reset_latency(&self) {
        lock(&self.total).reset();
        lock(&self.interval).reset();
        *lock(&self.first_drop) = None;
    }

    /// Counts a socket close this tool did not ask for.
    pub fn dropped(&self) {
        Metrics::bump(&self.disconnects);
        lock(&self.first_drop).get_or_insert_with(Instant::now);
    }

    /// When the first socket dropped since the measurement began.
    pub fn first_drop(&self) -> Option<Instant> {
        *lock(&self.first_drop)
    }

    /// One more open socket.
    pub fn socket_opened(&self) {
        self.sockets_open.fetch_add(1, Ordering::Relaxed);
    }

    /// One socket fewer.
    pub fn socket_closed(&self) {
        self.sockets_open.fetch_sub(1, Ordering::Relaxed);
    }

    /// Sockets open now.
    pub fn sockets(&self) -> i64 {
        self.sockets_open.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_and_interval_reset() {
        let m = Metrics::default();
        for ms in 1..=100u64 {
            m.latency(Duration::from_millis(ms));
        }
        let l = m.take_interval();
        assert_eq!(l.count, 100);
        assert!((49_000..=51_000).contains(&l.p50_us), "{l:?}");
        assert!((98_000..=100_100).contains(&l.p99_us), "{l:?}");
        assert_eq!(m.take_interval().count, 0);
        assert_eq!(m.total_latency().count, 100);
        m.error("stale_version");
        m.error("stale_version");
        m.error("timeout");
        assert_eq!(m.error_count(), 3);
        assert_eq!(m.errors().get("stale_version"), Some(&2));
    }

    #[test]
    fn reconnect_parts_are_kept_apart() {
        let m = Metrics::default();
        assert_eq!(m.reconnect_parts(), None, "no reconnect, no parts");
        for ms in 1..=10u64 {
            m.reconnect_part(Part::Lookup, Duration::from_millis(ms * 100));
            m.reconnect_part(Part::Open, Duration::from_millis(ms));
        }
        // A lookup alone (the attempt failed) is no reconnect yet.
        assert_eq!(m.reconnect_parts(), None);
        m.reconnect_part(Part::Waited, Duration::from_millis(300));
        m.reconnect_part(Part::Welcome, Duration::from_millis(20));
        m.reconnect_part(Part::Total, Duration::from_millis(1_500));
        let r = m.reconnect_parts().expect("one reconnect");
        assert_eq!(r.lookup.count, 10);
        assert!((990_000..=1_001_000).contains(&r.lookup.max_us), "{r:?}");
        assert!((9_990..=10_010).contains(&r.open.max_us), "{r:?}");
        assert_eq!((r.waited.count, r.welcome.count, r.total.count), (1, 1, 1));
        assert!((1_499_000..=1_501_000).contains(&r.total.p50_us), "{r:?}");
        // The action latencies are a histogram of their own.
        assert_eq!(m.total_latency().count, 0);
    }
}
