//! The one translation left between a lobby and its stored game: the
//! lobby's settings (name, visibility, turn timer, bot delay) travel as the
//! store's free-form lobby metadata, since the store knows nothing of
//! lobbies. Everything else a lobby records is the core game record itself
//! (`catan_core::record`: seats, seed, actions, result) plus the seats'
//! token hashes (`catan_store::StoredGame`); a bot seat's kind is the text
//! `BotKind::name` writes and `BotKind::from_str` reads. A cluster also
//! keeps each waiting room ([`StoredRoom`]) until its game starts.

use crate::settings::LobbySettings;
use catan_bots::BotKind;
use catan_protocol::TurnTimer;
use catan_store::StoredGame;
use serde::{Deserialize, Serialize};

/// A waiting room as a cluster stores it (`lobby::room`): what another
/// node needs to rebuild the room. Token hashes only, never tokens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct StoredRoom {
    /// The lobby's settings.
    pub settings: LobbySettings,
    /// The host token's hash (hex).
    pub host: String,
    /// Who sits where, by seat.
    pub seats: Vec<StoredSeat>,
}

/// One seat of a [`StoredRoom`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum StoredSeat {
    /// Free.
    Empty,
    /// A person, known by their seat token's hash (hex).
    Person { name: String, token_hash: String },
    /// A bot of this kind (a new one of the same kind is seated on restore).
    Bot { name: String, bot: BotKind },
}

/// What the store keeps about a lobby besides the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct LobbyMeta {
    /// The lobby's settings.
    settings: LobbySettings,
}

/// The lobby metadata to store for a lobby with `settings`.
pub(crate) fn lobby_meta(settings: &LobbySettings) -> Result<serde_json::Value, String> {
    serde_json::to_value(LobbyMeta {
        settings: settings.clone(),
    })
    .map_err(|e| e.to_string())
}

/// The settings of a stored game's lobby. A game whose lobby metadata is
/// missing or unreadable (written by another tool) becomes a private lobby
/// named "Recovered game" with default timers and `bot_delay_ms`: the game
/// itself does not depend on them. The game options are always the
/// record's, since the game is replayed with those.
pub(crate) fn lobby_settings(stored: &StoredGame, bot_delay_ms: u64) -> LobbySettings {
    serde_json::from_value::<LobbyMeta>(stored.lobby.clone())
        .map(|m| LobbySettings {
            options: stored.record.options,
            ..m.settings
        })
        .unwrap_or_else(|_| LobbySettings {
            name: "Recovered game".into(),
            public: false,
            options: stored.record.options,
            turn_timer: TurnTimer::default(),
            bot_delay_ms,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use catan_core::GameOptions;
    use catan_core::record::{GameRecord, SeedReveal};

    fn stored(lobby: serde_json::Value) -> StoredGame {
        let options = GameOptions {
            players: 3,
            ..GameOptions::default()
        };
        let reveal = SeedReveal {
            seed: 77,
            salt: "abc".into(),
        };
        let id = uuid::Uuid::new_v4().to_string();
        let record = GameRecord::start(id, "t".into(), options, vec![], reveal, None);
        StoredGame::start(record, vec![], lobby).unwrap()
    }

    #[test]
    fn settings_come_back_from_the_lobby_metadata() {
        let settings = LobbySettings {
            name: "t".into(),
            public: true,
            options: GameOptions {
                players: 3,
                ..GameOptions::default()
            },
            turn_timer: TurnTimer::default(),
            bot_delay_ms: 5,
        };
        let mut g = stored(lobby_meta(&settings).unwrap());
        assert_eq!(lobby_settings(&g, 999), settings);
        // The record's options win over metadata that says otherwise.
        g.record.options.vp_target = 8;
        assert_eq!(lobby_settings(&g, 999).options, g.record.options);
    }

    #[test]
    fn unreadable_metadata_gives_a_private_lobby_with_the_games_options() {
        let g = stored(serde_json::json!({ "written_by": "another tool" }));
        let s = lobby_settings(&g, 123);
        assert!(!s.public);
        assert_eq!(s.options, g.record.options);
        assert_eq!(s.bot_delay_ms, 123);
    }
}
