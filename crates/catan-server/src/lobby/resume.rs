//! Rebuilding a lobby from its journal record: settings, seed, seats and the
//! actions in order. Used to resume unfinished games after a restart.

use super::LobbyHandle;
use super::actor::{BotSeat, Human, LobbyActor, Running, Slot};
use super::env::LobbyEnv;
use super::think::server_bot;
use crate::journal::{GameRecord, SeatOccupant};
use crate::token::{Token, TokenHash};
use catan_core::Game;
use catan_core::record::SeedReveal;
use rand::Rng;
use tokio::time::Instant;

/// Why a record could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot resume lobby: {0}")]
pub struct ResumeError(pub String);

impl LobbyActor {
    /// A lobby rebuilt from `record`: the game replayed action by action.
    /// Nobody is host any more (the game has started); seated players
    /// reconnect with their seat tokens.
    pub fn resume(
        record: &GameRecord,
        env: LobbyEnv,
    ) -> Result<(LobbyActor, LobbyHandle), ResumeError> {
        let start = &record.start;
        let (mut game, opening) = Game::new(start.settings.options, start.seed)
            .map_err(|e| ResumeError(e.to_string()))?;
        // The log viewers get on connecting, rebuilt as it was broadcast.
        let mut history = super::history::History::default();
        history.push(0, None, false, &[opening]);
        for (i, e) in record.entries.iter().enumerate() {
            if e.seq != i as u64 + 1 {
                return Err(ResumeError(format!(
                    "entry {} has seq {}, expected {}",
                    i,
                    e.seq,
                    i + 1
                )));
            }
            let events = game
                .apply(e.seat, e.action)
                .map_err(|err| ResumeError(format!("action {} refused on replay: {err}", e.seq)))?;
            history.push(e.seq, Some(e.seat), e.stand_in, &events);
        }
        // An unknowable host: nobody holds a token hashing to this.
        let host: TokenHash = Token::generate().hash();
        let (mut actor, handle) =
            LobbyActor::new(start.lobby_id, start.settings.clone(), host, env);
        for s in &start.seats {
            let slot = match &s.occupant {
                SeatOccupant::Human { name, token_hash } => Slot::Human(Human {
                    name: name.clone(),
                    token: TokenHash::from_hex(token_hash)
                        .ok_or_else(|| ResumeError(format!("bad token hash for {}", s.seat)))?,
                    away_since: Some(Instant::now()),
                }),
                SeatOccupant::Bot { name, bot } => Slot::Bot(BotSeat {
                    name: name.clone(),
                    kind: *bot,
                    bot: server_bot(*bot, actor.rng.random(), actor.env.config()),
                }),
            };
            let Some(target) = actor.seats.get_mut(s.seat.index()) else {
                return Err(ResumeError(format!("{} does not exist", s.seat)));
            };
            *target = slot;
        }
        actor.run = Some(Running {
            game,
            version: record.entries.len() as u64,
            step_started: Instant::now(),
            fairness: SeedReveal {
                seed: start.seed,
                salt: start.salt.clone(),
            },
        });
        actor.history = history;
        actor.update_idle();
        actor.publish();
        Ok((actor, handle))
    }
}
