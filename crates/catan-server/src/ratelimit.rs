//! A token bucket per WebSocket connection.
//!
//! Each message costs one token; tokens refill at a steady rate up to a burst
//! size. A message that finds the bucket empty is refused with `rate_limited`;
//! a client that keeps sending while refused (a flood) is disconnected.

use std::time::Instant;

/// Token bucket with a flood counter.
#[derive(Debug, Clone)]
pub struct RateLimiter {
    capacity: f64,
    per_sec: f64,
    tokens: f64,
    last: Instant,
    strikes: u32,
    max_strikes: u32,
}

/// What to do with one incoming message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Handle it.
    Allow,
    /// Refuse it with `rate_limited`.
    Limited,
    /// Refuse it and close the connection: the client keeps flooding.
    Flood,
}

impl RateLimiter {
    /// A full bucket of `burst` tokens refilling at `per_sec`; after
    /// `max_strikes` refused messages without a pause the client is a flood.
    pub fn new(burst: u32, per_sec: f64, max_strikes: u32) -> Self {
        RateLimiter {
            capacity: burst.max(1) as f64,
            per_sec: per_sec.max(0.0),
            tokens: burst.max(1) as f64,
            last: Instant::now(),
            strikes: 0,
            max_strikes,
        }
    }

    /// Charges one message arriving at `now`.
    pub fn check(&mut self, now: Instant) -> Verdict {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.per_sec).min(self.capacity);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            // A client that slowed down enough to earn a token is forgiven.
            self.strikes = 0;
            Verdict::Allow
        } else {
            self.strikes += 1;
            if self.strikes > self.max_strikes {
                Verdict::Flood
            } else {
                Verdict::Limited
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn burst_then_limit_then_flood() {
        let t0 = Instant::now();
        let mut rl = RateLimiter::new(3, 1.0, 2);
        assert_eq!(rl.check(t0), Verdict::Allow);
        assert_eq!(rl.check(t0), Verdict::Allow);
        assert_eq!(rl.check(t0), Verdict::Allow);
        assert_eq!(rl.check(t0), Verdict::Limited);
        assert_eq!(rl.check(t0), Verdict::Limited);
        assert_eq!(rl.check(t0), Verdict::Flood);
    }

    #[test]
    fn refills_over_time_and_forgives() {
        let t0 = Instant::now();
        let mut rl = RateLimiter::new(1, 2.0, 5);
        assert_eq!(rl.check(t0), Verdict::Allow);
        assert_eq!(rl.check(t0), Verdict::Limited);
        let later = t0 + Duration::from_millis(600);
        assert_eq!(rl.check(later), Verdict::Allow);
        assert_eq!(rl.check(later), Verdict::Limited);
    }
}
