//! A search for a long trail (R39) over roads a player has and edges it
//! could still build: shared by the arena's point ceiling (can this player
//! ever take Longest Road?) and the `normal` bot's plan for the award once
//! nothing else is left to build (which roads make the trail).

use catan_core::geometry::{bits64, bits128, geo};

/// A depth-first search for a trail of at least `goal` edges in `edges`
/// that uses at most `budget` edges outside `own` and passes no vertex of
/// `blocked` (it may start or end at one, R39).
pub struct TrailSearch {
    /// Edges the trail may use.
    pub edges: u128,
    /// Of `edges`, those already built (free to use).
    pub own: u128,
    /// Vertices a trail may not pass (other players' buildings).
    pub blocked: u64,
    /// Most edges outside `own` the trail may use.
    pub budget: u8,
    /// Length wanted.
    pub goal: u8,
}

impl TrailSearch {
    /// The edges of a trail as wanted, if there is one.
    pub fn find(&self) -> Option<u128> {
        let g = geo();
        let mut touched = 0u64;
        for e in bits128(self.edges) {
            touched |= g.edge_vertex_mask[e as usize];
        }
        bits64(touched).find_map(|v| self.walk(v, 0, 0, 0, true))
    }

    fn walk(&self, v: u8, used: u128, new: u8, len: u8, first: bool) -> Option<u128> {
        if len >= self.goal {
            return Some(used);
        }
        // Even every edge left would not make the length.
        if len as u32 + (self.edges & !used).count_ones() < self.goal as u32 {
            return None;
        }
        if !first && self.blocked & (1u64 << v) != 0 {
            return None;
        }
        let g = geo();
        let next = g.vertex_edge_mask[v as usize] & self.edges & !used;
        bits128(next).find_map(|e| {
            let bit = 1u128 << e;
            let new = new + (self.own & bit == 0) as u8;
            if new > self.budget {
                return None;
            }
            let [a, b] = g.edge_vertices[e as usize];
            let w = if a == v { b } else { a };
            self.walk(w, used | bit, new, len + 1, false)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{edge, path};

    /// The edges along the vertices of `vs`.
    fn edges(vs: &[u8]) -> u128 {
        vs.windows(2).fold(0, |m, w| m | 1u128 << edge(w[0], w[1]))
    }

    #[test]
    fn r39_a_trail_counts_only_the_new_edges_against_the_budget() {
        let vs = path(0, 6, 0);
        let own = edges(&vs[..4]);
        let all = edges(&vs);
        let search = |budget, goal| TrailSearch {
            edges: all,
            own,
            blocked: 0,
            budget,
            goal,
        };
        // Three own edges and three new ones make six.
        assert_eq!(search(3, 6).find(), Some(all));
        assert_eq!(search(2, 6).find(), None);
        assert!(search(2, 5).find().is_some());
    }

    #[test]
    fn r39_a_trail_does_not_pass_another_players_building() {
        let vs = path(0, 6, 0);
        let all = edges(&vs);
        let search = |blocked| TrailSearch {
            edges: all,
            own: all,
            blocked,
            budget: 0,
            goal: 6,
        };
        assert!(search(0).find().is_some());
        // A building in the middle cuts the six into three and three.
        assert_eq!(search(1 << vs[3]).find(), None);
        // One at an end does not.
        assert!(search(1 << vs[6]).find().is_some());
    }
}
