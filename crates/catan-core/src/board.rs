//! Terrains, harbours and the three board layouts (RULES.md R6-R10).

use crate::geometry::geo;
use crate::ids::{EdgeId, HexId};
use crate::options::BoardMode;
use crate::resource::Resource;
use rand::Rng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A land hex's terrain.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    /// Produces brick.
    Hills,
    /// Produces wood.
    Forest,
    /// Produces wool.
    Pasture,
    /// Produces wheat.
    Fields,
    /// Produces ore.
    Mountains,
    /// Produces nothing.
    Desert,
}

impl Terrain {
    /// What the terrain produces.
    pub const fn resource(self) -> Option<Resource> {
        match self {
            Terrain::Hills => Some(Resource::Brick),
            Terrain::Forest => Some(Resource::Wood),
            Terrain::Pasture => Some(Resource::Wool),
            Terrain::Fields => Some(Resource::Wheat),
            Terrain::Mountains => Some(Resource::Ore),
            Terrain::Desert => None,
        }
    }
}

/// One land hex: terrain and number token (absent on the desert).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HexTile {
    /// Terrain type.
    pub terrain: Terrain,
    /// Number token 2..12, none on the desert.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u8>,
}

/// A harbour's trade rate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HarbourKind {
    /// Any 3 identical for 1.
    Generic,
    /// 2 of this resource for 1.
    Special(Resource),
}

impl Serialize for HarbourKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            HarbourKind::Generic => s.serialize_str("3:1"),
            HarbourKind::Special(r) => s.serialize_str(r.name()),
        }
    }
}

impl<'de> Deserialize<'de> for HarbourKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        if s == "3:1" {
            return Ok(HarbourKind::Generic);
        }
        Resource::from_name(&s)
            .map(HarbourKind::Special)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown harbour kind {s:?}")))
    }
}

/// A harbour on a coastal edge, serving both its vertices.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Harbour {
    /// The coastal edge.
    pub edge: EdgeId,
    /// Its rate.
    pub kind: HarbourKind,
}

/// The layout: 19 hexes in id order and the harbours.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Board {
    /// Hexes by id.
    pub hexes: Vec<HexTile>,
    /// Harbours (9 on the standard frame).
    pub harbours: Vec<Harbour>,
}

/// Harbour edges clockwise from hex 0's top-left side (SCENARIO.md).
pub const HARBOUR_EDGES: [u8; 9] = [0, 3, 9, 38, 61, 70, 66, 49, 23];

const BEGINNER: [(Terrain, u8); 19] = {
    use Terrain::*;
    [
        (Mountains, 10),
        (Pasture, 2),
        (Forest, 9),
        (Fields, 12),
        (Hills, 6),
        (Pasture, 4),
        (Hills, 10),
        (Fields, 9),
        (Forest, 11),
        (Desert, 0),
        (Forest, 3),
        (Mountains, 8),
        (Forest, 8),
        (Mountains, 3),
        (Fields, 4),
        (Pasture, 5),
        (Hills, 5),
        (Fields, 6),
        (Pasture, 11),
    ]
};

const BEGINNER_HARBOURS: [HarbourKind; 9] = {
    use HarbourKind::*;
    use Resource::*;
    [
        Generic,
        Special(Wool),
        Generic,
        Generic,
        Special(Brick),
        Special(Wood),
        Generic,
        Special(Wheat),
        Special(Ore),
    ]
};

/// Token letters A..R (R7).
const OFFICIAL_TOKENS: [u8; 18] = [5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11];
/// Outer ring counterclockwise from hex 0; corners sit at even positions.
const OUTER_RING: [u8; 12] = [0, 3, 7, 12, 16, 17, 18, 15, 11, 6, 2, 1];
/// Inner ring counterclockwise from hex 4.
const INNER_RING: [u8; 6] = [4, 8, 13, 14, 10, 5];

const TERRAIN_POOL: [Terrain; 19] = {
    use Terrain::*;
    [
        Hills, Hills, Hills, Forest, Forest, Forest, Forest, Pasture, Pasture, Pasture, Pasture,
        Fields, Fields, Fields, Fields, Mountains, Mountains, Mountains, Desert,
    ]
};

impl Board {
    /// Whether this is no layout at all (a view that left it out).
    pub fn is_empty(&self) -> bool {
        self.hexes.is_empty() && self.harbours.is_empty()
    }

    /// The layout for `mode`, drawn from `rng` where the mode shuffles (R10).
    pub fn generate<R: Rng>(mode: BoardMode, rng: &mut R) -> Board {
        match mode {
            BoardMode::Beginner => Board::beginner(),
            BoardMode::Official => Board::official(rng),
            BoardMode::Random => Board::random(rng),
        }
    }

    /// The rulebook's starting map (R6) with fixed harbours (R9).
    pub fn beginner() -> Board {
        let hexes = BEGINNER
            .iter()
            .map(|&(terrain, n)| HexTile {
                terrain,
                number: (n != 0).then_some(n),
            })
            .collect();
        Board {
            hexes,
            harbours: harbours_from(BEGINNER_HARBOURS),
        }
    }

    fn official<R: Rng>(rng: &mut R) -> Board {
        let mut terrains = TERRAIN_POOL;
        terrains.shuffle(rng);
        let corner = rng.random_range(0..6usize);
        let mut order = Vec::with_capacity(19);
        for i in 0..12 {
            order.push(OUTER_RING[(2 * corner + i) % 12]);
        }
        for i in 0..6 {
            order.push(INNER_RING[(corner + i) % 6]);
        }
        order.push(9);
        let mut numbers = [0u8; 19];
        let mut next = 0;
        for &h in &order {
            if terrains[h as usize] != Terrain::Desert {
                numbers[h as usize] = OFFICIAL_TOKENS[next];
                next += 1;
            }
        }
        Board {
            hexes: tiles(&terrains, &numbers),
            harbours: shuffled_harbours(rng),
        }
    }

    fn random<R: Rng>(rng: &mut R) -> Board {
        let mut tokens: Vec<u8> = OFFICIAL_TOKENS.to_vec();
        loop {
            let mut terrains = TERRAIN_POOL;
            terrains.shuffle(rng);
            tokens.shuffle(rng);
            let mut numbers = [0u8; 19];
            let mut next = 0;
            for h in 0..19 {
                if terrains[h] != Terrain::Desert {
                    numbers[h] = tokens[next];
                    next += 1;
                }
            }
            if !has_adjacent_reds(&numbers) {
                return Board {
                    hexes: tiles(&terrains, &numbers),
                    harbours: shuffled_harbours(rng),
                };
            }
        }
    }

    /// The desert's hex id (the first desert if a custom board has several).
    pub fn desert(&self) -> Option<HexId> {
        self.hexes
            .iter()
            .position(|h| h.terrain == Terrain::Desert)
            .map(|i| HexId(i as u8))
    }

    /// Whether two hexes that share a side both carry a 6 or an 8.
    pub fn has_adjacent_reds(&self) -> bool {
        let mut numbers = [0u8; 19];
        for (i, h) in self.hexes.iter().enumerate().take(19) {
            numbers[i] = h.number.unwrap_or(0);
        }
        has_adjacent_reds(&numbers)
    }
}

fn tiles(terrains: &[Terrain; 19], numbers: &[u8; 19]) -> Vec<HexTile> {
    (0..19)
        .map(|h| HexTile {
            terrain: terrains[h],
            number: (numbers[h] != 0).then_some(numbers[h]),
        })
        .collect()
}

fn has_adjacent_reds(numbers: &[u8; 19]) -> bool {
    let red = |n: u8| n == 6 || n == 8;
    let g = geo();
    (0..19).any(|h| {
        red(numbers[h])
            && g.hex_neighbours[h]
                .iter()
                .any(|&n| n != crate::geometry::NONE && red(numbers[n as usize]))
    })
}

fn harbours_from(kinds: [HarbourKind; 9]) -> Vec<Harbour> {
    HARBOUR_EDGES
        .iter()
        .zip(kinds)
        .map(|(&e, kind)| Harbour {
            edge: EdgeId(e),
            kind,
        })
        .collect()
}

fn shuffled_harbours<R: Rng>(rng: &mut R) -> Vec<Harbour> {
    let mut kinds = BEGINNER_HARBOURS;
    kinds.shuffle(rng);
    harbours_from(kinds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn counts(b: &Board) -> ([u8; 6], [u8; 13]) {
        let mut t = [0u8; 6];
        let mut n = [0u8; 13];
        for h in &b.hexes {
            t[h.terrain as usize] += 1;
            if let Some(x) = h.number {
                n[x as usize] += 1;
            }
        }
        (t, n)
    }

    #[test]
    fn r1_every_layout_has_the_standard_pieces() {
        for mode in [BoardMode::Beginner, BoardMode::Official, BoardMode::Random] {
            for seed in 0..50 {
                let b = Board::generate(mode, &mut ChaCha8Rng::seed_from_u64(seed));
                let (t, n) = counts(&b);
                assert_eq!(t, [3, 4, 4, 4, 3, 1]);
                assert_eq!(n, [0, 0, 1, 2, 2, 2, 2, 0, 2, 2, 2, 2, 1]);
                assert!(
                    b.desert()
                        .is_some_and(|d| b.hexes[d.index()].number.is_none())
                );
                assert_eq!(b.harbours.len(), 9);
                let generic = b
                    .harbours
                    .iter()
                    .filter(|h| h.kind == HarbourKind::Generic)
                    .count();
                assert_eq!(generic, 4, "R2");
            }
        }
    }

    #[test]
    fn r8_random_has_no_adjacent_red_numbers() {
        for seed in 0..200 {
            let b = Board::generate(BoardMode::Random, &mut ChaCha8Rng::seed_from_u64(seed));
            assert!(!b.has_adjacent_reds());
        }
    }

    #[test]
    fn r7_official_spiral_from_hex0_matches_letter_order() {
        // Find a seed whose corner is 0 and check the tokens follow the spiral.
        let order: Vec<u8> = OUTER_RING
            .iter()
            .chain(INNER_RING.iter())
            .copied()
            .chain([9])
            .collect();
        let mut seen_corner0 = false;
        for seed in 0..100 {
            let b = Board::generate(BoardMode::Official, &mut ChaCha8Rng::seed_from_u64(seed));
            let seq: Vec<u8> = order
                .iter()
                .filter_map(|&h| b.hexes[h as usize].number)
                .collect();
            if seq == OFFICIAL_TOKENS {
                seen_corner0 = true;
            }
        }
        assert!(seen_corner0);
    }

    #[test]
    fn r10_layout_is_a_pure_function_of_seed() {
        for mode in [BoardMode::Official, BoardMode::Random] {
            let a = Board::generate(mode, &mut ChaCha8Rng::seed_from_u64(9));
            let b = Board::generate(mode, &mut ChaCha8Rng::seed_from_u64(9));
            assert_eq!(a, b);
        }
    }

    #[test]
    fn r6_beginner_matches_rulebook() {
        let b = Board::beginner();
        assert_eq!(b.hexes[0].terrain, Terrain::Mountains);
        assert_eq!(b.hexes[9].terrain, Terrain::Desert);
        assert_eq!(b.hexes[18].number, Some(11));
        assert_eq!(b.harbours[1].kind, HarbourKind::Special(Resource::Wool));
    }
}
