//! Scenario files and the `catan check` contract (SCENARIO.md).
//!
//! A scenario sets a game up exactly (board, forced dice and deck, a start
//! position) and plays a list of actions on it. [`run_scenario`] is the one
//! code path used by `catan check` and by the rules tests.

use crate::action::Action;
use crate::board::{Board, Harbour, HexTile};
use crate::error::ActionError;
use crate::game::SetupError;
use crate::ids::{EdgeId, HexId, Seat, VertexId};
use crate::options::GameOptions;
use crate::resource::{DevCard, DevCards, ResourceSet};
use crate::state::{Game, Phase, PhaseName};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Deserializer, Serialize};

/// A scenario file.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct Scenario {
    /// Game options (defaults for missing fields).
    #[serde(default)]
    pub options: GameOptions,
    /// The game's seed.
    #[serde(default)]
    pub seed: u64,
    /// An explicit layout.
    #[serde(default)]
    pub board: Option<BoardSpec>,
    /// Forced rolls, used first.
    #[serde(default)]
    pub dice: Vec<[u8; 2]>,
    /// Forced development deck, top card first.
    #[serde(default)]
    pub deck: Option<Vec<DevCard>>,
    /// A start position instead of the opening.
    #[serde(default)]
    pub start: Option<Start>,
    /// The actions to play.
    pub actions: Vec<ScenarioAction>,
}

/// An explicit board in a scenario.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct BoardSpec {
    /// 19 hexes in id order.
    pub hexes: Vec<HexTile>,
    /// Harbours (the mode's harbours when absent).
    #[serde(default)]
    pub harbours: Option<Vec<Harbour>>,
    /// Where the robber starts (the desert when absent).
    #[serde(default)]
    pub robber: Option<HexId>,
}

/// A start position (`skip_opening` must be true).
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct Start {
    /// Must be true.
    pub skip_opening: bool,
    /// Whose pre-roll step the game starts at.
    #[serde(default = "seat0")]
    pub active: Seat,
    /// One entry per seat.
    pub players: Vec<StartPlayer>,
    /// Robber position (wins over `board.robber`).
    #[serde(default)]
    pub robber: Option<HexId>,
    /// Longest Road holder; absent means "compute".
    #[serde(default, deserialize_with = "present")]
    pub longest_road: Option<Option<Seat>>,
    /// Largest Army holder; absent means "compute".
    #[serde(default, deserialize_with = "present")]
    pub largest_army: Option<Option<Seat>>,
}

fn seat0() -> Seat {
    Seat(0)
}

/// Distinguishes a present `null` (Some(None)) from an absent field (None).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<Seat>>, D::Error> {
    Option::<Seat>::deserialize(d).map(Some)
}

/// One seat's holdings at the start.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct StartPlayer {
    /// Settlement vertices.
    pub settlements: Vec<VertexId>,
    /// City vertices.
    pub cities: Vec<VertexId>,
    /// Road edges.
    pub roads: Vec<EdgeId>,
    /// Resource cards (taken from the bank).
    pub resources: ResourceSet,
    /// Development cards, playable at once.
    pub dev_cards: Vec<DevCard>,
    /// Knights already played.
    pub played_knights: u8,
}

/// One step of a scenario.
#[derive(Clone, Copy, Debug, Deserialize, Serialize)]
pub struct ScenarioAction {
    /// Who sends it.
    pub seat: Seat,
    /// What.
    pub action: Action,
}

/// The refusal reported by `catan check`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejected {
    /// Index of the refused action.
    pub index: usize,
    /// Stable code.
    pub code: String,
    /// Human message.
    pub message: String,
}

/// What `catan check` prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckOutput {
    /// Whether every action was accepted.
    pub ok: bool,
    /// The first refusal, if any.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rejected: Option<Rejected>,
    /// The full state after the last accepted action.
    pub state: CheckState,
}

/// The full, unredacted state in the contract's shape.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckState {
    /// Phase name.
    pub phase: PhaseName,
    /// Active seat.
    pub active: Seat,
    /// Winner.
    pub winner: Option<Seat>,
    /// Turn number.
    pub turn: u32,
    /// Last roll.
    pub dice: Option<[u8; 2]>,
    /// Robber hex.
    pub robber: HexId,
    /// Bank.
    pub bank: ResourceSet,
    /// Cards left in the deck.
    pub deck_size: usize,
    /// Longest Road holder.
    pub longest_road: Option<Seat>,
    /// Largest Army holder.
    pub largest_army: Option<Seat>,
    /// Players by seat.
    pub players: Vec<CheckPlayer>,
}

/// One player in [`CheckState`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckPlayer {
    /// Resource cards.
    pub resources: ResourceSet,
    /// Unplayed development cards.
    pub dev_cards: DevCards,
    /// Knights played.
    pub played_knights: u8,
    /// Points including hidden cards.
    pub victory_points: u8,
    /// Longest trail.
    pub longest_trail: u8,
    /// Settlements, ascending.
    pub settlements: Vec<VertexId>,
    /// Cities, ascending.
    pub cities: Vec<VertexId>,
    /// Roads, ascending.
    pub roads: Vec<EdgeId>,
}

impl Scenario {
    /// Parses a scenario; any error means the file is malformed.
    pub fn parse(text: &str) -> Result<Scenario, SetupError> {
        serde_json::from_str(text).map_err(|e| SetupError(format!("malformed scenario: {e}")))
    }

    /// Builds the game the scenario describes, before any action.
    pub fn build(&self) -> Result<Game, SetupError> {
        let options = self.options;
        options.validate().map_err(SetupError)?;
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let mut board = Board::generate(options.board, &mut rng);
        if let Some(spec) = &self.board {
            if spec.hexes.len() != 19 {
                return Err(SetupError(format!(
                    "board.hexes has {} entries, not 19",
                    spec.hexes.len()
                )));
            }
            board.hexes = spec.hexes.clone();
            if let Some(h) = &spec.harbours {
                board.harbours = h.clone();
            }
        }
        let mut game = Game::blank(options, board, rng)?;
        if let Some(r) = self.board.as_ref().and_then(|b| b.robber) {
            game.robber = check_hex(r)?;
        }
        game.forced_dice = self.dice.iter().rev().copied().collect();
        for d in &self.dice {
            if !(1..=6).contains(&d[0]) || !(1..=6).contains(&d[1]) {
                return Err(SetupError(format!("die value out of 1..6 in {d:?}")));
            }
        }
        let mut taken = [0u8; 5];
        if let Some(start) = &self.start {
            apply_start(&mut game, start, &mut taken)?;
        }
        match &self.deck {
            Some(deck) => game.deck = deck.iter().rev().copied().collect(),
            None => game.shuffle_standard_deck(&taken),
        }
        if self.start.is_some() {
            // R45: a player who begins their turn at the target wins at once.
            let mut sink = Vec::new();
            game.check_win(&mut sink);
        }
        Ok(game)
    }
}

fn check_hex(h: HexId) -> Result<HexId, SetupError> {
    if h.is_valid() {
        Ok(h)
    } else {
        Err(SetupError(format!("{h} does not exist")))
    }
}

fn apply_start(game: &mut Game, start: &Start, taken: &mut [u8; 5]) -> Result<(), SetupError> {
    if !start.skip_opening {
        return Err(SetupError("start.skip_opening must be true".into()));
    }
    let n = game.n_players();
    if start.players.len() != n {
        return Err(SetupError(format!(
            "start.players has {} entries for a {n}-player game",
            start.players.len()
        )));
    }
    if start.active.index() >= n {
        return Err(SetupError(format!(
            "start.active {} is not a seat",
            start.active
        )));
    }
    for (i, sp) in start.players.iter().enumerate() {
        let seat = Seat(i as u8);
        for &v in sp.settlements.iter().chain(&sp.cities) {
            if !v.is_valid() {
                return Err(SetupError(format!("{seat}: {v} does not exist")));
            }
            if game.occupied_vertices & (1u64 << v.0) != 0 {
                return Err(SetupError(format!("{seat}: {v} is built on twice")));
            }
            game.block_around(v.0);
            game.players[i].harbours |= game.vertex_harbour[v.index()];
        }
        for &e in &sp.roads {
            if !e.is_valid() {
                return Err(SetupError(format!("{seat}: {e} does not exist")));
            }
            if game.occupied_edges & (1u128 << e.0) != 0 {
                return Err(SetupError(format!("{seat}: {e} has two roads")));
            }
            game.occupied_edges |= 1u128 << e.0;
        }
        let p = &mut game.players[i];
        if sp.settlements.len() > p.settlements_left as usize
            || sp.cities.len() > p.cities_left as usize
            || sp.roads.len() > p.roads_left as usize
        {
            return Err(SetupError(format!(
                "{seat}: more pieces than the supply holds"
            )));
        }
        p.settlements = sp.settlements.iter().fold(0, |m, v| m | 1u64 << v.0);
        p.cities = sp.cities.iter().fold(0, |m, v| m | 1u64 << v.0);
        for e in &sp.roads {
            p.add_road(e.0);
        }
        p.settlements_left -= sp.settlements.len() as u8;
        p.cities_left -= sp.cities.len() as u8;
        p.roads_left -= sp.roads.len() as u8;
        if !game.bank.contains(&sp.resources) {
            return Err(SetupError(format!(
                "{seat}: the bank cannot supply {}",
                sp.resources
            )));
        }
        game.bank.sub(&sp.resources);
        p.hand = sp.resources;
        for &c in &sp.dev_cards {
            p.dev.0[c.index()] += 1;
            taken[c.index()] += 1;
        }
        p.played.0[DevCard::Knight.index()] = sp.played_knights;
        taken[DevCard::Knight.index()] =
            taken[DevCard::Knight.index()].saturating_add(sp.played_knights);
    }
    if taken.iter().zip(DevCard::DECK_COUNTS).any(|(&t, c)| t > c) {
        return Err(SetupError(
            "start holds more development cards than the deck has".into(),
        ));
    }
    for i in 0..n {
        game.recount_trail(Seat(i as u8));
    }
    if let Some(r) = start.robber {
        game.robber = check_hex(r)?;
    }
    for holder in [start.longest_road, start.largest_army]
        .into_iter()
        .flatten()
        .flatten()
    {
        if holder.index() >= n {
            return Err(SetupError(format!("award holder {holder} is not a seat")));
        }
    }
    game.longest_road = match start.longest_road {
        Some(h) => h,
        None => game.initial_longest_road(),
    };
    game.largest_army = match start.largest_army {
        Some(h) => h,
        None => game.initial_largest_army(),
    };
    game.active = start.active;
    game.phase = Phase::PreRoll;
    game.turn = START_TURN;
    Ok(())
}

/// The turn number a `start` position begins at. SCENARIO.md's prose says 1,
/// but its worked examples (02, 03, 04) all print 0 at the start and 1 after
/// one `end_turn`; the examples are the executable contract, so we follow them.
pub const START_TURN: u32 = 0;

impl Game {
    /// The full state in the `catan check` shape.
    pub fn check_state(&self) -> CheckState {
        use crate::geometry::{bits64, bits128};
        CheckState {
            phase: self.phase.name(),
            active: self.active,
            winner: self.winner,
            turn: self.turn,
            dice: self.dice,
            robber: self.robber,
            bank: self.bank,
            deck_size: self.deck.len(),
            longest_road: self.longest_road,
            largest_army: self.largest_army,
            players: (0..self.n_players())
                .map(|i| {
                    let p = &self.players[i];
                    CheckPlayer {
                        resources: p.hand,
                        dev_cards: p.dev,
                        played_knights: p.knights(),
                        victory_points: self.victory_points(Seat(i as u8)),
                        longest_trail: p.trail,
                        settlements: bits64(p.settlements).map(VertexId).collect(),
                        cities: bits64(p.cities).map(VertexId).collect(),
                        roads: bits128(p.roads).map(EdgeId).collect(),
                    }
                })
                .collect(),
        }
    }
}

/// Runs a scenario: builds the game, plays actions until one is refused.
pub fn run_scenario(text: &str) -> Result<CheckOutput, SetupError> {
    let scenario = Scenario::parse(text)?;
    let mut game = scenario.build()?;
    let mut events = Vec::new();
    let mut rejected = None;
    for (index, step) in scenario.actions.iter().enumerate() {
        events.clear();
        if let Err(e) = game.apply_into(step.seat, step.action, &mut events) {
            let ActionError { code, message } = e;
            rejected = Some(Rejected {
                index,
                code: code.as_str().to_string(),
                message,
            });
            break;
        }
    }
    Ok(CheckOutput {
        ok: rejected.is_none(),
        rejected,
        state: game.check_state(),
    })
}
