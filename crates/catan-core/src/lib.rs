//! `catan-core`: the Catan base-game rules as a pure, deterministic library.
//!
//! `Game::new(options, seed)`, `game.legal_actions(seat)`,
//! `game.apply(seat, action) -> Result<Vec<Event>, ActionError>` and
//! `game.view(viewer)`. No I/O, no clock, no global RNG: all randomness comes
//! from the game's own seeded ChaCha RNG, so seed + actions rebuild a game
//! exactly. Rule ids (R1..R48, V1..V5) refer to the project's RULES.md.

pub mod action;
pub mod board;
pub mod error;
pub mod event;
pub mod game;
pub mod geometry;
pub mod hidden;
pub mod ids;
pub mod legal;
pub mod options;
pub mod per_seat;
pub mod playout;
pub mod record;
pub mod resource;
pub mod rules;
pub mod scenario;
#[cfg(feature = "schema")]
mod schema;
pub mod state;
#[cfg(feature = "test-support")]
mod test_support;
pub mod view;
pub mod view_changes;

pub use action::{Action, EdgeList, ResourceList, SeatSet};
pub use board::{Board, Harbour, HarbourKind, HexTile, Terrain};
pub use error::{ActionError, ErrorCode};
pub use event::{Event, Offer, Viewer};
pub use game::SetupError;
pub use hidden::HiddenDeal;
pub use ids::{EdgeId, HexId, OfferId, Seat, VertexId};
pub use options::{BoardMode, GameOptions};
pub use per_seat::PerSeat;
pub use resource::{DevCard, DevCards, Resource, ResourceSet};
pub use scenario::{CheckOutput, Scenario, run_scenario};
pub use state::{Game, Phase, PhaseName, Player};
pub use view::{PlayerView, View};
pub use view_changes::{PlayerChanges, ViewChanges};
