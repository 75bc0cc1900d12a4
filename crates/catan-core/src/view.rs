//! Redacted views of a game, built by whitelist (R46-R48).
//!
//! A view copies only fields that are public, plus the viewer's own secrets.
//! A new field of the game is secret until it is added here on purpose. The
//! deck order and the random state are never part of any view.

use crate::board::Board;
use crate::event::{Offer, Viewer};
use crate::geometry::{bits64, bits128};
use crate::ids::{EdgeId, HexId, Seat, VertexId};
use crate::options::GameOptions;
use crate::resource::{DevCard, DevCards, ResourceSet};
use crate::state::{Game, Phase, PhaseName};
use serde::{Deserialize, Serialize};

/// What one viewer may know of the game.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct View {
    /// Who this view is for.
    pub viewer: Viewer,
    /// The game's options.
    pub options: GameOptions,
    /// The layout. Left out (empty) where the receiver has it already: it
    /// never changes, so a server's live updates may omit it after the
    /// snapshot that carried it (see [`Game::view_without_board`]).
    #[serde(default, skip_serializing_if = "Board::is_empty")]
    pub board: Board,
    /// Where the robber is.
    pub robber: HexId,
    /// What the game waits for (`opening`, `pre_roll`, ...).
    pub phase: PhaseName,
    /// During the opening: the settlement awaiting its road.
    pub opening_settlement: Option<VertexId>,
    /// Whose turn it is.
    pub active: Seat,
    /// Turn number (0 during the opening).
    pub turn: u32,
    /// The last roll.
    pub dice: Option<[u8; 2]>,
    /// How often each total 2..12 has been rolled (index = total).
    pub dice_counts: Vec<u32>,
    /// The bank's cards (public: every movement in or out of it is public).
    pub bank: ResourceSet,
    /// Cards left in the development deck.
    pub deck_size: usize,
    /// Longest Road holder.
    pub longest_road: Option<Seat>,
    /// Largest Army holder.
    pub largest_army: Option<Seat>,
    /// Whether the active player has played a development card this turn.
    pub dev_card_played: bool,
    /// Discards still owed, per seat.
    pub discards_owed: Vec<u8>,
    /// Open trade offers.
    pub offers: Vec<Offer>,
    /// The winner, once finished.
    pub winner: Option<Seat>,
    /// One entry per seat.
    pub players: Vec<PlayerView>,
}

/// One player as the viewer may see them.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlayerView {
    /// The seat.
    pub seat: Seat,
    /// Number of resource cards (public).
    pub resource_count: u32,
    /// The resource cards by type: the owner's own, V3, or a finished game.
    pub resources: Option<ResourceSet>,
    /// Number of unplayed development cards (public).
    pub dev_card_count: u32,
    /// The unplayed development cards by type: owner only (or a review).
    pub dev_cards: Option<DevCards>,
    /// Of those, bought this turn: owner only.
    pub dev_cards_new: Option<DevCards>,
    /// Victory Point cards revealed (only once the game is over).
    pub revealed_vp_cards: Option<u8>,
    /// Development cards played, by type (public).
    pub played: DevCards,
    /// Knights played.
    pub played_knights: u8,
    /// Points everyone can see.
    pub visible_points: u8,
    /// All points, hidden cards included: owner only (or finished).
    pub victory_points: Option<u8>,
    /// Longest trail.
    pub longest_trail: u8,
    /// Settlements.
    pub settlements: Vec<VertexId>,
    /// Cities.
    pub cities: Vec<VertexId>,
    /// Roads.
    pub roads: Vec<EdgeId>,
    /// Pieces left: roads, settlements, cities.
    pub pieces_left: [u8; 3],
    /// Best bank rate per resource (public: follows from the board).
    pub bank_rates: [u8; 5],
}

impl Game {
    /// The game as `viewer` may see it. [`Viewer::Omniscient`] shows
    /// everything but the deck order and random state; callers give it only
    /// for finished games (R48).
    pub fn view(&self, viewer: Viewer) -> View {
        View {
            board: self.board.clone(),
            ..self.view_without_board(viewer)
        }
    }

    /// [`Game::view`] with the board left out, for a receiver that has it
    /// already (it is the same all game); the board is not copied at all.
    pub fn view_without_board(&self, viewer: Viewer) -> View {
        let finished = self.phase == Phase::Finished;
        let players = (0..self.n_players())
            .map(|i| self.player_view(Seat(i as u8), viewer, finished))
            .collect();
        View {
            viewer,
            options: self.options,
            board: Board::default(),
            robber: self.robber,
            phase: self.phase.name(),
            opening_settlement: match self.phase {
                Phase::Opening { settlement, .. } => settlement,
                _ => None,
            },
            active: self.active,
            turn: self.turn,
            dice: self.dice,
            dice_counts: self.dice_counts.clone(),
            bank: self.bank,
            deck_size: self.deck.len(),
            longest_road: self.longest_road,
            largest_army: self.largest_army,
            dev_card_played: self.dev_played,
            discards_owed: self.discards.clone(),
            offers: self.offers.clone(),
            winner: self.winner,
            players,
        }
    }

    /// [`Game::view`] written over `out`, reusing its allocations: a
    /// search that looks at a game from a seat at every step of a playout
    /// would otherwise spend much of its time allocating views. `out`
    /// afterwards equals `self.view(viewer)`, whatever it held before.
    pub fn view_into(&self, viewer: Viewer, out: &mut View) {
        let finished = self.phase == Phase::Finished;
        out.viewer = viewer;
        out.options = self.options;
        out.board.clone_from(&self.board);
        out.robber = self.robber;
        out.phase = self.phase.name();
        out.opening_settlement = match self.phase {
            Phase::Opening { settlement, .. } => settlement,
            _ => None,
        };
        out.active = self.active;
        out.turn = self.turn;
        out.dice = self.dice;
        out.dice_counts.clone_from(&self.dice_counts);
        out.bank = self.bank;
        out.deck_size = self.deck.len();
        out.longest_road = self.longest_road;
        out.largest_army = self.largest_army;
        out.dev_card_played = self.dev_played;
        out.discards_owed.clone_from(&self.discards);
        out.offers.clone_from(&self.offers);
        out.winner = self.winner;
        let n = self.n_players();
        out.players.truncate(n);
        for i in 0..n {
            let seat = Seat(i as u8);
            match out.players.get_mut(i) {
                Some(p) => self.player_view_into(seat, viewer, finished, p),
                None => out.players.push(self.player_view(seat, viewer, finished)),
            }
        }
    }

    /// [`Game::player_view`] written over `out`, reusing its lists.
    fn player_view_into(&self, seat: Seat, viewer: Viewer, finished: bool, out: &mut PlayerView) {
        let p = &self.players[seat.index()];
        let mut settlements = std::mem::take(&mut out.settlements);
        let mut cities = std::mem::take(&mut out.cities);
        let mut roads = std::mem::take(&mut out.roads);
        settlements.clear();
        settlements.extend(bits64(p.settlements).map(VertexId));
        cities.clear();
        cities.extend(bits64(p.cities).map(VertexId));
        roads.clear();
        roads.extend(bits128(p.roads).map(EdgeId));
        *out = PlayerView {
            settlements,
            cities,
            roads,
            ..self.player_summary(seat, viewer, finished)
        };
    }

    fn player_view(&self, seat: Seat, viewer: Viewer, finished: bool) -> PlayerView {
        let p = &self.players[seat.index()];
        PlayerView {
            settlements: bits64(p.settlements).map(VertexId).collect(),
            cities: bits64(p.cities).map(VertexId).collect(),
            roads: bits128(p.roads).map(EdgeId).collect(),
            ..self.player_summary(seat, viewer, finished)
        }
    }

    /// A player's view with empty piece lists: everything but those.
    fn player_summary(&self, seat: Seat, viewer: Viewer, finished: bool) -> PlayerView {
        let p = &self.players[seat.index()];
        let own = viewer == Viewer::Seat(seat) || viewer == Viewer::Omniscient;
        let hand_public = own || self.options.open_hands;
        PlayerView {
            seat,
            resource_count: p.hand.total(),
            resources: hand_public.then_some(p.hand),
            dev_card_count: p.dev.total(),
            dev_cards: own.then_some(p.dev),
            dev_cards_new: own.then_some(p.dev_new),
            revealed_vp_cards: finished.then(|| p.dev.get(DevCard::VictoryPoint)),
            played: p.played,
            played_knights: p.knights(),
            visible_points: self.visible_points(seat),
            victory_points: (own || finished).then(|| self.victory_points(seat)),
            longest_trail: p.trail,
            settlements: Vec::new(),
            cities: Vec::new(),
            roads: Vec::new(),
            pieces_left: [p.roads_left, p.settlements_left, p.cities_left],
            bank_rates: crate::resource::Resource::ALL.map(|r| self.bank_rate(seat, r)),
        }
    }
}
