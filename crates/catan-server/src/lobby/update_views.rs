//! The view part of a live update, for each viewer and each form a client's
//! protocol version asks for ([`UpdateView`]), and the views the last
//! update was made from: protocol 3 clients are sent only what changed
//! since then (docs/PROTOCOL.md, "Protocol versions").
//!
//! A connection always has the views of the version before an update: the
//! update of that version or the snapshot that welcomed it (a view is the
//! same whichever built it), and both reach a socket in order. So the views
//! kept here are the ones every protocol 3 client of the viewer holds.

use catan_core::{Game, View, ViewChanges, Viewer};
use catan_protocol::UpdateView;

/// The views the last update was made from, by viewer.
#[derive(Default)]
pub(super) struct SentViews {
    /// That update's version.
    version: u64,
    /// One view (without its board) per viewer the update went to.
    views: Vec<(Viewer, View)>,
}

impl SentViews {
    /// Keeps `viewer`'s view of `game` at `version` (a snapshot's), unless
    /// it is kept already; views of an older version are dropped.
    pub fn remember(&mut self, version: u64, viewer: Viewer, game: &Game) {
        if self.version != version {
            self.version = version;
            self.views.clear();
        }
        if !self.views.iter().any(|(v, _)| *v == viewer) {
            self.views.push((viewer, game.view_without_board(viewer)));
        }
    }
}

/// Builds an update's views, each once per viewer.
pub(super) struct UpdateViews<'a> {
    game: &'a Game,
    version: u64,
    last: &'a SentViews,
    now: Vec<(Viewer, View)>,
}

impl<'a> UpdateViews<'a> {
    /// For the update to `version` of `game`; `last` is what the update
    /// before was made from.
    pub fn new(game: &'a Game, version: u64, last: &'a SentViews) -> Self {
        Self {
            game,
            version,
            last,
            now: Vec::new(),
        }
    }

    /// The update's `view` and `changes` for `viewer` in `form`. Every
    /// form starts from the one view of `viewer` this update builds.
    pub fn for_client(
        &mut self,
        viewer: Viewer,
        form: UpdateView,
    ) -> (Option<View>, Option<ViewChanges>) {
        let i = self.index_of(viewer);
        let view = &self.now[i].1;
        // The update that starts the game (version 0) carries the whole
        // view, board and all, whatever the protocol: a client that
        // waited in the room has had no snapshot to take them from.
        if form == UpdateView::Whole || self.version == 0 {
            let whole = View {
                board: self.game.board().clone(),
                ..view.clone()
            };
            return (Some(whole), None);
        }
        let changes = (form == UpdateView::Changes && self.last.version + 1 == self.version)
            .then(|| self.last.views.iter().find(|(v, _)| *v == viewer))
            .flatten()
            .and_then(|(_, old)| view.changes_since(old));
        match changes {
            Some(c) => (None, Some(c)),
            None => (Some(view.clone()), None),
        }
    }

    /// Where this version's view of `viewer` (without its board) is in
    /// `now`, built the first time it is asked for.
    fn index_of(&mut self, viewer: Viewer) -> usize {
        match self.now.iter().position(|(v, _)| *v == viewer) {
            Some(i) => i,
            None => {
                self.now
                    .push((viewer, self.game.view_without_board(viewer)));
                self.now.len() - 1
            }
        }
    }

    /// What the next update is to be made from.
    pub fn into_sent(self) -> SentViews {
        SentViews {
            version: self.version,
            views: self.now,
        }
    }
}
