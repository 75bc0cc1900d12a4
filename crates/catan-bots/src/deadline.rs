//! The clock a search reads and the deadline it keeps.
//!
//! The search asks "is it time to stop?" before every playout and every few
//! steps inside one, so a decision ends close to its deadline however long
//! a playout happens to take. The clock is a trait so that tests can drive
//! the cutting logic with a clock that advances by a fixed step per reading:
//! deterministic, with no timed assertion.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A monotonic clock: the time since some fixed origin.
pub trait Clock: Send {
    /// The time now, since the clock's origin.
    fn now(&self) -> Duration;
}

/// The real monotonic clock.
pub struct WallClock(Instant);

impl Default for WallClock {
    fn default() -> Self {
        WallClock(Instant::now())
    }
}

impl Clock for WallClock {
    fn now(&self) -> Duration {
        self.0.elapsed()
    }
}

/// A clock for tests that advances by `step` at every reading (so the time
/// a decision "took" is its number of clock readings times `step`).
#[derive(Clone)]
pub struct StepClock {
    nanos: Arc<AtomicU64>,
    step: u64,
}

impl StepClock {
    /// A clock at zero that advances by `step` per reading.
    pub fn new(step: Duration) -> StepClock {
        StepClock {
            nanos: Arc::new(AtomicU64::new(0)),
            step: u64::try_from(step.as_nanos()).unwrap_or(u64::MAX),
        }
    }

    /// The time now, without advancing (for the test's own checks).
    pub fn peek(&self) -> Duration {
        Duration::from_nanos(self.nanos.load(Ordering::Relaxed))
    }
}

impl Clock for StepClock {
    fn now(&self) -> Duration {
        Duration::from_nanos(self.nanos.fetch_add(self.step, Ordering::Relaxed) + self.step)
    }
}

/// The share of the budget kept back: a decision aims to be done by
/// `budget - margin`, so that the last check's overrun, handing the answer
/// back and a busy machine's scheduling delays still fit in the budget.
pub fn margin(budget: Duration) -> Duration {
    (budget / 5).max(Duration::from_millis(5)).min(budget)
}

/// When a decision started at `start` with `budget` must stop searching.
pub fn stop_at(start: Duration, budget: Duration) -> Duration {
    start + budget - margin(budget)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_clock_advances_per_reading() {
        let c = StepClock::new(Duration::from_millis(3));
        assert_eq!(c.now(), Duration::from_millis(3));
        assert_eq!(c.now(), Duration::from_millis(6));
        assert_eq!(c.peek(), Duration::from_millis(6));
    }

    #[test]
    fn the_margin_keeps_a_fifth_back() {
        assert_eq!(
            margin(Duration::from_millis(800)),
            Duration::from_millis(160)
        );
        assert_eq!(margin(Duration::from_millis(2)), Duration::from_millis(2));
        assert_eq!(
            stop_at(Duration::from_millis(100), Duration::from_millis(800)),
            Duration::from_millis(740)
        );
    }
}
