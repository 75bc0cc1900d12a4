//! Resources, resource multisets and development cards.

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// One of the five resource types (6th-edition names).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    /// From hills.
    Brick,
    /// From forest.
    Wood,
    /// From pasture.
    Wool,
    /// From fields.
    Wheat,
    /// From mountains.
    Ore,
}

impl Resource {
    /// All five, in the canonical order used for indexing.
    pub const ALL: [Resource; 5] = [
        Resource::Brick,
        Resource::Wood,
        Resource::Wool,
        Resource::Wheat,
        Resource::Ore,
    ];

    /// Index 0..5 in [`Resource::ALL`] order.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Resource::Brick => "brick",
            Resource::Wood => "wood",
            Resource::Wool => "wool",
            Resource::Wheat => "wheat",
            Resource::Ore => "ore",
        }
    }

    /// Parses a lower-case resource name.
    pub fn from_name(s: &str) -> Option<Resource> {
        Resource::ALL.into_iter().find(|r| r.name() == s)
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A multiset of resource cards (a hand, the bank, a cost, one side of a trade).
///
/// Serializes as a JSON object with all five resource names; deserializes
/// from an object naming any subset of them (missing ones are 0).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ResourceSet(pub [u8; 5]);

impl ResourceSet {
    /// No cards.
    pub const EMPTY: ResourceSet = ResourceSet([0; 5]);
    /// A road: brick + wood.
    pub const ROAD: ResourceSet = ResourceSet([1, 1, 0, 0, 0]);
    /// A settlement: brick + wood + wool + wheat.
    pub const SETTLEMENT: ResourceSet = ResourceSet([1, 1, 1, 1, 0]);
    /// A city: 3 ore + 2 wheat.
    pub const CITY: ResourceSet = ResourceSet([0, 0, 0, 2, 3]);
    /// A development card: ore + wool + wheat.
    pub const DEV_CARD: ResourceSet = ResourceSet([0, 0, 1, 1, 1]);

    /// `n` cards of one type.
    pub const fn of(r: Resource, n: u8) -> ResourceSet {
        let mut a = [0; 5];
        a[r as usize] = n;
        ResourceSet(a)
    }

    /// Count of one type.
    #[inline]
    pub const fn get(&self, r: Resource) -> u8 {
        self.0[r as usize]
    }

    /// Mutable count of one type.
    #[inline]
    pub fn get_mut(&mut self, r: Resource) -> &mut u8 {
        &mut self.0[r as usize]
    }

    /// Total number of cards.
    #[inline]
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&c| c as u32).sum()
    }

    /// Whether there are no cards.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 5]
    }

    /// Whether `self` holds at least every card of `other`.
    #[inline]
    pub fn contains(&self, other: &ResourceSet) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a >= b)
    }

    /// Adds `other` (saturating; callers keep totals within 19 per type).
    #[inline]
    pub fn add(&mut self, other: &ResourceSet) {
        for i in 0..5 {
            self.0[i] = self.0[i].saturating_add(other.0[i]);
        }
    }

    /// Removes `other`; the caller has checked [`ResourceSet::contains`].
    #[inline]
    pub fn sub(&mut self, other: &ResourceSet) {
        for i in 0..5 {
            self.0[i] = self.0[i].saturating_sub(other.0[i]);
        }
    }

    /// Whether some type is present in both sets.
    pub fn overlaps(&self, other: &ResourceSet) -> bool {
        self.0
            .iter()
            .zip(other.0.iter())
            .any(|(a, b)| *a > 0 && *b > 0)
    }

    /// Number of distinct types present.
    pub fn kinds(&self) -> usize {
        self.0.iter().filter(|&&c| c > 0).count()
    }

    /// Iterates over `(resource, count)` for counts above zero.
    pub fn iter(&self) -> impl Iterator<Item = (Resource, u8)> + '_ {
        Resource::ALL
            .into_iter()
            .map(|r| (r, self.get(r)))
            .filter(|(_, c)| *c > 0)
    }

    /// Picks the `k`-th card (0-based) when the cards are laid out by type.
    pub fn nth_card(&self, mut k: u32) -> Option<Resource> {
        for r in Resource::ALL {
            let c = self.get(r) as u32;
            if k < c {
                return Some(r);
            }
            k -= c;
        }
        None
    }
}

impl fmt::Display for ResourceSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("nothing");
        }
        let mut first = true;
        for (r, c) in self.iter() {
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            write!(f, "{c} {r}")?;
        }
        Ok(())
    }
}

impl Serialize for ResourceSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(5))?;
        for r in Resource::ALL {
            m.serialize_entry(r.name(), &self.get(r))?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for ResourceSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ResourceSet;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object mapping resource names to counts")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ResourceSet, A::Error> {
                let mut set = ResourceSet::EMPTY;
                while let Some((k, v)) = map.next_entry::<Resource, u64>()? {
                    let slot = set.get_mut(k);
                    *slot = slot.saturating_add(v.min(u8::MAX as u64) as u8);
                }
                Ok(set)
            }
        }
        d.deserialize_map(V)
    }
}

/// A development card type.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DevCard {
    /// Move the robber and steal.
    Knight,
    /// Two free roads.
    RoadBuilding,
    /// Two resources from the bank (Year of Plenty).
    Invention,
    /// Take every card of one type from opponents.
    Monopoly,
    /// One hidden victory point.
    VictoryPoint,
}

impl DevCard {
    /// All five, in indexing order.
    pub const ALL: [DevCard; 5] = [
        DevCard::Knight,
        DevCard::RoadBuilding,
        DevCard::Invention,
        DevCard::Monopoly,
        DevCard::VictoryPoint,
    ];
    /// How many of each the standard deck holds (R3).
    pub const DECK_COUNTS: [u8; 5] = [14, 2, 2, 2, 5];

    /// Index 0..5 in [`DevCard::ALL`] order.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The snake_case name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            DevCard::Knight => "knight",
            DevCard::RoadBuilding => "road_building",
            DevCard::Invention => "invention",
            DevCard::Monopoly => "monopoly",
            DevCard::VictoryPoint => "victory_point",
        }
    }
}

impl fmt::Display for DevCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Counts of development cards by type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct DevCards(pub [u8; 5]);

impl DevCards {
    /// Count of one type.
    #[inline]
    pub const fn get(&self, c: DevCard) -> u8 {
        self.0[c as usize]
    }
    /// Total number of cards.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&c| c as u32).sum()
    }
}

impl Serialize for DevCards {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(5))?;
        for c in DevCard::ALL {
            m.serialize_entry(c.name(), &self.get(c))?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for DevCards {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let m = std::collections::BTreeMap::<DevCard, u8>::deserialize(d)?;
        let mut out = DevCards::default();
        for (k, v) in m {
            out.0[k.index()] = v;
        }
        Ok(out)
    }
}
