//! Static facts a bot derives from the board: how much each corner produces
//! (in pips, the number of dice combinations out of 36) and which harbour it
//! touches. Cheap enough to recompute for every decision.

use catan_core::geometry::{NONE, geo};
use catan_core::{Board, HarbourKind, HexId, Resource, ResourceSet};

/// Pips of a number token: how many of the 36 dice outcomes roll it.
pub fn pips(number: Option<u8>) -> u8 {
    match number {
        Some(n @ 2..=12) if n != 7 => 6 - (7i8 - n as i8).unsigned_abs(),
        _ => 0,
    }
}

/// Production per resource, in pips (index = [`Resource::index`]).
pub type Production = [f32; 5];

/// Per-corner production and harbours of one board.
pub struct BoardEval {
    /// Pips per resource of each vertex's adjacent hexes (robber ignored).
    pub production: [Production; 54],
    /// The harbour each vertex touches, if any.
    pub harbour: [Option<HarbourKind>; 54],
    /// Pips of each hex (0 for the desert).
    pub hex_pips: [u8; 19],
}

impl BoardEval {
    /// Evaluates `board`.
    pub fn new(board: &Board) -> BoardEval {
        let g = geo();
        let mut hex_pips = [0u8; 19];
        for (h, tile) in board.hexes.iter().enumerate().take(19) {
            hex_pips[h] = pips(tile.number);
        }
        let mut production = [[0.0; 5]; 54];
        for (v, prod) in production.iter_mut().enumerate() {
            for &h in g.vertex_hexes[v].iter().filter(|&&h| h != NONE) {
                let Some(tile) = board.hexes.get(h as usize) else {
                    continue;
                };
                if let Some(r) = tile.terrain.resource() {
                    prod[r.index()] += hex_pips[h as usize] as f32;
                }
            }
        }
        let mut harbour = [None; 54];
        for hb in &board.harbours {
            if let Some(vs) = g.edge_vertices.get(hb.edge.index()) {
                for &v in vs {
                    harbour[v as usize] = Some(hb.kind);
                }
            }
        }
        BoardEval {
            production,
            harbour,
            hex_pips,
        }
    }

    /// The resource a hex produces, if any.
    pub fn hex_resource(board: &Board, hex: HexId) -> Option<Resource> {
        board
            .hexes
            .get(hex.index())
            .and_then(|t| t.terrain.resource())
    }

    /// Total pips of a vertex.
    pub fn total_pips(&self, v: u8) -> f32 {
        self.production[v as usize].iter().sum()
    }
}

/// Cards of `cost` that `hand` lacks.
pub fn missing(cost: &ResourceSet, hand: &ResourceSet) -> u32 {
    cost.0
        .iter()
        .zip(hand.0.iter())
        .map(|(&c, &h)| c.saturating_sub(h) as u32)
        .sum()
}

/// `hand` minus `cost`, floored at zero per type: the cards a plan leaves spare.
pub fn spare(hand: &ResourceSet, cost: &ResourceSet) -> ResourceSet {
    let mut s = *hand;
    s.sub(cost);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pips_follow_dice_odds() {
        let got: Vec<u8> = (2..=12).map(|n| pips(Some(n))).collect();
        assert_eq!(got, [1, 2, 3, 4, 5, 0, 5, 4, 3, 2, 1]);
        assert_eq!(pips(None), 0);
    }

    #[test]
    fn beginner_board_totals_match_tokens() {
        let e = BoardEval::new(&Board::beginner());
        // Every producing hex has 6 corners, so the sum over corners is 6x the token pips.
        let total: f32 = (0..54).map(|v| e.total_pips(v)).sum();
        let tokens: u32 = e.hex_pips.iter().map(|&p| p as u32).sum();
        assert_eq!(total as u32, 6 * tokens);
        assert_eq!(e.harbour.iter().filter(|h| h.is_some()).count(), 18);
    }

    #[test]
    fn missing_and_spare_split_a_hand() {
        let hand = ResourceSet([2, 0, 1, 1, 0]);
        assert_eq!(missing(&ResourceSet::SETTLEMENT, &hand), 1);
        assert_eq!(
            spare(&hand, &ResourceSet::SETTLEMENT),
            ResourceSet([1, 0, 0, 0, 0])
        );
    }
}
