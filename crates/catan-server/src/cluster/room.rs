//! Whether a node has the files for more lobbies. Every socket is a file,
//! and a process has a limit on them: a survivor that took more than its
//! half of a dead node's lobbies (3,000 games a node, four sockets each,
//! under a 20,000-file limit) ran out of files, could accept no connection
//! any more, and the players of dozens of its lobbies never got back
//! (docs/PERFORMANCE.md). A node takes a lobby over only while it has the
//! files for that lobby's sockets; the other nodes take the rest.

use super::{Cluster, LOOKUPS_AT_ONCE};
use std::sync::atomic::Ordering;

/// Files kept for everything but the lobbies' sockets: the lookups that may
/// wait at once (each holds its client's connection), database
/// connections, connections between nodes, plain HTTP requests, the
/// process's own files. At most a quarter of the limit: under a limit of
/// 1,024 (a common default) the whole reserve would leave no room at all,
/// and no node could take a lobby over.
const RESERVE: usize = LOOKUPS_AT_ONCE + 512;

/// Sockets a lobby is reckoned to have: four seats. A lobby taken over has
/// none until its clients come back, so the sockets open now undercount
/// what the node's lobbies will hold a few seconds later; each lobby counts
/// for at least this many (bots' seats have no socket, so a node of bot
/// games is stopped early, never late).
const SOCKETS_PER_LOBBY: usize = 4;

/// The soft limit on open files of this process (`None` where it cannot be
/// read: no guard then).
pub(super) fn open_files_limit() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    parse_limit(&text)
}

fn parse_limit(text: &str) -> Option<usize> {
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// How many more lobbies fit in `limit` files: what is left after the
/// [`RESERVE`] (or a quarter of `limit`) and the sockets of the `lobbies`
/// served now (those open, or [`SOCKETS_PER_LOBBY`] each if more),
/// [`SOCKETS_PER_LOBBY`] each.
fn room(limit: usize, sockets: usize, lobbies: usize) -> usize {
    let held = sockets.max(lobbies.saturating_mul(SOCKETS_PER_LOBBY));
    let reserve = RESERVE.min(limit / 4);
    limit.saturating_sub(reserve).saturating_sub(held) / SOCKETS_PER_LOBBY
}

impl Cluster {
    /// How many more lobbies this node has the files for (unbounded where
    /// the limit is unknown).
    pub(super) fn room(&self) -> usize {
        let Some(limit) = self.inner.files else {
            return usize::MAX;
        };
        let sockets = self.inner.sockets.load(Ordering::Relaxed);
        room(limit, sockets, self.inner.registry.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_read_from_the_process_limits() {
        let text = "Limit                     Soft Limit           Hard Limit           Units     \n\
                    Max cpu time              unlimited            unlimited            seconds   \n\
                    Max open files            20000                20000                files     \n";
        assert_eq!(parse_limit(text), Some(20_000));
        assert_eq!(
            parse_limit("Max open files unlimited unlimited files"),
            None
        );
    }

    #[test]
    fn room_counts_four_sockets_a_lobby_or_those_open() {
        let left = 20_000 - RESERVE;
        // 3,000 lobbies of four sockets under 20,000 files.
        assert_eq!(room(20_000, 12_000, 3_000), (left - 12_000) / 4);
        // Lobbies just taken over have no socket yet: they count all the same.
        assert_eq!(room(20_000, 12_000, 4_000), (left - 16_000) / 4);
        // Bigger lobbies count what they hold.
        assert_eq!(room(20_000, 15_000, 3_000), (left - 15_000) / 4);
        // Full: no room, and never an underflow past it.
        assert_eq!(room(20_000, 0, left / 4), 0);
        assert_eq!(room(20_000, 25_000, 5_000), 0);
        assert_eq!(room(4_096, 0, 0), (4_096 - 1_024) / 4);
        // A small limit keeps a quarter for the rest, not the whole reserve.
        assert_eq!(room(1_024, 0, 0), (1_024 - 256) / 4);
        assert_eq!(room(1_024, 0, 100), (1_024 - 256 - 400) / 4);
    }
}
