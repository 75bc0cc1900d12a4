//! Seating people and bots, leaving, and starting the game.

use super::actor::{BotSeat, Human, LobbyActor, Running, Slot};
use super::stored::lobby_meta;
use super::think::server_bot;
use crate::error::Refusal;
use crate::journal::SeatChange;
use crate::settings::clean_name;
use crate::token::TokenHash;
use catan_bots::BotKind;
use catan_core::record::{GameRecord, OpenerRoll, SeatRecord, SeedReveal, random_salt};
use catan_core::{Game, Seat};
use catan_protocol::CloseReason;
use catan_protocol::Code;
use catan_protocol::{LobbyInfo, LobbyStatus};
use catan_store::{StoredGame, format_time};
use chrono::Utc;
use rand::Rng;
use tokio::time::Instant;

fn bot_name(kind: BotKind, seat: Seat) -> String {
    match kind {
        BotKind::Random => format!("Random bot {}", seat.0 + 1),
        BotKind::Easy => format!("Easy bot {}", seat.0 + 1),
        BotKind::Normal => format!("Bot {}", seat.0 + 1),
        BotKind::Hard => format!("Hard bot {}", seat.0 + 1),
    }
}

impl LobbyActor {
    fn require_host(&self, host: &TokenHash) -> Result<(), Refusal> {
        if self.host.matches(host) {
            Ok(())
        } else {
            Err(Refusal::new(
                Code::NotHost,
                "only the lobby's host may do that (use the host token)",
            ))
        }
    }

    fn require_waiting(&self) -> Result<(), Refusal> {
        if self.status() == LobbyStatus::Waiting {
            Ok(())
        } else {
            Err(Refusal::new(
                Code::AlreadyStarted,
                "the game has already started",
            ))
        }
    }

    /// The requested seat if it is free, or the first free seat.
    fn free_seat(&self, wanted: Option<Seat>) -> Result<Seat, Refusal> {
        match wanted {
            Some(s) => match self.seats.get(s.index()) {
                None => Err(Refusal::new(
                    Code::NoSuchSeat,
                    format!("this lobby has seats 0 to {}", self.seats.len() - 1),
                )),
                Some(Slot::Empty) => Ok(s),
                Some(_) => Err(Refusal::new(Code::SeatTaken, format!("{s} is taken"))),
            },
            None => self
                .seats
                .iter()
                .position(|s| matches!(s, Slot::Empty))
                .map(|i| Seat(i as u8))
                .ok_or_else(|| Refusal::new(Code::LobbyFull, "every seat is taken")),
        }
    }

    /// Puts `slot` in `seat` of the waiting room and records the room; on
    /// failure the seat is as it was and the refusal is the journal's.
    async fn seat_in_room(&mut self, seat: Seat, slot: Slot) -> Result<(), Refusal> {
        let before = std::mem::replace(&mut self.seats[seat.index()], slot);
        if let Err(r) = self.save_room().await {
            self.seats[seat.index()] = before;
            return Err(r);
        }
        Ok(())
    }

    pub(super) async fn join(
        &mut self,
        name: String,
        seat: Option<Seat>,
        token: TokenHash,
    ) -> Result<(Seat, LobbyInfo), Refusal> {
        self.require_waiting()?;
        let name = clean_name(&name, "the display name")
            .map_err(|m| Refusal::new(Code::InvalidName, m))?;
        let seat = self.free_seat(seat)?;
        let person = Slot::Human(Human {
            name,
            token,
            away_since: Some(Instant::now()),
        });
        self.seat_in_room(seat, person).await?;
        tracing::info!(seat = seat.0, "player joined");
        self.lobby_changed();
        Ok((seat, self.info()))
    }

    pub(super) async fn leave(&mut self, token: TokenHash) -> Result<LobbyInfo, Refusal> {
        let seat = self.seat_of(&token).ok_or_else(|| {
            Refusal::new(Code::InvalidToken, "no seat in this lobby has that token")
        })?;
        match self.status() {
            LobbyStatus::Waiting => self.seat_in_room(seat, Slot::Empty).await?,
            LobbyStatus::Playing => {
                // A bot takes the seat over so the game can go on.
                let Slot::Human(h) = &self.seats[seat.index()] else {
                    return Err(Refusal::new(Code::Internal, "seat is not a person's"));
                };
                let name = format!("{} (bot)", h.name);
                let occupant = SeatRecord {
                    name: name.clone(),
                    bot: Some(BotKind::Normal.name().to_string()),
                };
                let change = SeatChange {
                    seat,
                    occupant: &occupant,
                    token_hash: None,
                };
                let journal = self.env.journal();
                if let Err(e) = journal.seat_changed(self.id, change).await {
                    tracing::warn!(error = %e, "journal refused a seat change");
                    return Err(storage_unavailable());
                }
                let seed = self.rng.random();
                self.seats[seat.index()] = Slot::Bot(BotSeat {
                    name,
                    kind: BotKind::Normal,
                    bot: server_bot(BotKind::Normal, seed, self.env.config()),
                });
            }
            LobbyStatus::Finished => {
                return Err(Refusal::new(
                    Code::Rules(catan_core::ErrorCode::GameOver),
                    "the game is over",
                ));
            }
        }
        if let Some(conn) = self.conns.seat_conn(seat) {
            self.conns.kick(conn, CloseReason::LEFT);
            self.conns.take_dropped();
        }
        tracing::info!(seat = seat.0, "player left");
        self.lobby_changed();
        self.presence_changed();
        self.schedule_bots();
        Ok(self.info())
    }

    pub(super) async fn add_bot(
        &mut self,
        host: TokenHash,
        kind: BotKind,
        seat: Option<Seat>,
    ) -> Result<(Seat, LobbyInfo), Refusal> {
        self.require_host(&host)?;
        self.require_waiting()?;
        let seat = self.free_seat(seat)?;
        let seed = self.rng.random();
        let bot = Slot::Bot(BotSeat {
            name: bot_name(kind, seat),
            kind,
            bot: server_bot(kind, seed, self.env.config()),
        });
        self.seat_in_room(seat, bot).await?;
        self.lobby_changed();
        // A bot is always present: say so, as a joining person's socket would.
        self.presence_changed();
        Ok((seat, self.info()))
    }

    pub(super) async fn remove_bot(
        &mut self,
        host: TokenHash,
        seat: Seat,
    ) -> Result<LobbyInfo, Refusal> {
        self.require_host(&host)?;
        self.require_waiting()?;
        match self.seats.get(seat.index()) {
            Some(Slot::Bot(_)) => {
                self.seat_in_room(seat, Slot::Empty).await?;
                self.lobby_changed();
                self.presence_changed();
                Ok(self.info())
            }
            Some(_) => Err(Refusal::new(Code::NotABot, format!("{seat} is not a bot"))),
            None => Err(Refusal::new(
                Code::NoSuchSeat,
                format!("there is no {seat}"),
            )),
        }
    }

    /// The game that starts with the seats as they are: its record (with
    /// `seed`) and each seat's token hash, `None` for a bot. Every seat
    /// must be taken.
    fn stored_game(
        &self,
        seed: SeedReveal,
        opener: &catan_core::Event,
    ) -> Result<StoredGame, String> {
        let mut seats = Vec::with_capacity(self.seats.len());
        let mut token_hashes = Vec::with_capacity(self.seats.len());
        for (i, slot) in self.seats.iter().enumerate() {
            let (seat, token_hash) = match slot {
                Slot::Empty => return Err(format!("seat {i} is empty")),
                Slot::Human(h) => (
                    SeatRecord {
                        name: h.name.clone(),
                        bot: None,
                    },
                    Some(h.token.to_hex()),
                ),
                Slot::Bot(b) => (
                    SeatRecord {
                        name: b.name.clone(),
                        bot: Some(b.kind.name().to_string()),
                    },
                    None,
                ),
            };
            seats.push(seat);
            token_hashes.push(token_hash);
        }
        let record = GameRecord::start(
            self.id.to_string(),
            format_time(Utc::now()),
            self.settings.options,
            seats,
            seed,
            OpenerRoll::from_event(opener),
        );
        Ok(StoredGame {
            id: self.id,
            record,
            token_hashes,
            lobby: lobby_meta(&self.settings)?,
        })
    }

    pub(super) async fn start(&mut self, host: TokenHash) -> Result<LobbyInfo, Refusal> {
        self.require_host(&host)?;
        self.require_waiting()?;
        if self.seats.iter().any(|s| matches!(s, Slot::Empty)) {
            return Err(Refusal::new(
                Code::NotReady,
                "every seat needs a player or a bot before the start",
            ));
        }
        // Seed and salt come from the OS-seeded generator (the seed from a
        // test's configuration if it fixes one); only their commitment is
        // published until the game is over.
        let seed: u64 = match self.env.config().game_seed {
            Some(s) => s,
            None => rand::rng().random(),
        };
        let salt = random_salt(&mut rand::rng());
        let (game, opener) = Game::new(self.settings.options, seed)
            .map_err(|e| Refusal::new(Code::InvalidOptions, e.to_string()))?;
        let fairness = SeedReveal { seed, salt };
        let start = self.stored_game(fairness.clone(), &opener).map_err(|e| {
            tracing::error!(error = %e, "cannot make the game's record");
            Refusal::new(Code::Internal, "the game start cannot be recorded")
        })?;
        let journal = self.env.journal();
        if let Err(e) = journal.game_started(&start).await {
            tracing::warn!(error = %e, "journal refused the game start");
            return Err(storage_unavailable());
        }
        self.run = Some(Running {
            game,
            version: 0,
            step_started: Instant::now(),
            fairness,
            sent_views: Default::default(),
        });
        tracing::info!("game started");
        // The game row is what a takeover reads from now on.
        self.close_room().await;
        self.lobby_changed();
        self.broadcast_update(None, false, &[opener]);
        self.update_idle();
        self.schedule_bots();
        Ok(self.info())
    }
}

/// The refusal when the journal cannot record.
pub(super) fn storage_unavailable() -> Refusal {
    Refusal::new(
        Code::StorageUnavailable,
        "the game could not be saved; nothing changed, try again",
    )
}
