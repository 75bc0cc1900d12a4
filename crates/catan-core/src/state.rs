//! The game state: players, pieces, bank, deck, phase. Plain data; the rules
//! that change it live in `rules/`.

use crate::board::Board;
use crate::event::Offer;
use crate::ids::{Seat, VertexId};
use crate::options::GameOptions;
use crate::resource::{DevCard, DevCards, ResourceSet};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Pieces per player (R4).
pub const ROADS: u8 = 15;
/// Settlements per player (R4).
pub const SETTLEMENTS: u8 = 5;
/// Cities per player (R4).
pub const CITIES: u8 = 4;
/// Cards of each resource in the bank (R3).
pub const BANK_EACH: u8 = 19;

/// Harbour bit for a 3:1 harbour in [`Player::harbours`] (bits 0..5 are 2:1 by resource).
pub const GENERIC_HARBOUR: u8 = 1 << 5;

/// What the game is waiting for.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "name", rename_all = "snake_case")]
pub enum Phase {
    /// Opening placement (R11-R15).
    Opening {
        /// Index in the snake order, 0..2n.
        step: u8,
        /// The settlement just placed, awaiting its road.
        settlement: Option<VertexId>,
    },
    /// Before the roll (R16).
    PreRoll,
    /// Waiting for discards after a 7 (R19a).
    Discard,
    /// Waiting for the roller to move the robber (R19b).
    MoveRobber,
    /// Trading and building (R20).
    Action,
    /// The game is over.
    Finished,
}

impl Phase {
    /// The phase's name as SCENARIO.md spells it.
    pub fn name(&self) -> PhaseName {
        match self {
            Phase::Opening { .. } => PhaseName::Opening,
            Phase::PreRoll => PhaseName::PreRoll,
            Phase::Discard => PhaseName::Discard,
            Phase::MoveRobber => PhaseName::MoveRobber,
            Phase::Action => PhaseName::Action,
            Phase::Finished => PhaseName::Finished,
        }
    }
}

/// Which step the game waits for, without the step's details: what views,
/// `catan check` and the protocol show (snake_case on the wire).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PhaseName {
    /// Opening placement.
    Opening,
    /// Before the roll.
    PreRoll,
    /// Waiting for discards after a 7.
    Discard,
    /// Waiting for the robber to move.
    MoveRobber,
    /// Trading and building.
    Action,
    /// The game is over.
    Finished,
}

/// One player's holdings and pieces.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Player {
    /// Resource cards.
    pub hand: ResourceSet,
    /// Unplayed development cards (including those bought this turn).
    pub dev: DevCards,
    /// Of `dev`, those bought this turn (R32).
    pub dev_new: DevCards,
    /// Development cards played so far, by type (knights are the army).
    pub played: DevCards,
    /// Roads, by edge bit.
    pub roads: u128,
    /// Vertices touched by this player's roads.
    pub road_vertices: u64,
    /// Settlements, by vertex bit.
    pub settlements: u64,
    /// Cities, by vertex bit.
    pub cities: u64,
    /// Roads left in supply.
    pub roads_left: u8,
    /// Settlements left in supply.
    pub settlements_left: u8,
    /// Cities left in supply.
    pub cities_left: u8,
    /// Harbours reached: bit per resource for 2:1, [`GENERIC_HARBOUR`] for 3:1.
    pub harbours: u8,
    /// Longest trail, kept current (R39).
    pub trail: u8,
}

impl Player {
    /// A player with full supplies and nothing else.
    pub fn new() -> Player {
        Player {
            hand: ResourceSet::EMPTY,
            dev: DevCards::default(),
            dev_new: DevCards::default(),
            played: DevCards::default(),
            roads: 0,
            road_vertices: 0,
            settlements: 0,
            cities: 0,
            roads_left: ROADS,
            settlements_left: SETTLEMENTS,
            cities_left: CITIES,
            harbours: 0,
            trail: 0,
        }
    }

    /// Knights played (R42).
    #[inline]
    pub fn knights(&self) -> u8 {
        self.played.get(DevCard::Knight)
    }

    /// Settlements and cities, by vertex bit.
    #[inline]
    pub fn buildings(&self) -> u64 {
        self.settlements | self.cities
    }

    /// Adds a road on edge `e` to this player's network (supply is the caller's).
    #[inline]
    pub fn add_road(&mut self, e: u8) {
        self.roads |= 1u128 << e;
        self.road_vertices |= crate::geometry::geo().edge_vertex_mask[e as usize];
    }

    /// Playable copies of a card: held and not bought this turn.
    #[inline]
    pub fn playable(&self, c: DevCard) -> u8 {
        self.dev.get(c) - self.dev_new.get(c)
    }
}

impl Default for Player {
    fn default() -> Self {
        Player::new()
    }
}

/// The whole game. Serializable so that tests can compare states byte for
/// byte; the authoritative record of a game is its seed and action log.
///
/// The fields are private to the crate, so that outside it a game changes
/// only by its actions (and is set up by [`Game::new`] or a scenario): the
/// engine's caches (occupied and blocked vertices, trails, awards) cannot
/// drift from the pieces. Readers use the accessors below, named after the
/// fields. The deck's cards and the random state have none: they decide what
/// is drawn and rolled next, which no player may know (R48);
/// [`Game::deck_size`] is what the views show. A bot's copy with the hidden
/// cards drawn anew is made by [`Game::from_view`] or [`Game::redeal_hidden`]
/// (see [`crate::hidden`]).
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Game {
    /// Options fixed at creation.
    pub(crate) options: GameOptions,
    /// The layout.
    pub(crate) board: Board,
    /// Harbour bits per vertex (same encoding as [`Player::harbours`]).
    pub(crate) vertex_harbour: Vec<u8>,
    /// For each total 2..12, the hexes bearing it (bit per hex id).
    pub(crate) number_hexes: [u32; 13],
    /// Vertices where the distance rule forbids a settlement (R22).
    pub(crate) blocked_vertices: u64,
    /// Where the robber is.
    pub(crate) robber: crate::ids::HexId,
    /// What the game waits for.
    pub(crate) phase: Phase,
    /// Whose turn (during the opening: who places; during discards: the roller).
    pub(crate) active: Seat,
    /// Who opened (R11).
    pub(crate) opener: Seat,
    /// 0 during the opening, then counts turns from 1.
    pub(crate) turn: u32,
    /// The last roll, if any.
    pub(crate) dice: Option<[u8; 2]>,
    /// How often each total 2..12 was rolled (index = total).
    pub(crate) dice_counts: Vec<u32>,
    /// Resource cards not in any hand.
    pub(crate) bank: ResourceSet,
    /// Development deck, top card last. Secret (R3, R48).
    pub(crate) deck: Vec<DevCard>,
    /// Players by seat.
    pub(crate) players: Vec<Player>,
    /// All settlements and cities, by vertex bit.
    pub(crate) occupied_vertices: u64,
    /// All roads, by edge bit.
    pub(crate) occupied_edges: u128,
    /// Longest Road holder.
    pub(crate) longest_road: Option<Seat>,
    /// Largest Army holder.
    pub(crate) largest_army: Option<Seat>,
    /// Whether a development card was played this turn (R34).
    pub(crate) dev_played: bool,
    /// V4: whether the active player has built this turn.
    pub(crate) built_this_turn: bool,
    /// Discards owed per seat after a 7.
    pub(crate) discards: Vec<u8>,
    /// Open trade offers.
    pub(crate) offers: Vec<Offer>,
    /// The id the next offer gets.
    pub(crate) next_offer: u32,
    /// The winner, once finished.
    pub(crate) winner: Option<Seat>,
    /// Forced dice still to use (scenarios), the next one last.
    pub(crate) forced_dice: Vec<[u8; 2]>,
    /// The game's random state. Secret (R48).
    pub(crate) rng: ChaCha8Rng,
}

impl Game {
    /// Options fixed at creation.
    #[inline]
    pub fn options(&self) -> GameOptions {
        self.options
    }

    /// The layout.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Harbour bits per vertex (same encoding as [`Player::harbours`]).
    #[inline]
    pub fn vertex_harbour(&self) -> &[u8] {
        &self.vertex_harbour
    }

    /// For each total 2..12, the hexes bearing it (bit per hex id).
    #[inline]
    pub fn number_hexes(&self) -> &[u32; 13] {
        &self.number_hexes
    }

    /// Vertices where the distance rule forbids a settlement (R22), by bit.
    #[inline]
    pub fn blocked_vertices(&self) -> u64 {
        self.blocked_vertices
    }

    /// Where the robber is.
    #[inline]
    pub fn robber(&self) -> crate::ids::HexId {
        self.robber
    }

    /// What the game waits for.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whose turn it is (during the opening: who places; during discards:
    /// the roller).
    #[inline]
    pub fn active(&self) -> Seat {
        self.active
    }

    /// Who opened (R11).
    #[inline]
    pub fn opener(&self) -> Seat {
        self.opener
    }

    /// 0 during the opening, then counts turns from 1.
    #[inline]
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The last roll, if any.
    #[inline]
    pub fn dice(&self) -> Option<[u8; 2]> {
        self.dice
    }

    /// How often each total 2..12 was rolled (index = total).
    #[inline]
    pub fn dice_counts(&self) -> &[u32] {
        &self.dice_counts
    }

    /// Resource cards not in any hand.
    #[inline]
    pub fn bank(&self) -> ResourceSet {
        self.bank
    }

    /// Cards left in the development deck. Only the number: which cards and
    /// in what order is secret (R3, R48).
    #[inline]
    pub fn deck_size(&self) -> usize {
        self.deck.len()
    }

    /// Players by seat.
    #[inline]
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// The player at `seat`. Panics if the game has no such seat: callers
    /// with a seat from outside check it against [`Game::n_players`] first.
    #[inline]
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    /// All settlements and cities, by vertex bit.
    #[inline]
    pub fn occupied_vertices(&self) -> u64 {
        self.occupied_vertices
    }

    /// All roads, by edge bit.
    #[inline]
    pub fn occupied_edges(&self) -> u128 {
        self.occupied_edges
    }

    /// Longest Road holder.
    #[inline]
    pub fn longest_road(&self) -> Option<Seat> {
        self.longest_road
    }

    /// Largest Army holder.
    #[inline]
    pub fn largest_army(&self) -> Option<Seat> {
        self.largest_army
    }

    /// Whether a development card was played this turn (R34).
    #[inline]
    pub fn dev_played(&self) -> bool {
        self.dev_played
    }

    /// V4: whether the active player has built this turn.
    #[inline]
    pub fn built_this_turn(&self) -> bool {
        self.built_this_turn
    }

    /// Discards owed per seat after a 7.
    #[inline]
    pub fn discards(&self) -> &[u8] {
        &self.discards
    }

    /// Open trade offers.
    #[inline]
    pub fn offers(&self) -> &[Offer] {
        &self.offers
    }

    /// The id the next offer gets.
    #[inline]
    pub fn next_offer(&self) -> u32 {
        self.next_offer
    }

    /// The winner, once finished.
    #[inline]
    pub fn winner(&self) -> Option<Seat> {
        self.winner
    }
}
