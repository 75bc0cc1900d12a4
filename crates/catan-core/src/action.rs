//! What a seat may ask the engine to do (SCENARIO.md action table).
//!
//! Every action is `Copy` and allocation-free: lists that the rules cap at two
//! entries are held inline. A list that arrives longer than the rules allow is
//! kept as "too long" so that the engine refuses it with a code.

use crate::ids::{EdgeId, HexId, OfferId, Seat, VertexId};
use crate::resource::{Resource, ResourceSet};
use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Up to two items held inline; `len` above 2 means the input was too long.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Pair<T: Copy> {
    len: u8,
    items: [Option<T>; 2],
}

impl<T: Copy> Default for Pair<T> {
    fn default() -> Self {
        Pair {
            len: 0,
            items: [None, None],
        }
    }
}

impl<T: Copy> Pair<T> {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }
    /// A list from up to two items.
    pub fn from_slice(items: &[T]) -> Self {
        let mut p = Self::new();
        for &i in items {
            p.push(i);
        }
        p
    }
    /// Appends an item; beyond two only the count grows.
    pub fn push(&mut self, item: T) {
        if (self.len as usize) < 2 {
            self.items[self.len as usize] = Some(item);
        }
        self.len = self.len.saturating_add(1);
    }
    /// Number of items the input named (may exceed 2).
    pub fn len(&self) -> usize {
        self.len as usize
    }
    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Whether the input named more than two items.
    pub fn too_long(&self) -> bool {
        self.len > 2
    }
    /// The items held (at most two).
    pub fn iter(&self) -> impl Iterator<Item = T> + '_ {
        self.items.iter().flatten().copied()
    }
}

impl<T: Copy + Serialize> Serialize for Pair<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de, T: Copy + Deserialize<'de>> Deserialize<'de> for Pair<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Copy + Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Pair<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Pair<T>, A::Error> {
                let mut p = Pair::new();
                while let Some(x) = seq.next_element::<T>()? {
                    p.push(x);
                }
                Ok(p)
            }
        }
        d.deserialize_seq(V(std::marker::PhantomData))
    }
}

/// A set of seats (trade recipients), serialized as a sorted list.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct SeatSet(pub u8);

impl SeatSet {
    /// Whether `s` is in the set.
    #[inline]
    pub fn contains(self, s: Seat) -> bool {
        s.0 < 8 && self.0 & (1 << s.0) != 0
    }
    /// Adds `s` (seats 8 and above are recorded as an invalid marker bit).
    pub fn insert(&mut self, s: Seat) {
        if s.0 < 7 {
            self.0 |= 1 << s.0;
        } else {
            self.0 |= 1 << 7;
        }
    }
    /// The seats in ascending order.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..8u8).filter(move |i| self.0 & (1 << i) != 0).map(Seat)
    }
    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl Serialize for SeatSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for SeatSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<Seat>::deserialize(d)?;
        let mut s = SeatSet(0);
        for x in v {
            s.insert(x);
        }
        Ok(s)
    }
}

/// Up to two road edges (Road Building).
pub type EdgeList = Pair<EdgeId>;
/// Up to two resources (Invention).
pub type ResourceList = Pair<Resource>;

/// An action a seat asks for.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, strum::IntoStaticStr)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Action {
    /// Place a settlement (opening: free; later: paid, on own road).
    BuildSettlement {
        /// Where.
        vertex: VertexId,
    },
    /// Place a road.
    BuildRoad {
        /// Where.
        edge: EdgeId,
    },
    /// Upgrade an own settlement.
    BuildCity {
        /// Which settlement.
        vertex: VertexId,
    },
    /// Draw the top development card.
    BuyDevelopmentCard,
    /// Roll the dice.
    RollDice,
    /// Discard half one's hand after a 7.
    Discard {
        /// Cards to discard.
        cards: ResourceSet,
    },
    /// Move the robber after a 7 and steal.
    MoveRobber {
        /// Destination.
        hex: HexId,
        /// Who to steal from (null only when nobody qualifies).
        #[serde(default)]
        victim: Option<Seat>,
    },
    /// Play a Knight: move the robber and steal.
    PlayKnight {
        /// Destination.
        hex: HexId,
        /// Who to steal from.
        #[serde(default)]
        victim: Option<Seat>,
    },
    /// Play Road Building with 0-2 edges, in order.
    PlayRoadBuilding {
        /// Edges to build.
        edges: EdgeList,
    },
    /// Play Invention taking up to two resources.
    PlayInvention {
        /// Resources to take.
        resources: ResourceList,
    },
    /// Play Monopoly naming a resource.
    PlayMonopoly {
        /// The resource.
        resource: Resource,
    },
    /// Trade one lot with the bank at one's best rate.
    TradeBank {
        /// Type given (rate cards).
        give: Resource,
        /// Type received (one card).
        get: Resource,
    },
    /// Offer a trade (active player) or counter-offer (another player).
    OfferTrade {
        /// What the maker gives.
        give: ResourceSet,
        /// What the maker gets.
        get: ResourceSet,
        /// Recipients, or null for everyone.
        #[serde(default)]
        to: Option<SeatSet>,
    },
    /// Accept an offer made to one.
    AcceptTrade {
        /// The offer.
        offer: OfferId,
    },
    /// Decline an offer (the active player closes a counter-offer this way).
    DeclineTrade {
        /// The offer.
        offer: OfferId,
    },
    /// The active player completes a trade with a seat that accepted.
    ConfirmTrade {
        /// The offer.
        offer: OfferId,
        /// The other side.
        with: Seat,
    },
    /// The maker withdraws an offer.
    CancelTrade {
        /// The offer.
        offer: OfferId,
    },
    /// End the turn.
    EndTurn,
}

impl Action {
    /// The same action in canonical form: Invention's two resources sorted,
    /// so that `[wool, wood]` and `[wood, wool]` compare equal.
    pub fn normalized(self) -> Action {
        match self {
            Action::PlayInvention { resources } if resources.len() == 2 => {
                let mut v: Vec<Resource> = resources.iter().collect();
                v.sort();
                Action::PlayInvention {
                    resources: ResourceList::from_slice(&v),
                }
            }
            other => other,
        }
    }

    /// The action's `type` tag.
    pub fn kind(&self) -> &'static str {
        self.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `kind` (strum) and serde's `type` tag spell every action alike.
    #[test]
    fn kinds_are_serde_tags() {
        let v = VertexId(3);
        let e = EdgeId(5);
        let h = HexId(7);
        let set = ResourceSet::EMPTY;
        let offer = OfferId(1);
        let all = [
            Action::BuildSettlement { vertex: v },
            Action::BuildRoad { edge: e },
            Action::BuildCity { vertex: v },
            Action::BuyDevelopmentCard,
            Action::RollDice,
            Action::Discard { cards: set },
            Action::MoveRobber {
                hex: h,
                victim: None,
            },
            Action::PlayKnight {
                hex: h,
                victim: None,
            },
            Action::PlayRoadBuilding {
                edges: EdgeList::from_slice(&[e]),
            },
            Action::PlayInvention {
                resources: ResourceList::from_slice(&[Resource::Ore]),
            },
            Action::PlayMonopoly {
                resource: Resource::Wool,
            },
            Action::TradeBank {
                give: Resource::Wood,
                get: Resource::Brick,
            },
            Action::OfferTrade {
                give: set,
                get: set,
                to: None,
            },
            Action::AcceptTrade { offer },
            Action::DeclineTrade { offer },
            Action::ConfirmTrade {
                offer,
                with: Seat(1),
            },
            Action::CancelTrade { offer },
            Action::EndTurn,
        ];
        for a in all {
            let json = serde_json::to_value(a).expect("serialize");
            assert_eq!(json["type"], a.kind(), "{a:?}");
        }
    }
}
