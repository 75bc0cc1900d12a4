//! The events of the running game, step by step, so that a viewer who
//! connects or reconnects gets the whole log it was allowed to see: the
//! `history` message, sent before each snapshot, redacted for its viewer
//! exactly like the live `update`s (docs/PROTOCOL.md, "history").

use catan_core::{Event, Seat, Viewer};
use catan_protocol::HistoryStep;

/// Every step of the game so far, unredacted (the actor's own copy; only
/// [`History::for_viewer`] leaves it).
#[derive(Default, Debug)]
pub struct History {
    steps: Vec<HistoryStep>,
}

impl History {
    /// Records one step, as broadcast to everyone.
    pub fn push(&mut self, version: u64, seat: Option<Seat>, stand_in: bool, events: &[Event]) {
        self.steps.push(HistoryStep {
            version,
            seat,
            stand_in,
            events: events.to_vec(),
        });
    }

    /// The steps after version `since` (all of them for `None`) as `viewer`
    /// may see them: each event redacted the way the live update carrying
    /// it was.
    pub fn for_viewer(
        &self,
        viewer: Viewer,
        open_hands: bool,
        since: Option<u64>,
    ) -> Vec<HistoryStep> {
        // Steps are pushed in version order, so the first one to send is
        // found by halving, not by walking a long game's log.
        let first = since.map_or(0, |v| self.steps.partition_point(|s| s.version <= v));
        self.steps[first..]
            .iter()
            .map(|s| HistoryStep {
                events: s
                    .events
                    .iter()
                    .map(|e| e.redacted_for(viewer, open_hands))
                    .collect(),
                ..s.clone()
            })
            .collect()
    }

    /// Number of steps recorded.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }
}
