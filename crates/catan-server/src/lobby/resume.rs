//! Rebuilding a lobby from its stored game: the record replayed through
//! `catan_core::record::Replay`, every recorded outcome (the roll for the
//! opener, dice, drawn and stolen cards) checked against the one the seed
//! gives, then the seats and settings put back. Used to resume unfinished
//! games after a restart, an idle unload or a takeover by another node.

use super::LobbyHandle;
use super::actor::{BotSeat, Human, LobbyActor, Running, Slot};
use super::env::LobbyEnv;
use super::history::History;
use super::stored::lobby_settings;
use super::think::server_bot;
use crate::token::{TokenHash, TokenSecret};
use catan_bots::BotKind;
use catan_core::record::{OpenerRoll, Replay, SeatRecord};
use catan_protocol::Token;
use catan_store::StoredGame;
use rand::Rng;
use tokio::time::Instant;

/// Why a stored game could not be resumed; the message names the game and,
/// for a record that does not replay, the action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot resume lobby: {0}")]
pub struct ResumeError(pub String);

impl LobbyActor {
    /// A lobby rebuilt from `stored`. Refused when the record does not
    /// replay exactly as recorded: an action the rules refuse, or an outcome
    /// that differs from the seed's (a record altered or written by another
    /// engine, whose later states cannot be trusted). Nobody is host any
    /// more (the game has started); seated players reconnect with their
    /// seat tokens.
    pub fn resume(
        stored: &StoredGame,
        env: LobbyEnv,
    ) -> Result<(LobbyActor, LobbyHandle), ResumeError> {
        let id = stored.id;
        let fail = |why: String| ResumeError(format!("game {id}: {why}"));
        let (game, history) = replayed(stored).map_err(fail)?;
        let fairness = stored
            .record
            .seed
            .clone()
            .ok_or_else(|| fail("the stored game has no seed".into()))?;
        let settings = lobby_settings(stored, env.config().bot_delay_ms);
        // An unknowable host: nobody holds a token hashing to this.
        let host: TokenHash = Token::generate().hash();
        let (mut actor, handle) = LobbyActor::new(id, settings, host, env);
        if stored.record.seats.len() != actor.seats.len() {
            return Err(fail(format!(
                "{} seats recorded for a {}-player game",
                stored.record.seats.len(),
                actor.seats.len()
            )));
        }
        for (i, seat) in stored.record.seats.iter().enumerate() {
            let token_hash = stored.token_hashes.get(i).and_then(Option::as_deref);
            actor.seats[i] =
                match occupant(seat, token_hash).map_err(|e| fail(format!("seat {i}: {e}")))? {
                    Occupant::Bot(kind) => Slot::Bot(BotSeat {
                        name: seat.name.clone(),
                        kind,
                        bot: server_bot(kind, actor.rng.random(), actor.env.config()),
                    }),
                    Occupant::Human(token) => Slot::Human(Human {
                        name: seat.name.clone(),
                        token,
                        away_since: Some(Instant::now()),
                    }),
                };
        }
        actor.run = Some(Running {
            game,
            version: stored.record.actions.len() as u64,
            step_started: Instant::now(),
            fairness,
            sent_views: Default::default(),
        });
        actor.history = history;
        actor.update_idle();
        actor.publish();
        Ok((actor, handle))
    }
}

/// Who sits in a stored seat.
#[derive(Debug, PartialEq)]
enum Occupant {
    /// A bot of this kind.
    Bot(BotKind),
    /// A person, known by their seat token's hash.
    Human(TokenHash),
}

/// The occupant of a stored seat: a bot by its kind's name (games saved
/// before the difficulty levels name theirs `heuristic`, now `normal`), a
/// person by the hash of their token.
fn occupant(seat: &SeatRecord, token_hash: Option<&str>) -> Result<Occupant, String> {
    match (&seat.bot, token_hash) {
        (Some(kind), _) => kind.parse().map(Occupant::Bot),
        (None, Some(hash)) => TokenHash::from_hex(hash)
            .map(Occupant::Human)
            .ok_or_else(|| "bad token hash".to_string()),
        (None, None) => Err(format!(
            "{:?} is neither a bot nor a person with a token",
            seat.name
        )),
    }
}

/// The game after every recorded action, and the log viewers get on
/// connecting, rebuilt as it was broadcast; an error names the first
/// action (by seq) that does not replay as recorded.
fn replayed(stored: &StoredGame) -> Result<(catan_core::Game, History), String> {
    let record = &stored.record;
    let mut replay = Replay::new(record).map_err(|e| e.to_string())?;
    if let Some(recorded) = &record.opener
        && OpenerRoll::from_event(replay.opener_event()).as_ref() != Some(recorded)
    {
        return Err("the recorded roll for the opener differs from the seed's".into());
    }
    let mut history = History::default();
    history.push(0, None, false, &[replay.opener_event().clone()]);
    while let Some(step) = replay.step() {
        let step = step.map_err(|e| e.to_string())?;
        step.check_outcome().map_err(|e| e.to_string())?;
        let a = &step.recorded;
        history.push(a.seq, Some(a.seat), a.stand_in, &step.events);
    }
    let game = replay.finish().map_err(|e| e.to_string())?;
    Ok((game, history))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(bot: Option<&str>) -> SeatRecord {
        SeatRecord {
            name: "Bot 2".into(),
            bot: bot.map(str::to_string),
        }
    }

    #[test]
    fn games_saved_before_difficulty_levels_load_their_heuristic_bots_as_normal() {
        assert_eq!(
            occupant(&seat(Some("heuristic")), None),
            Ok(Occupant::Bot(BotKind::Normal))
        );
        assert!(occupant(&seat(Some("grandmaster")), None).is_err());
    }

    #[test]
    fn a_person_needs_a_well_formed_token_hash() {
        let hash = Token::generate().hash();
        assert_eq!(
            occupant(&seat(None), Some(&hash.to_hex())),
            Ok(Occupant::Human(hash))
        );
        assert!(occupant(&seat(None), Some("not hex")).is_err());
        assert!(occupant(&seat(None), None).is_err());
    }
}
