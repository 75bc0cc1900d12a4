//! Position editing for the tests of other crates (feature `test-support`).
//!
//! A bot's unit test often needs one exact situation (a phase, a hand, a
//! board with no room left) that playing to it would take long or never
//! reach. These setters write it directly. They keep no invariant: the
//! caller keeps pieces, masks, supplies and trails consistent, as far as the
//! test needs. Ordinary builds do not have them, so outside this crate a
//! game changes only through its actions, scenarios and [`crate::hidden`].

use crate::ids::{HexId, Seat};
use crate::options::GameOptions;
use crate::resource::DevCard;
use crate::state::{Game, Phase, Player};

impl Game {
    /// Sets what the game waits for.
    pub fn set_phase(&mut self, phase: Phase) {
        self.phase = phase;
    }

    /// Sets the turn number.
    pub fn set_turn(&mut self, turn: u32) {
        self.turn = turn;
    }

    /// Sets whose turn it is.
    pub fn set_active(&mut self, seat: Seat) {
        self.active = seat;
    }

    /// Sets the last roll.
    pub fn set_dice(&mut self, dice: Option<[u8; 2]>) {
        self.dice = dice;
    }

    /// Moves the robber to `hex` (no steal).
    pub fn set_robber(&mut self, hex: HexId) {
        self.robber = hex;
    }

    /// Gives Longest Road to `holder`, whatever the trails.
    pub fn set_longest_road(&mut self, holder: Option<Seat>) {
        self.longest_road = holder;
    }

    /// Replaces the options (the number of players must stay the same).
    pub fn set_options(&mut self, options: GameOptions) {
        self.options = options;
    }

    /// The player at `seat`, to change: cards, pieces, supplies, trail.
    pub fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat.index()]
    }

    /// Sets the vertices built on, by bit.
    pub fn set_occupied_vertices(&mut self, mask: u64) {
        self.occupied_vertices = mask;
    }

    /// Sets the vertices the distance rule closes, by bit.
    pub fn set_blocked_vertices(&mut self, mask: u64) {
        self.blocked_vertices = mask;
    }

    /// Sets the edges with a road, by bit.
    pub fn set_occupied_edges(&mut self, mask: u128) {
        self.occupied_edges = mask;
    }

    /// Replaces the development deck, top card last.
    pub fn set_deck(&mut self, deck: Vec<DevCard>) {
        self.deck = deck;
    }
}
