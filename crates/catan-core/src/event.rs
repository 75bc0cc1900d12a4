//! What happened, as told to each viewer.
//!
//! Every successful action yields events. Most are public; a few carry a
//! private detail (the stolen card, the drawn development card) that
//! [`Event::redacted_for`] blanks for everyone who may not know it.

use crate::action::SeatSet;
use crate::ids::{EdgeId, HexId, OfferId, Seat, VertexId};
use crate::per_seat::PerSeat;
use crate::resource::{DevCard, Resource, ResourceSet};
use serde::{Deserialize, Serialize};

/// Who is looking.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", content = "seat", rename_all = "snake_case")]
pub enum Viewer {
    /// A player at this seat.
    Seat(Seat),
    /// Someone not in the game (sees what an uninvolved player sees).
    Spectator,
    /// Everything: only for finished games (replay review, R48).
    Omniscient,
}

/// A trade offer as it stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Offer {
    /// Its id.
    pub id: OfferId,
    /// Who made it.
    pub maker: Seat,
    /// What the maker gives.
    pub give: ResourceSet,
    /// What the maker gets.
    pub get: ResourceSet,
    /// Who it is addressed to.
    pub to: SeatSet,
    /// Who has accepted (for a counter-offer: its maker).
    pub accepted: SeatSet,
    /// Who has declined.
    pub declined: SeatSet,
    /// Whether a non-active player made it (a counter-offer to the active player).
    pub counter: bool,
}

/// Something that happened in the game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Players rolled for the opener (R11); rounds of (seat, total).
    OpenerRolled {
        /// Each round's rolls.
        rounds: Vec<Vec<(Seat, u8)>>,
        /// Who opens.
        opener: Seat,
    },
    /// A settlement was placed.
    SettlementBuilt {
        /// Builder.
        seat: Seat,
        /// Where.
        vertex: VertexId,
    },
    /// A road was placed.
    RoadBuilt {
        /// Builder.
        seat: Seat,
        /// Where.
        edge: EdgeId,
    },
    /// A settlement became a city.
    CityBuilt {
        /// Builder.
        seat: Seat,
        /// Where.
        vertex: VertexId,
    },
    /// Resources for a second opening settlement (R14).
    OpeningResources {
        /// Who.
        seat: Seat,
        /// What.
        gained: ResourceSet,
    },
    /// The dice were rolled.
    DiceRolled {
        /// Roller.
        seat: Seat,
        /// The two dice.
        dice: [u8; 2],
    },
    /// Hexes produced (empty when nothing paid).
    Produced {
        /// Cards gained per seat (index = seat).
        gains: PerSeat<ResourceSet>,
        /// Types withheld because the bank could not pay everyone (R18).
        shortage: Vec<Resource>,
    },
    /// A 7: these seats owe discards.
    DiscardsOwed {
        /// Cards owed per seat (index = seat).
        owed: PerSeat<u8>,
    },
    /// A seat discarded (public, R19a).
    Discarded {
        /// Who.
        seat: Seat,
        /// What.
        cards: ResourceSet,
    },
    /// The robber moved.
    RobberMoved {
        /// Who moved it.
        seat: Seat,
        /// Where to.
        hex: HexId,
    },
    /// A card was stolen; only thief and victim see which (R19c).
    Stole {
        /// Thief.
        thief: Seat,
        /// Victim.
        victim: Seat,
        /// The card, if this viewer may know it.
        resource: Option<Resource>,
    },
    /// A development card was bought; only the buyer sees which.
    DevCardBought {
        /// Buyer.
        seat: Seat,
        /// The card, if this viewer may know it.
        card: Option<DevCard>,
    },
    /// A Knight was played.
    KnightPlayed {
        /// Who.
        seat: Seat,
    },
    /// Road Building was played.
    RoadBuildingPlayed {
        /// Who.
        seat: Seat,
        /// Edges built.
        edges: Vec<EdgeId>,
    },
    /// Invention was played.
    InventionPlayed {
        /// Who.
        seat: Seat,
        /// Cards taken.
        taken: ResourceSet,
    },
    /// Monopoly was played.
    MonopolyPlayed {
        /// Who.
        seat: Seat,
        /// Named resource.
        resource: Resource,
        /// Cards taken from each seat (index = seat).
        taken: PerSeat<u8>,
    },
    /// A bank or harbour trade.
    BankTraded {
        /// Who.
        seat: Seat,
        /// Cards given.
        gave: ResourceSet,
        /// Cards received.
        got: ResourceSet,
    },
    /// An offer was made.
    TradeOffered {
        /// The offer.
        offer: Offer,
    },
    /// A seat accepted an offer.
    TradeAccepted {
        /// Which.
        offer: OfferId,
        /// Who.
        seat: Seat,
    },
    /// A seat declined an offer.
    TradeDeclined {
        /// Which.
        offer: OfferId,
        /// Who.
        seat: Seat,
    },
    /// An offer was withdrawn or closed.
    TradeClosed {
        /// Which.
        offer: OfferId,
    },
    /// A player trade happened.
    Traded {
        /// The offer.
        offer: OfferId,
        /// The offer's maker.
        maker: Seat,
        /// The other side.
        taker: Seat,
        /// What the maker gave.
        gave: ResourceSet,
        /// What the maker got.
        got: ResourceSet,
    },
    /// Longest Road changed hands (or was set aside).
    LongestRoadChanged {
        /// New holder.
        holder: Option<Seat>,
        /// Their trail length.
        length: u8,
    },
    /// Largest Army changed hands.
    LargestArmyChanged {
        /// New holder.
        holder: Seat,
        /// Their knights.
        knights: u8,
    },
    /// The turn passed.
    TurnStarted {
        /// New active seat.
        seat: Seat,
        /// Turn number.
        turn: u32,
    },
    /// The game ended.
    GameWon {
        /// Winner.
        seat: Seat,
        /// Their points.
        points: u8,
        /// Victory Point cards revealed per seat (index = seat).
        revealed_vp_cards: PerSeat<u8>,
    },
    /// The game reached its turn limit without a winner and ended drawn.
    GameDrawn {
        /// The turn that would have begun.
        turn: u32,
        /// Victory Point cards revealed per seat (index = seat).
        revealed_vp_cards: PerSeat<u8>,
    },
}

impl Event {
    /// The event as `viewer` may see it. `open_hands` is variant V3.
    pub fn redacted_for(&self, viewer: Viewer, open_hands: bool) -> Event {
        let sees = |seats: &[Seat]| match viewer {
            Viewer::Omniscient => true,
            Viewer::Seat(s) => seats.contains(&s),
            Viewer::Spectator => false,
        };
        match self {
            Event::Stole {
                thief,
                victim,
                resource,
            } => Event::Stole {
                thief: *thief,
                victim: *victim,
                resource: if open_hands || sees(&[*thief, *victim]) {
                    *resource
                } else {
                    None
                },
            },
            Event::DevCardBought { seat, card } => Event::DevCardBought {
                seat: *seat,
                card: if sees(&[*seat]) { *card } else { None },
            },
            other => other.clone(),
        }
    }
}
