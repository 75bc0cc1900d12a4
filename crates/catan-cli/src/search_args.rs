//! The `hard` bot's search settings as command-line flags, shared by the
//! arena (`catan bots`) and the Catanatron bridge (`catan bridge`) so that
//! both measure the same bot with the same flags.

use catan_bots::eval::Eval;
use catan_bots::search::SearchConfig;
use std::time::Duration;

/// Flags of the `hard` bot's search; each defaults to the server's setting.
#[derive(clap::Args, Clone, Debug)]
pub struct SearchArgs {
    /// `hard` bots: wall-time think budget per decision in milliseconds (0:
    /// none, only the playout cap; games are then reproducible).
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// `hard` bots: most playouts per decision.
    #[arg(long, default_value_t = SearchConfig::default().max_playouts)]
    pub playouts: u32,
    /// `hard` bots: turns a playout runs before its position is valued.
    #[arg(long, default_value_t = SearchConfig::default().horizon_turns)]
    pub horizon: u32,
    /// `hard` bots: how a playout is valued at the horizon (points,
    /// position or fitted).
    #[arg(long, default_value_t = SearchConfig::default().eval)]
    pub eval: Eval,
    /// `hard` bots: most candidate moves compared in a decision.
    #[arg(long, default_value_t = SearchConfig::default().max_candidates)]
    pub candidates: usize,
    /// `hard` bots: standard errors by which a candidate must beat the
    /// `normal` move to be played instead.
    #[arg(long, default_value_t = SearchConfig::default().margin_z)]
    pub margin_z: f64,
    /// `hard` bots: candidates in the heuristic's own order where it ranks
    /// them (opening, settlements, robber), not at random (`--ranked
    /// false`: at random).
    #[arg(long, default_value_t = SearchConfig::default().ranked, action = clap::ArgAction::Set)]
    pub ranked: bool,
    /// `hard` bots: share of playout decisions played at random.
    #[arg(long, default_value_t = SearchConfig::default().epsilon)]
    pub epsilon: f64,
    /// `hard` bots: factor on --playouts for opening placements and robber
    /// moves.
    #[arg(long, default_value_t = SearchConfig::default().key_boost)]
    pub key_boost: u32,
    /// `hard` bots: search only opening placements and robber moves (the
    /// `normal` move everywhere else).
    #[arg(long, default_value_t = SearchConfig::default().key_only, action = clap::ArgAction::Set, num_args = 0..=1, default_missing_value = "true")]
    pub key_only: bool,
    /// `hard` bots: turns a playout of an opening placement runs before its
    /// position is valued (0: --horizon).
    #[arg(long, default_value_t = SearchConfig::default().opening_horizon)]
    pub opening_horizon: u32,
    /// `hard` bots: most candidates compared in an opening placement (0:
    /// --candidates).
    #[arg(long, default_value_t = SearchConfig::default().opening_candidates)]
    pub opening_candidates: usize,
    /// `hard` bots: factor on --playouts for opening placements (0:
    /// --key-boost).
    #[arg(long, default_value_t = SearchConfig::default().opening_boost)]
    pub opening_boost: u32,
    /// `hard` bots: turns a playout of a robber move (a knight's included)
    /// runs before its position is valued (0: --horizon).
    #[arg(long, default_value_t = SearchConfig::default().robber_horizon)]
    pub robber_horizon: u32,
    /// `hard` bots: standard errors by which a candidate must beat the
    /// `normal` move in an opening placement (0: --margin-z).
    #[arg(long, default_value_t = SearchConfig::default().opening_margin_z)]
    pub opening_margin_z: f64,
    /// `hard` bots: search every decision once some player's visible
    /// points are within this many of the target (0: never).
    #[arg(long, default_value_t = SearchConfig::default().endgame_gap)]
    pub endgame_gap: u8,
    /// `hard` bots: turns a playout runs near the end (--endgame-gap),
    /// robber moves included (0: as elsewhere).
    #[arg(long, default_value_t = SearchConfig::default().endgame_horizon)]
    pub endgame_horizon: u32,
    /// `hard` bots: factor on --playouts near the end (--endgame-gap) for
    /// decisions other than opening placements and robber moves (0: none).
    #[arg(long, default_value_t = SearchConfig::default().endgame_boost)]
    pub endgame_boost: u32,
}

impl SearchArgs {
    /// The search configuration these flags describe.
    pub fn config(&self) -> SearchConfig {
        SearchConfig {
            budget: (self.think_ms > 0).then(|| Duration::from_millis(self.think_ms)),
            max_playouts: self.playouts,
            horizon_turns: self.horizon,
            eval: self.eval,
            max_candidates: self.candidates.max(1),
            margin_z: self.margin_z,
            ranked: self.ranked,
            epsilon: self.epsilon,
            key_boost: self.key_boost,
            key_only: self.key_only,
            opening_horizon: self.opening_horizon,
            opening_candidates: self.opening_candidates,
            opening_boost: self.opening_boost,
            robber_horizon: self.robber_horizon,
            opening_margin_z: self.opening_margin_z,
            endgame_gap: self.endgame_gap,
            endgame_horizon: self.endgame_horizon,
            endgame_boost: self.endgame_boost,
        }
    }
}
