//! Longest Road and Largest Army (R39-R42).

use crate::event::Event;
use crate::geometry::{bits64, bits128, geo};
use crate::ids::Seat;
use crate::state::Game;

/// Length of the longest trail in `roads` that never passes through a vertex
/// in `blocked` (opponents' buildings cut a trail there, R39). Each road is
/// used at most once; loops may be part of the trail.
pub fn longest_trail(roads: u128, blocked: u64) -> u8 {
    if roads == 0 {
        return 0;
    }
    let g = geo();
    let total = roads.count_ones() as u8;
    // A longest trail can always be taken to start at a dead end, a fork, or
    // an opponent's building (else it could be extended backwards), except
    // on components that are pure cycles; those are caught by `seen` below.
    let mut touched = 0u64;
    for e in bits128(roads) {
        touched |= g.edge_vertex_mask[e as usize];
    }
    let mut starts = 0u64;
    for v in bits64(touched) {
        let degree = (g.vertex_edge_mask[v as usize] & roads).count_ones();
        if degree != 2 || blocked & (1u64 << v) != 0 {
            starts |= 1u64 << v;
        }
    }
    let mut best = 0u8;
    let mut seen = 0u128;
    for v in bits64(starts) {
        walk(v, roads, blocked, 0, 0, &mut best, &mut seen, true);
        if best == total {
            return best;
        }
    }
    // Components without any start are simple cycles: any vertex will do.
    while seen != roads {
        let e = (roads & !seen).trailing_zeros() as usize;
        let v = g.edge_vertices[e][0];
        walk(v, roads, blocked, 0, 0, &mut best, &mut seen, true);
    }
    best
}

/// The longest trail of `roads` with the road on `edge` added, given
/// `trail`, the longest of `roads` alone (both never passing a vertex in
/// `blocked`, as in [`longest_trail`]). When the road grows the network
/// from one end into a vertex it did not reach, the only new trails end
/// with this road, so one search from the attaching end suffices;
/// otherwise the whole network is counted again.
pub fn trail_with(roads: u128, blocked: u64, trail: u8, edge: u8) -> u8 {
    let g = geo();
    let [a, b] = g.edge_vertices[edge as usize];
    let has = |v: u8| g.vertex_edge_mask[v as usize] & roads != 0;
    let from = match (has(a), has(b)) {
        (true, false) => a,
        (false, true) => b,
        _ => return longest_trail(roads | 1u128 << edge, blocked),
    };
    let through = if blocked & (1u64 << from) != 0 {
        1
    } else {
        let mut best = 0u8;
        let mut seen = 0u128;
        walk(from, roads, blocked, 0, 0, &mut best, &mut seen, true);
        best + 1
    };
    trail.max(through)
}

/// Depth-first search over unused roads from `v`; `first` marks the start,
/// which may be an opponent's building (a trail can end there, not pass).
#[allow(clippy::too_many_arguments)]
fn walk(
    v: u8,
    roads: u128,
    blocked: u64,
    used: u128,
    len: u8,
    best: &mut u8,
    seen: &mut u128,
    first: bool,
) {
    if len > *best {
        *best = len;
    }
    *seen |= used;
    if !first && blocked & (1u64 << v) != 0 {
        return;
    }
    let g = &*crate::geometry::GEOMETRY;
    let mut next = g.vertex_edge_mask[v as usize] & roads & !used;
    while next != 0 {
        let e = next.trailing_zeros() as usize;
        next &= next - 1;
        let [a, b] = g.edge_vertices[e];
        let w = if a == v { b } else { a };
        walk(
            w,
            roads,
            blocked,
            used | (1u128 << e),
            len + 1,
            best,
            seen,
            false,
        );
    }
}

impl Game {
    /// Recomputes `seat`'s cached trail.
    pub(crate) fn recount_trail(&mut self, seat: Seat) {
        let p = &self.players[seat.index()];
        let blocked = self.occupied_vertices & !p.buildings();
        let t = longest_trail(p.roads, blocked);
        self.players[seat.index()].trail = t;
    }

    /// Updates `seat`'s trail after its road on `edge` was added
    /// ([`trail_with`]).
    pub(crate) fn extend_trail(&mut self, seat: Seat, edge: crate::ids::EdgeId) {
        let p = &self.players[seat.index()];
        let before = p.roads & !(1u128 << edge.0);
        let blocked = self.occupied_vertices & !p.buildings();
        let t = trail_with(before, blocked, p.trail, edge.0);
        self.players[seat.index()].trail = t;
    }

    /// Re-decides Longest Road from the cached trails (R40-R41): the holder
    /// keeps it while tied for longest at 5 or more; otherwise it goes to the
    /// unique longest at 5 or more, or is set aside.
    pub(crate) fn update_longest_road(&mut self, out: &mut Vec<Event>) {
        let max = self.players.iter().map(|p| p.trail).max().unwrap_or(0);
        let keep = self
            .longest_road
            .filter(|h| max >= 5 && self.players[h.index()].trail == max);
        let holder = keep.or_else(|| {
            if max < 5 {
                return None;
            }
            let mut leaders = self
                .players
                .iter()
                .enumerate()
                .filter(|(_, p)| p.trail == max);
            let first = leaders.next().map(|(i, _)| Seat(i as u8));
            if leaders.next().is_some() {
                None
            } else {
                first
            }
        });
        if holder != self.longest_road {
            self.longest_road = holder;
            out.push(Event::LongestRoadChanged {
                holder,
                length: holder.map_or(0, |h| self.players[h.index()].trail),
            });
        }
    }

    /// Gives Largest Army to `seat` if their knights now exceed the holder's
    /// (or reach 3 with no holder) (R42).
    pub(crate) fn update_largest_army(&mut self, seat: Seat, out: &mut Vec<Event>) {
        let k = self.players[seat.index()].knights();
        if k < 3 || self.largest_army == Some(seat) {
            return;
        }
        let beats = match self.largest_army {
            None => true,
            Some(h) => k > self.players[h.index()].knights(),
        };
        if beats {
            self.largest_army = Some(seat);
            out.push(Event::LargestArmyChanged {
                holder: seat,
                knights: k,
            });
        }
    }

    /// The holder the start-of-scenario rule names: the unique longest trail
    /// at 5 or more.
    pub(crate) fn initial_longest_road(&self) -> Option<Seat> {
        let max = self.players.iter().map(|p| p.trail).max().unwrap_or(0);
        if max < 5 {
            return None;
        }
        let leaders: Vec<usize> = (0..self.n_players())
            .filter(|&i| self.players[i].trail == max)
            .collect();
        (leaders.len() == 1).then(|| Seat(leaders[0] as u8))
    }

    /// The unique most played knights at 3 or more.
    pub(crate) fn initial_largest_army(&self) -> Option<Seat> {
        let max = self.players.iter().map(|p| p.knights()).max().unwrap_or(0);
        if max < 3 {
            return None;
        }
        let leaders: Vec<usize> = (0..self.n_players())
            .filter(|&i| self.players[i].knights() == max)
            .collect();
        (leaders.len() == 1).then(|| Seat(leaders[0] as u8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Brute force: the longest sequence of distinct roads forming a walk
    /// that never passes through a blocked vertex.
    fn brute(roads: &[u8], blocked: u64) -> u8 {
        fn go(v: u8, roads: &[u8], used: &mut Vec<bool>, blocked: u64, len: u8, first: bool) -> u8 {
            let mut best = len;
            if !first && blocked & (1 << v) != 0 {
                return best;
            }
            for (i, &e) in roads.iter().enumerate() {
                if used[i] {
                    continue;
                }
                let [a, b] = geo().edge_vertices[e as usize];
                let w = if a == v {
                    b
                } else if b == v {
                    a
                } else {
                    continue;
                };
                used[i] = true;
                best = best.max(go(w, roads, used, blocked, len + 1, false));
                used[i] = false;
            }
            best
        }
        let mut best = 0;
        for v in 0..54u8 {
            let mut used = vec![false; roads.len()];
            best = best.max(go(v, roads, &mut used, blocked, 0, true));
        }
        best
    }

    proptest! {
        #[test]
        fn r39_longest_trail_matches_brute_force(
            edges in proptest::collection::btree_set(0u8..72, 0..10),
            blocked_vs in proptest::collection::btree_set(0u8..54, 0..4),
        ) {
            let roads: Vec<u8> = edges.into_iter().collect();
            let mask = roads.iter().fold(0u128, |m, &e| m | 1u128 << e);
            let blocked = blocked_vs.iter().fold(0u64, |m, &v| m | 1u64 << v);
            prop_assert_eq!(longest_trail(mask, blocked), brute(&roads, blocked));
        }

        #[test]
        fn r39_connected_road_sets_match_brute_force(
            start in 0u8..72, steps in proptest::collection::vec(0usize..4, 0..12),
            blocked_vs in proptest::collection::btree_set(0u8..54, 0..3),
        ) {
            // Grow a connected network so the search meets loops and forks.
            let mut roads = vec![start];
            for s in steps {
                let last = *roads.last().unwrap_or(&start);
                let cands: Vec<u8> = bits128(geo().edge_edge_mask[last as usize])
                    .filter(|e| !roads.contains(e)).collect();
                if cands.is_empty() { break; }
                roads.push(cands[s % cands.len()]);
            }
            let mask = roads.iter().fold(0u128, |m, &e| m | 1u128 << e);
            let blocked = blocked_vs.iter().fold(0u64, |m, &v| m | 1u64 << v);
            prop_assert_eq!(longest_trail(mask, blocked), brute(&roads, blocked));
        }
    }

    proptest! {
        #[test]
        fn r39_a_road_added_counts_as_a_whole_recount(
            start in 0u8..72, steps in proptest::collection::vec(0usize..4, 0..12),
            pick in 0usize..64,
            blocked_picks in proptest::collection::vec(0usize..64, 0..3),
        ) {
            let mut roads = 1u128 << start;
            let mut last = start;
            for s in steps {
                let cands: Vec<u8> = bits128(geo().edge_edge_mask[last as usize] & !roads).collect();
                if cands.is_empty() { break; }
                last = cands[s % cands.len()];
                roads |= 1u128 << last;
            }
            // A road sharing a vertex with the network: most attach at one
            // end; some join two of its vertices.
            let touching = bits128(roads)
                .fold(0u128, |m, e| m | geo().edge_edge_mask[e as usize]);
            let touching: Vec<u8> = bits128(touching & !roads).collect();
            prop_assume!(!touching.is_empty());
            let extra = touching[pick % touching.len()];
            // Opponents' buildings on the network's own corners, where
            // they cut trails.
            let corners: Vec<u8> = bits64(
                bits128(roads).fold(0u64, |m, e| m | geo().edge_vertex_mask[e as usize]),
            )
            .collect();
            let blocked = blocked_picks
                .iter()
                .fold(0u64, |m, &i| m | 1u64 << corners[i % corners.len()]);
            let trail = longest_trail(roads, blocked);
            prop_assert_eq!(
                trail_with(roads, blocked, trail, extra),
                longest_trail(roads | 1u128 << extra, blocked)
            );
        }
    }

    #[test]
    fn r39_hexagon_loop_counts_six() {
        let ring: u128 = geo().hex_edges[9].iter().fold(0, |m, &e| m | 1u128 << e);
        assert_eq!(longest_trail(ring, 0), 6);
        // An opponent's building on one corner of the loop still leaves a
        // 6-road trail that starts and ends there.
        assert_eq!(longest_trail(ring, 1u64 << geo().hex_vertices[9][0]), 6);
    }
}
