//! Vocabulary types for board positions, seats and trade offers.
//!
//! Ids are small integers (SCENARIO.md numbering). They deserialize from any
//! non-negative JSON integer, saturating at the type's maximum, so that an id
//! that is out of range reaches the rules engine and is refused with a code
//! instead of making the whole message unreadable.

use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

macro_rules! small_id {
    ($(#[$doc:meta])* $name:ident, $limit:expr, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(transparent)]
        pub struct $name(pub u8);

        impl $name {
            /// Number of valid ids of this kind on the base board.
            pub const COUNT: usize = $limit;
            /// The id as an index into per-position arrays.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }
            /// Whether the id names a real position.
            #[inline]
            pub const fn is_valid(self) -> bool {
                (self.0 as usize) < $limit
            }
            /// Every valid id in ascending order.
            pub fn all() -> impl Iterator<Item = Self> {
                (0..$limit as u8).map(Self)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{} {}", $what, self.0)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let v = u64::deserialize(d)?;
                Ok($name(v.min(u8::MAX as u64) as u8))
            }
        }
    };
}

small_id!(
    /// A land hex, 0..18 in reading order.
    HexId, 19, "hex"
);
small_id!(
    /// An intersection (corner), 0..53 sorted by (y, x).
    VertexId, 54, "vertex"
);
small_id!(
    /// A hex side, 0..71 sorted by the (y, x) of its midpoint.
    EdgeId, 72, "edge"
);

/// A player's seat, 0-based in clockwise order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat as an index into per-player arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

impl<'de> Deserialize<'de> for Seat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = u64::deserialize(d)?;
        Ok(Seat(v.min(u8::MAX as u64) as u8))
    }
}

/// A trade offer's id: offers count from 0 in the order made within a game.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct OfferId(pub u32);

impl fmt::Display for OfferId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "offer {}", self.0)
    }
}

impl<'de> Deserialize<'de> for OfferId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = u64::deserialize(d)?;
        Ok(OfferId(v.min(u32::MAX as u64) as u32))
    }
}
