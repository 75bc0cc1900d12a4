//! Board geometry of the 19-hex base board, numbered exactly as SCENARIO.md
//! defines it, with adjacency tables and bitmasks built once.
//!
//! Coordinates: one x unit is half a hex's width, one y unit half its side,
//! y grows downwards. Vertex masks are `u64` (54 bits), edge masks `u128`
//! (72 bits), so the rules can test and combine sets of positions cheaply.

use std::sync::LazyLock;

/// Marker for "no entry" in the fixed-size adjacency arrays.
pub const NONE: u8 = u8::MAX;

/// Row offsets of the hex centres' x coordinate (rows of 3, 4, 5, 4, 3).
const ROW_OFFSET: [i32; 5] = [2, 1, 0, 1, 2];
const ROW_LEN: [i32; 5] = [3, 4, 5, 4, 3];
/// Corner offsets clockwise from the top.
const CORNERS: [(i32, i32); 6] = [(0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1)];

/// All adjacency facts of the base board.
#[derive(Debug)]
pub struct Geometry {
    /// Centre `(x, y)` of each hex.
    pub hex_centre: [(i32, i32); 19],
    /// Corners of each hex, clockwise from the top.
    pub hex_vertices: [[u8; 6]; 19],
    /// Sides of each hex, side `i` joining corners `i` and `i + 1`.
    pub hex_edges: [[u8; 6]; 19],
    /// Hexes sharing a side with each hex ([`NONE`]-padded).
    pub hex_neighbours: [[u8; 6]; 19],
    /// `(x, y)` of each vertex.
    pub vertex_pos: [(i32, i32); 54],
    /// Hexes touching each vertex ([`NONE`]-padded).
    pub vertex_hexes: [[u8; 3]; 54],
    /// Vertices one edge away ([`NONE`]-padded).
    pub vertex_vertices: [[u8; 3]; 54],
    /// Edges touching each vertex ([`NONE`]-padded).
    pub vertex_edges: [[u8; 3]; 54],
    /// The two vertices of each edge, smaller id first.
    pub edge_vertices: [[u8; 2]; 72],
    /// Hexes on either side of each edge ([`NONE`] for the sea).
    pub edge_hexes: [[u8; 2]; 72],
    /// Edges touching each vertex, as a mask.
    pub vertex_edge_mask: [u128; 54],
    /// Vertices adjacent to each vertex, as a mask.
    pub vertex_neighbour_mask: [u64; 54],
    /// Corners of each hex, as a mask.
    pub hex_vertex_mask: [u64; 19],
    /// Edges sharing a vertex with each edge (not itself), as a mask.
    pub edge_edge_mask: [u128; 72],
    /// Whether each edge is a side of only one hex.
    pub edge_coastal: [bool; 72],
    /// The two vertices of each edge, as a mask.
    pub edge_vertex_mask: [u64; 72],
}

/// The geometry, computed on first use.
pub static GEOMETRY: LazyLock<Geometry> = LazyLock::new(Geometry::build);

/// Shorthand for the shared geometry.
#[inline]
pub fn geo() -> &'static Geometry {
    &GEOMETRY
}

impl Geometry {
    fn build() -> Geometry {
        let mut hex_centre = [(0, 0); 19];
        let mut h = 0;
        for r in 0..5 {
            for c in 0..ROW_LEN[r] {
                hex_centre[h] = (2 * c + ROW_OFFSET[r], 3 * r as i32);
                h += 1;
            }
        }
        let mut corners: Vec<(i32, i32)> = Vec::new();
        for &(cx, cy) in &hex_centre {
            for &(dx, dy) in &CORNERS {
                corners.push((cx + dx, cy + dy));
            }
        }
        corners.sort_by_key(|&(x, y)| (y, x));
        corners.dedup();
        assert_eq!(corners.len(), 54);
        let vid = |p: (i32, i32)| corners.iter().position(|&q| q == p).map(|i| i as u8);

        let mut hex_vertices = [[0u8; 6]; 19];
        for (h, &(cx, cy)) in hex_centre.iter().enumerate() {
            for (i, &(dx, dy)) in CORNERS.iter().enumerate() {
                hex_vertices[h][i] = vid((cx + dx, cy + dy)).unwrap_or(NONE);
            }
        }
        let mut edges: Vec<(u8, u8)> = Vec::new();
        for hv in &hex_vertices {
            for i in 0..6 {
                let (a, b) = (hv[i], hv[(i + 1) % 6]);
                let e = (a.min(b), a.max(b));
                if !edges.contains(&e) {
                    edges.push(e);
                }
            }
        }
        assert_eq!(edges.len(), 72);
        edges.sort_by_key(|&(a, b)| {
            let (pa, pb) = (corners[a as usize], corners[b as usize]);
            (pa.1 + pb.1, pa.0 + pb.0)
        });
        let eid = |a: u8, b: u8| {
            let e = (a.min(b), a.max(b));
            edges
                .iter()
                .position(|&q| q == e)
                .map(|i| i as u8)
                .unwrap_or(NONE)
        };

        let mut hex_edges = [[0u8; 6]; 19];
        let mut edge_hexes = [[NONE; 2]; 72];
        for h in 0..19 {
            for i in 0..6 {
                let e = eid(hex_vertices[h][i], hex_vertices[h][(i + 1) % 6]);
                hex_edges[h][i] = e;
                let slot = &mut edge_hexes[e as usize];
                if slot[0] == NONE {
                    slot[0] = h as u8;
                } else {
                    slot[1] = h as u8;
                }
            }
        }
        let mut hex_neighbours = [[NONE; 6]; 19];
        for h in 0..19 {
            let mut n = 0;
            for &e in &hex_edges[h] {
                let [a, b] = edge_hexes[e as usize];
                let other = if a as usize == h { b } else { a };
                if other != NONE {
                    hex_neighbours[h][n] = other;
                    n += 1;
                }
            }
        }
        let mut vertex_hexes = [[NONE; 3]; 54];
        for (h, corners) in hex_vertices.iter().enumerate() {
            for &v in corners {
                let slot = &mut vertex_hexes[v as usize];
                if let Some(s) = slot.iter_mut().find(|s| **s == NONE) {
                    *s = h as u8;
                }
            }
        }
        let mut vertex_vertices = [[NONE; 3]; 54];
        let mut vertex_edges = [[NONE; 3]; 54];
        let mut vertex_edge_mask = [0u128; 54];
        let mut vertex_neighbour_mask = [0u64; 54];
        let mut edge_vertices = [[0u8; 2]; 72];
        for (e, &(a, b)) in edges.iter().enumerate() {
            edge_vertices[e] = [a, b];
            for (x, y) in [(a, b), (b, a)] {
                let vv = &mut vertex_vertices[x as usize];
                if let Some(s) = vv.iter_mut().find(|s| **s == NONE) {
                    *s = y;
                }
                let ve = &mut vertex_edges[x as usize];
                if let Some(s) = ve.iter_mut().find(|s| **s == NONE) {
                    *s = e as u8;
                }
                vertex_edge_mask[x as usize] |= 1u128 << e;
                vertex_neighbour_mask[x as usize] |= 1u64 << y;
            }
        }
        let mut hex_vertex_mask = [0u64; 19];
        for h in 0..19 {
            for &v in &hex_vertices[h] {
                hex_vertex_mask[h] |= 1u64 << v;
            }
        }
        let mut edge_edge_mask = [0u128; 72];
        let mut edge_coastal = [false; 72];
        let mut edge_vertex_mask = [0u64; 72];
        for e in 0..72 {
            edge_vertex_mask[e] = (1u64 << edge_vertices[e][0]) | (1u64 << edge_vertices[e][1]);
            let [a, b] = edge_vertices[e];
            edge_edge_mask[e] =
                (vertex_edge_mask[a as usize] | vertex_edge_mask[b as usize]) & !(1u128 << e);
            edge_coastal[e] = edge_hexes[e][1] == NONE;
        }
        let mut vertex_pos = [(0, 0); 54];
        for (i, p) in corners.iter().enumerate() {
            vertex_pos[i] = *p;
        }
        Geometry {
            hex_centre,
            hex_vertices,
            hex_edges,
            hex_neighbours,
            vertex_pos,
            vertex_hexes,
            vertex_vertices,
            vertex_edges,
            edge_vertices,
            edge_hexes,
            vertex_edge_mask,
            vertex_neighbour_mask,
            hex_vertex_mask,
            edge_edge_mask,
            edge_coastal,
            edge_vertex_mask,
        }
    }

    /// The edge joining two vertices, if they are adjacent.
    pub fn edge_between(&self, a: u8, b: u8) -> Option<u8> {
        self.vertex_edges[a as usize]
            .iter()
            .copied()
            .filter(|&e| e != NONE)
            .find(|&e| self.edge_vertices[e as usize].contains(&b))
    }
}

macro_rules! bit_iter {
    ($(#[$doc:meta])* $name:ident, $t:ty) => {
        $(#[$doc])*
        #[inline]
        pub fn $name(mut m: $t) -> impl Iterator<Item = u8> {
            std::iter::from_fn(move || {
                if m == 0 {
                    None
                } else {
                    let i = m.trailing_zeros() as u8;
                    m &= m - 1;
                    Some(i)
                }
            })
        }
    };
}

bit_iter!(
    /// Iterates over the set bits of a `u64` (vertex) mask.
    bits64, u64
);
bit_iter!(
    /// Iterates over the set bits of a `u128` (edge) mask.
    bits128, u128
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenario_md_checks_hold() {
        let g = geo();
        assert_eq!(g.hex_vertices[0], [0, 4, 8, 12, 7, 3]);
        assert_eq!(g.hex_vertices[9], [18, 24, 30, 35, 29, 23]);
        assert_eq!(g.hex_vertices[18], [41, 46, 50, 53, 49, 45]);
        assert_eq!(g.edge_vertices[0], [0, 3]);
        assert_eq!(g.edge_vertices[71], [50, 53]);
        assert_eq!(g.edge_coastal.iter().filter(|&&c| c).count(), 30);
        for e in [0, 3, 9, 38, 61, 70, 66, 49, 23] {
            assert!(g.edge_coastal[e], "harbour edge {e} is coastal");
        }
    }

    #[test]
    fn adjacency_is_symmetric() {
        let g = geo();
        for v in 0..54 {
            for &w in g.vertex_vertices[v].iter().filter(|&&w| w != NONE) {
                assert!(g.vertex_vertices[w as usize].contains(&(v as u8)));
            }
        }
        let inner = g.vertex_hexes.iter().filter(|h| h[2] != NONE).count();
        assert_eq!(inner, 24);
    }
}
