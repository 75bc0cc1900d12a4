//! Where lobbies of other nodes were last found to live, for a moment: the
//! clients of one lobby (four seats and its spectators) ask for it together
//! after a move, and each of their lookups would otherwise be one more
//! query on the lease table, in turn, while the node's pool is busiest.
//! An answer is reused for a third of the lease (one beat, as old as the
//! lobby listings may be); a stale one sends a client to a node that tells
//! it the lobby moved, and an owner found unreachable is forgotten at once.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;
use uuid::Uuid;

/// Entries kept at most; expired ones are dropped when this is reached.
const MOST: usize = 50_000;

/// Lobby id to the owner's URL and when it was found.
#[derive(Debug)]
pub(super) struct Seen {
    found: Mutex<HashMap<Uuid, (String, Instant)>>,
    /// How long an answer is reused.
    keep: Duration,
}

impl Seen {
    /// A cache whose answers are reused for `keep`.
    pub(super) fn new(keep: Duration) -> Seen {
        Seen {
            found: Mutex::new(HashMap::new()),
            keep,
        }
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, (String, Instant)>> {
        // Plain inserts and removes: a poisoned map is still consistent.
        self.found.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The owner `lobby` was found at less than `keep` ago.
    pub(super) fn get(&self, lobby: Uuid) -> Option<String> {
        let now = Instant::now();
        self.map()
            .get(&lobby)
            .filter(|(_, at)| now.duration_since(*at) < self.keep)
            .map(|(url, _)| url.clone())
    }

    /// Notes that `lobby` lives at `url` now.
    pub(super) fn insert(&self, lobby: Uuid, url: &str) {
        let now = Instant::now();
        let mut map = self.map();
        if map.len() >= MOST {
            map.retain(|_, (_, at)| now.duration_since(*at) < self.keep);
        }
        if map.len() < MOST {
            map.insert(lobby, (url.to_string(), now));
        }
    }

    /// Forgets where `lobby` was (its owner could not be reached, or it is
    /// served here now).
    pub(super) fn forget(&self, lobby: Uuid) {
        self.map().remove(&lobby);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn an_answer_is_reused_for_a_while_and_then_asked_again() {
        let seen = Seen::new(Duration::from_secs(1));
        let lobby = Uuid::new_v4();
        assert_eq!(seen.get(lobby), None);
        seen.insert(lobby, "http://b:1");
        tokio::time::advance(Duration::from_millis(900)).await;
        assert_eq!(seen.get(lobby).as_deref(), Some("http://b:1"));
        tokio::time::advance(Duration::from_millis(100)).await;
        assert_eq!(seen.get(lobby), None, "stale after the keep time");
        seen.insert(lobby, "http://c:1");
        seen.forget(lobby);
        assert_eq!(seen.get(lobby), None, "forgotten");
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_cache_drops_its_stale_answers_first() {
        let seen = Seen::new(Duration::from_secs(1));
        for _ in 0..MOST {
            seen.insert(Uuid::new_v4(), "http://b:1");
        }
        tokio::time::advance(Duration::from_secs(2)).await;
        let fresh = Uuid::new_v4();
        seen.insert(fresh, "http://c:1");
        assert_eq!(seen.get(fresh).as_deref(), Some("http://c:1"));
        assert_eq!(seen.map().len(), 1, "the stale answers went");
    }
}
