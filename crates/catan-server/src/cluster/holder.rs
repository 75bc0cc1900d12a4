//! What a lookup makes of a lobby's lease and its holder: whether the
//! holder is gone (it will not renew, so the lease will run out and the
//! lobby is to be taken over), or only late with a renewal it is still
//! making (the lobby is still its to serve). Both judge by the node list's
//! beat, against the lease time: a busy node's beats and renewals can be
//! late by a second or more, and taking its lobbies for orphans would move
//! them and their clients for nothing.

use catan_store::LeaseOwner;
use std::time::Duration;

/// Whether the holding node has not beaten for a whole lease time (three
/// beats), or left the node list: it will not renew.
pub(super) fn gone(owner: &LeaseOwner, lease: Duration) -> bool {
    owner.beat_age.is_none_or(|age| age > lease)
}

/// Whether the lease ran out less than a lease time ago while its holder
/// (another node) still beats: its renewal is late, not given up, and the
/// lobby is left to it as the reaper leaves it (`reaper::pick`).
pub(super) fn late(owner: &LeaseOwner, me: &str, lease: Duration) -> bool {
    !owner.live
        && owner.node_id.as_deref().is_some_and(|n| n != me)
        && !gone(owner, lease)
        && owner.expired_for < lease
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEASE: Duration = Duration::from_secs(3);

    fn owner(node: Option<&str>, live: bool, expired_ms: u64, beat_ms: Option<u64>) -> LeaseOwner {
        LeaseOwner {
            node_id: node.map(str::to_string),
            url: node.map(|n| format!("http://{n}")),
            epoch: 1,
            live,
            expires_in: Duration::ZERO,
            expired_for: Duration::from_millis(expired_ms),
            beat_age: beat_ms.map(Duration::from_millis),
        }
    }

    #[test]
    fn a_holder_is_gone_after_a_lease_time_without_a_beat() {
        assert!(!gone(&owner(Some("b"), true, 0, Some(900)), LEASE));
        assert!(!gone(&owner(Some("b"), true, 0, Some(3_000)), LEASE));
        assert!(gone(&owner(Some("b"), true, 0, Some(3_001)), LEASE));
        assert!(
            gone(&owner(Some("b"), true, 0, None), LEASE),
            "left the node list"
        );
    }

    #[test]
    fn an_expired_lease_of_a_beating_node_is_late_for_a_lease_time() {
        // Expired a moment ago, its node beat a second ago: late.
        assert!(late(&owner(Some("b"), false, 200, Some(1_000)), "a", LEASE));
        assert!(late(
            &owner(Some("b"), false, 2_999, Some(1_000)),
            "a",
            LEASE
        ));
        // Expired a lease time ago: given up, whatever its beat says.
        assert!(!late(
            &owner(Some("b"), false, 3_000, Some(1_000)),
            "a",
            LEASE
        ));
        // Its node stopped beating: gone, not late.
        assert!(!late(
            &owner(Some("b"), false, 200, Some(4_000)),
            "a",
            LEASE
        ));
        // Live, released, or this node's own: never late.
        assert!(!late(&owner(Some("b"), true, 0, Some(1_000)), "a", LEASE));
        assert!(!late(&owner(None, false, 200, None), "a", LEASE));
        assert!(!late(
            &owner(Some("a"), false, 200, Some(1_000)),
            "a",
            LEASE
        ));
    }
}
