//! Bot players over `catan-core`.
//!
//! A bot sees exactly what its seat may see: the seat's redacted [`View`] and
//! the engine's list of legal actions for that seat. It never gets the
//! [`catan_core::Game`], so it cannot peek at other hands or the deck.
//!
//! Four levels ([`BotKind`]): [`RandomBot`] picks uniformly (for tests);
//! [`EasyBot`] builds greedily and slips on purpose; [`HeuristicBot`]
//! (`normal`) plays by rules (opening by pips and mix, roads toward the best
//! free spot, city > settlement > card, trades toward its plan, robber on the
//! leader); [`SearchBot`] (`hard`) searches ahead over games sampled from its
//! own view ([`determinize`]). [`arena`] plays a whole game between bots;
//! `catan bots` uses it to measure them against each other.
//! [`stand_in_action`] is the conservative policy a server plays for an
//! absent or slow person.
//!
//! A seat must be asked to answer offers made to it: when an offer is open,
//! call [`Bot::choose`] for each recipient that has not answered (its legal
//! actions then include accept and decline), as [`arena`] does.

mod arena;
pub mod board_eval;
pub mod ceiling;
pub mod ctx;
pub mod deadline;
pub mod determinize;
mod easy;
pub mod eval;
pub mod fit;
mod heuristic;
mod memo;
pub mod network;
pub mod plan;
mod random;
pub mod search;
mod standin;
#[cfg(test)]
mod testkit;
mod trail;
mod trail_search;

pub use arena::{ArenaResult, arena, arena_game};
pub use ceiling::{cards_rule_out, point_ceiling, unwinnable};
pub use easy::EasyBot;
pub use heuristic::{HeuristicBot, discard_pick, opening_value};
pub use random::RandomBot;
pub use search::{SearchBot, SearchConfig, SearchStats};
pub use standin::stand_in_action;

use catan_core::{Action, View};

/// A player program.
pub trait Bot: Send {
    /// Picks one of `legal` (the legal actions of the view's seat), or `None`
    /// when `legal` is empty. It may also return an action not in `legal`
    /// (for example a trade offer); the engine refuses it if it is illegal.
    fn choose(&mut self, view: &View, legal: &[Action]) -> Option<Action>;

    /// Whether a decision may take long (a search): a server then runs it
    /// off the thread that serves the game.
    fn thinks_long(&self) -> bool {
        false
    }
}

/// The kinds of bot a lobby can seat, weakest first.
///
/// Serialized in snake_case; `heuristic`, the name `normal` had before
/// difficulty levels existed, is still read (saved games and old clients).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum BotKind {
    /// Uniformly random legal actions (for tests).
    Random,
    /// Plays legally and builds greedily, with deliberate mistakes.
    Easy,
    /// The rule-based player (see the heuristic module).
    #[serde(alias = "heuristic")]
    Normal,
    /// Searches ahead over sampled hidden information (see the search module).
    Hard,
}

impl BotKind {
    /// Every kind, weakest first.
    pub const ALL: [BotKind; 4] = [
        BotKind::Random,
        BotKind::Easy,
        BotKind::Normal,
        BotKind::Hard,
    ];

    /// The kind as the protocol spells it (`"normal"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Easy => "easy",
            BotKind::Normal => "normal",
            BotKind::Hard => "hard",
        }
    }

    /// One line for people choosing a bot.
    pub fn description(self) -> &'static str {
        match self {
            BotKind::Random => "makes random legal moves (for testing)",
            BotKind::Easy => "builds greedily and makes mistakes on purpose",
            BotKind::Normal => "plays a sound plan and trades sensibly",
            BotKind::Hard => "thinks ahead over what it cannot see; takes up to a second a move",
        }
    }
}

impl std::str::FromStr for BotKind {
    type Err = String;

    fn from_str(s: &str) -> Result<BotKind, String> {
        if s == "heuristic" {
            return Ok(BotKind::Normal);
        }
        BotKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("unknown bot kind {s:?} (random, easy, normal, hard)"))
    }
}

/// A bot of `kind` with its own seeded randomness.
pub fn make_bot(kind: BotKind, seed: u64) -> Box<dyn Bot> {
    match kind {
        BotKind::Random => Box::new(RandomBot::new(seed)),
        BotKind::Easy => Box::new(EasyBot::new(seed)),
        BotKind::Normal => Box::new(HeuristicBot::new(seed)),
        BotKind::Hard => Box::new(SearchBot::new(seed, SearchConfig::default())),
    }
}
