//! What changed between two views of one game for one viewer
//! ([`ViewChanges`]), so a server may send a client that has the one view
//! only the fields that differ in the next, and the client put the next
//! view together again ([`View::apply`]).
//!
//! A step of a game changes a few fields of a view (a hand, the bank, the
//! phase); the rest, the other players above all, stays as it was. The
//! changes name each changed field with its new value, whole; a player's
//! changes do the same for the fields of that player.
//!
//! Every field of [`View`] and [`PlayerView`] is named below, either as one
//! that may change or as one that stays all game: a field added to the views
//! does not compile here until it is sorted into one of the two, so it can
//! never silently go missing from the changes.

use crate::event::Offer;
use crate::ids::{EdgeId, HexId, Seat, VertexId};
use crate::resource::{DevCards, ResourceSet};
use crate::state::PhaseName;
use crate::view::{PlayerView, View};
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;

/// Reads a field that is present as `Some`, so that a field present as
/// `null` (a value set to none) differs from one left out (unchanged).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// Reads the players' changes keyed by seat number. The keys are JSON
/// strings ("1"), which a message read through serde's buffering (an
/// internally tagged enum, as the protocol's messages are) hands over as
/// strings, never as numbers: so they are parsed here.
fn players_by_seat<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<Seat, PlayerChanges>, D::Error> {
    let by_key = BTreeMap::<String, PlayerChanges>::deserialize(d)?;
    by_key
        .into_iter()
        .map(|(key, p)| match key.parse::<u8>() {
            Ok(n) => Ok((Seat(n), p)),
            Err(_) => Err(serde::de::Error::custom(format!(
                "a player's changes are keyed by seat number, not {key:?}"
            ))),
        })
        .collect()
}

/// Declares a changes type for a view type: one optional field per field
/// that may change (absent: unchanged), `between` and `apply_to`.
macro_rules! changes_of {
    (
        $(#[$meta:meta])*
        pub struct $name:ident of $full:ident
        stays [$($stays:ident),* $(,)?]
        $(apart [$($apart:ident),* $(,)?])?
        {
            $(
                $(#[$fmeta:meta])*
                $field:ident: $ty:ty,
            )*
        }
        $(extra { $($(#[$emeta:meta])* $extra:ident: $ety:ty = $edefault:expr,)* })?
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        pub struct $name {
            $(
                $(#[$fmeta])*
                #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
                pub $field: Option<$ty>,
            )*
            $($(
                $(#[$emeta])*
                pub $extra: $ety,
            )*)?
        }

        impl $name {
            /// The fields of `new` that differ from `old`'s (the extra
            /// fields, and the view's fields set apart for them, are left to
            /// the caller), and whether the fields that stay all game are
            /// the same in both.
            fn between_fields(old: &$full, new: &$full) -> (Self, bool) {
                // Naming every field (no `..`): see the module's comment.
                let $full { $($stays,)* $($($apart: _,)*)? $($field,)* } = new;
                let same = true $(&& old.$stays == *$stays)*;
                let changes = Self {
                    $($field: (old.$field != *$field).then(|| $field.clone()),)*
                    $($($extra: $edefault,)*)?
                };
                (changes, same)
            }

            /// Writes the changed fields over `view`.
            fn apply_fields(&self, view: &mut $full) {
                $(if let Some(v) = &self.$field {
                    view.$field = v.clone();
                })*
            }

            /// Whether no field changed (the extra ones aside).
            fn fields_unchanged(&self) -> bool {
                true $(&& self.$field.is_none())*
            }
        }
    };
}

changes_of! {
    /// What changed in a viewer's [`View`] from one version of the game to
    /// the next: each field that changed, with its new value; for the
    /// players, only those that changed, and of them only the fields that
    /// did. A field left out is as it was.
    pub struct ViewChanges of View
    stays [viewer, options, board]
    apart [players]
    {
        /// Where the robber is.
        robber: HexId,
        /// What the game waits for.
        phase: PhaseName,
        /// During the opening: the settlement awaiting its road.
        opening_settlement: Option<VertexId>,
        /// Whose turn it is.
        active: Seat,
        /// Turn number.
        turn: u32,
        /// The last roll.
        dice: Option<[u8; 2]>,
        /// How often each total 2..12 has been rolled (index = total).
        dice_counts: Vec<u32>,
        /// The bank's cards.
        bank: ResourceSet,
        /// Cards left in the development deck.
        deck_size: usize,
        /// Longest Road holder.
        longest_road: Option<Seat>,
        /// Largest Army holder.
        largest_army: Option<Seat>,
        /// Whether the active player has played a development card this turn.
        dev_card_played: bool,
        /// Discards still owed, per seat.
        discards_owed: Vec<u8>,
        /// Open trade offers.
        offers: Vec<Offer>,
        /// The winner, once finished.
        winner: Option<Seat>,
    }
    extra {
        /// The players whose view changed, by seat, with only the fields
        /// that did.
        #[serde(
            default,
            skip_serializing_if = "BTreeMap::is_empty",
            deserialize_with = "players_by_seat"
        )]
        players: BTreeMap<Seat, PlayerChanges> = BTreeMap::new(),
    }
}

changes_of! {
    /// What changed in one [`PlayerView`]: each field that changed, with
    /// its new value.
    pub struct PlayerChanges of PlayerView
    stays [seat]
    {
        /// Number of resource cards.
        resource_count: u32,
        /// The resource cards by type, where the viewer may see them.
        resources: Option<ResourceSet>,
        /// Number of unplayed development cards.
        dev_card_count: u32,
        /// The unplayed development cards by type, where the viewer may see them.
        dev_cards: Option<DevCards>,
        /// Of those, bought this turn.
        dev_cards_new: Option<DevCards>,
        /// Victory Point cards revealed.
        revealed_vp_cards: Option<u8>,
        /// Development cards played, by type.
        played: DevCards,
        /// Knights played.
        played_knights: u8,
        /// Points everyone can see.
        visible_points: u8,
        /// All points, where the viewer may see them.
        victory_points: Option<u8>,
        /// Longest trail.
        longest_trail: u8,
        /// Settlements.
        settlements: Vec<VertexId>,
        /// Cities.
        cities: Vec<VertexId>,
        /// Roads.
        roads: Vec<EdgeId>,
        /// Pieces left: roads, settlements, cities.
        pieces_left: [u8; 3],
        /// Best bank rate per resource.
        bank_rates: [u8; 5],
    }
}

impl ViewChanges {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.fields_unchanged() && self.players.is_empty()
    }
}

impl View {
    /// What changed from `old` to this view, or `None` when the two are
    /// not views of one game for one viewer (a different viewer, options,
    /// board or number of players): then only the whole view will do.
    pub fn changes_since(&self, old: &View) -> Option<ViewChanges> {
        let (mut changes, same) = ViewChanges::between_fields(old, self);
        if !same || old.players.len() != self.players.len() {
            return None;
        }
        for (old_p, new_p) in old.players.iter().zip(&self.players) {
            let (p, same_seat) = PlayerChanges::between_fields(old_p, new_p);
            if !same_seat {
                return None;
            }
            if !p.fields_unchanged() {
                changes.players.insert(new_p.seat, p);
            }
        }
        Some(changes)
    }

    /// Writes `changes` over this view: applied to the view they were
    /// made from, it gives the view they were made for. A player's changes
    /// for a seat this view does not have are left out.
    pub fn apply(&mut self, changes: &ViewChanges) {
        changes.apply_fields(self);
        for (seat, p) in &changes.players {
            if let Some(player) = self.players.get_mut(seat.index()) {
                p.apply_fields(player);
            }
        }
    }
}
