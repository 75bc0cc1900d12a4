//! What a lobby's creator chooses: the game's options, the turn timer, the
//! bot pace, the name and whether it is listed, with their checks. The
//! journal records them and the lobby serves them, so they live beside both
//! rather than inside either.

use crate::error::Refusal;
use catan_core::GameOptions;
use catan_protocol::Code;
use catan_protocol::{MAX_TURN_SECONDS, TurnTimer};
use serde::{Deserialize, Serialize};

/// Longest lobby or display name, in characters.
pub const MAX_NAME_CHARS: usize = 40;
/// Longest bot delay, in milliseconds.
pub const MAX_BOT_DELAY_MS: u64 = 10_000;

/// Everything chosen when a lobby is created.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LobbySettings {
    /// Shown in the lobby list.
    pub name: String,
    /// Listed publicly (otherwise reachable by link only).
    pub public: bool,
    /// The game's options.
    pub options: GameOptions,
    /// The turn timer.
    pub turn_timer: TurnTimer,
    /// How long bots wait before acting.
    pub bot_delay_ms: u64,
}

/// Checks and tidies a lobby or display name.
pub fn clean_name(raw: &str, what: &str) -> Result<String, String> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(format!("{what} must not be empty"));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(format!("{what} is longer than {MAX_NAME_CHARS} characters"));
    }
    if name.chars().any(char::is_control) {
        return Err(format!("{what} must not contain control characters"));
    }
    Ok(name.to_string())
}

impl LobbySettings {
    /// Checks the settings a client asked for: `invalid_name` for the name,
    /// `invalid_options` for the rest.
    pub fn validate(&mut self) -> Result<(), Refusal> {
        self.name = clean_name(&self.name, "the lobby name")
            .map_err(|m| Refusal::new(Code::InvalidName, m))?;
        self.validate_options()
            .map_err(|m| Refusal::new(Code::InvalidOptions, m))
    }

    fn validate_options(&self) -> Result<(), String> {
        self.options.validate()?;
        if self.turn_timer.seconds == 0 || self.turn_timer.seconds > MAX_TURN_SECONDS {
            return Err(format!(
                "turn_timer.seconds must be between 1 and {MAX_TURN_SECONDS}"
            ));
        }
        if self.bot_delay_ms > MAX_BOT_DELAY_MS {
            return Err(format!("bot_delay_ms must be at most {MAX_BOT_DELAY_MS}"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(clean_name("  Ann ", "name").unwrap(), "Ann");
        assert!(clean_name("   ", "name").is_err());
        assert!(clean_name(&"x".repeat(41), "name").is_err());
        assert!(clean_name("a\u{7}b", "name").is_err());
    }

    #[test]
    fn settings_validation_refuses_bad_values() {
        let mut s = LobbySettings {
            name: "g".into(),
            public: true,
            options: GameOptions::default(),
            turn_timer: TurnTimer::default(),
            bot_delay_ms: 0,
        };
        assert!(s.validate().is_ok());
        s.options.players = 5;
        assert!(s.validate().is_err());
        s.options.players = 3;
        s.turn_timer.seconds = 0;
        assert!(s.validate().is_err());
        s.turn_timer.seconds = 30;
        s.bot_delay_ms = 60_000;
        assert_eq!(s.validate().unwrap_err().code, Code::InvalidOptions);
        s.bot_delay_ms = 0;
        s.name = " \t ".into();
        assert_eq!(s.validate().unwrap_err().code, Code::InvalidName);
    }
}
