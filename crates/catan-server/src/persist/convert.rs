//! Translations between the lobby's journal records and the store's rows:
//! seats (token hashes only), the lobby metadata kept for recovery, and a
//! stored game back into the record `LobbyActor::resume` rebuilds from.

use crate::journal::{GameRecord, GameStart, JournalEntry, SeatOccupant, SeatRecord};
use crate::settings::{LobbySettings, TurnTimer};
use catan_bots::BotKind;
use catan_core::Game;
use catan_core::Seat;
use catan_core::record::{OpenerRoll, RULES_VERSION};
use catan_store::{NewGame, StoredGame, StoredSeat};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// What the store keeps about a lobby besides the game: enough to rebuild it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct LobbyMeta {
    /// The lobby's settings (name, visibility, turn timer, bot delay).
    pub settings: LobbySettings,
}

/// The stored form of one seat.
pub(crate) fn stored_seat(occupant: &SeatOccupant) -> StoredSeat {
    match occupant {
        SeatOccupant::Human { name, token_hash } => StoredSeat {
            name: name.clone(),
            bot: None,
            token_hash: Some(token_hash.clone()),
        },
        SeatOccupant::Bot { name, bot } => StoredSeat {
            name: name.clone(),
            bot: Some(bot_kind_name(*bot)),
            token_hash: None,
        },
    }
}

/// `"normal"`, `"random"`, ...: the bot kind as the protocol spells it.
fn bot_kind_name(kind: BotKind) -> String {
    kind.name().to_string()
}

/// The journal's occupant for a stored seat.
pub(crate) fn occupant(seat: &StoredSeat) -> Result<SeatOccupant, String> {
    match (&seat.bot, &seat.token_hash) {
        (Some(kind), _) => {
            let bot: BotKind = serde_json::from_value(serde_json::Value::String(kind.clone()))
                .map_err(|_| format!("unknown bot kind {kind:?}"))?;
            Ok(SeatOccupant::Bot {
                name: seat.name.clone(),
                bot,
            })
        }
        (None, Some(hash)) => Ok(SeatOccupant::Human {
            name: seat.name.clone(),
            token_hash: hash.clone(),
        }),
        (None, None) => Err(format!(
            "seat {:?} is neither a bot nor a person with a token",
            seat.name
        )),
    }
}

/// Seats by index, as the store keeps them; every seat must be filled.
pub(crate) fn stored_seats(players: u8, seats: &[SeatRecord]) -> Result<Vec<StoredSeat>, String> {
    let mut out: Vec<Option<StoredSeat>> = vec![None; usize::from(players)];
    for s in seats {
        let slot = out
            .get_mut(s.seat.index())
            .ok_or_else(|| format!("{} does not exist in a {players}-player game", s.seat))?;
        *slot = Some(stored_seat(&s.occupant));
    }
    out.into_iter()
        .enumerate()
        .map(|(i, s)| s.ok_or_else(|| format!("seat {i} is empty")))
        .collect()
}

/// The store's new game for a lobby's start.
pub(crate) fn new_game(start: &GameStart, created: DateTime<Utc>) -> Result<NewGame, String> {
    let options = start.settings.options;
    // Game::new is deterministic in the seed: this is the very roll the
    // lobby's game made, recorded so that `catan verify` can check it.
    let opener = Game::new(options, start.seed)
        .ok()
        .and_then(|(_, e)| OpenerRoll::from_event(&e));
    let lobby = serde_json::to_value(LobbyMeta {
        settings: start.settings.clone(),
    })
    .map_err(|e| e.to_string())?;
    Ok(NewGame {
        id: start.lobby_id,
        created,
        options,
        rules_version: RULES_VERSION.to_string(),
        seed: start.seed,
        salt: start.salt.clone(),
        seats: stored_seats(options.players, &start.seats)?,
        opener,
        lobby,
    })
}

/// Settings for a stored game whose lobby metadata is missing or unreadable
/// (written by another tool): a private lobby with default timers.
fn fallback_settings(stored: &StoredGame, bot_delay_ms: u64) -> LobbySettings {
    LobbySettings {
        name: "Recovered game".into(),
        public: false,
        options: stored.record.options,
        turn_timer: TurnTimer::default(),
        bot_delay_ms,
    }
}

/// The journal record `LobbyActor::resume` rebuilds a lobby from.
pub(crate) fn journal_record(stored: &StoredGame, bot_delay_ms: u64) -> Result<GameRecord, String> {
    let lobby_id = Uuid::parse_str(&stored.record.game_id)
        .map_err(|e| format!("game id {:?}: {e}", stored.record.game_id))?;
    let reveal = stored
        .record
        .seed
        .clone()
        .ok_or("the store returned no seed for a game it must resume")?;
    let settings = serde_json::from_value::<LobbyMeta>(stored.lobby.clone())
        .map(|m| m.settings)
        .unwrap_or_else(|_| fallback_settings(stored, bot_delay_ms));
    let seats = stored
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let seat = Seat(u8::try_from(i).map_err(|_| "too many seats".to_string())?);
            Ok(SeatRecord {
                seat,
                occupant: occupant(s)?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let is_bot = |seat: Seat| {
        stored
            .seats
            .get(seat.index())
            .is_some_and(|s| s.bot.is_some())
    };
    let entries = stored
        .record
        .actions
        .iter()
        .map(|a| JournalEntry {
            lobby_id,
            seq: a.seq,
            seat: a.seat,
            action: a.action,
            outcome: a.outcome,
            stand_in: a.stand_in,
            // Who sat in a seat at the time is not stored; the current
            // occupant is the best guess, and nothing depends on it.
            bot: is_bot(a.seat) && !a.stand_in,
        })
        .collect();
    Ok(GameRecord {
        start: GameStart {
            lobby_id,
            settings,
            seed: reveal.seed,
            salt: reveal.salt,
            seats,
        },
        entries,
        result: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use catan_core::GameOptions;

    fn start() -> GameStart {
        GameStart {
            lobby_id: Uuid::new_v4(),
            settings: LobbySettings {
                name: "t".into(),
                public: true,
                options: GameOptions {
                    players: 3,
                    ..GameOptions::default()
                },
                turn_timer: TurnTimer::default(),
                bot_delay_ms: 5,
            },
            seed: 77,
            salt: "abc".into(),
            seats: vec![
                SeatRecord {
                    seat: Seat(2),
                    occupant: SeatOccupant::Bot {
                        name: "B".into(),
                        bot: BotKind::Random,
                    },
                },
                SeatRecord {
                    seat: Seat(0),
                    occupant: SeatOccupant::Human {
                        name: "Ann".into(),
                        token_hash: "ab".repeat(32),
                    },
                },
                SeatRecord {
                    seat: Seat(1),
                    occupant: SeatOccupant::Bot {
                        name: "H".into(),
                        bot: BotKind::Normal,
                    },
                },
            ],
        }
    }

    #[test]
    fn new_game_orders_seats_and_records_the_opener() {
        let g = new_game(&start(), Utc::now()).unwrap();
        assert_eq!(
            g.seats[0].token_hash.as_deref(),
            Some("ab".repeat(32).as_str())
        );
        assert_eq!(g.seats[1].bot.as_deref(), Some("normal"));
        assert_eq!(g.seats[2].bot.as_deref(), Some("random"));
        assert!(g.opener.is_some());
        assert_eq!(g.commitment(), catan_core::record::commitment(77, "abc"));
    }

    #[test]
    fn an_empty_seat_cannot_be_stored() {
        let mut s = start();
        s.seats.pop();
        assert!(new_game(&s, Utc::now()).is_err());
    }

    #[test]
    fn occupants_round_trip_through_stored_seats() {
        for s in start().seats {
            assert_eq!(occupant(&stored_seat(&s.occupant)).unwrap(), s.occupant);
        }
        let bad = StoredSeat {
            name: "x".into(),
            bot: None,
            token_hash: None,
        };
        assert!(occupant(&bad).is_err());
    }

    #[test]
    fn games_saved_before_difficulty_levels_load_their_heuristic_bots_as_normal() {
        let old = StoredSeat {
            name: "Bot 2".into(),
            bot: Some("heuristic".into()),
            token_hash: None,
        };
        assert_eq!(
            occupant(&old).unwrap(),
            SeatOccupant::Bot {
                name: "Bot 2".into(),
                bot: BotKind::Normal
            }
        );
        let unknown = StoredSeat {
            bot: Some("grandmaster".into()),
            ..old
        };
        assert!(occupant(&unknown).is_err());
    }
}
