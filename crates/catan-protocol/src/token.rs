//! A secret bearer token as a client presents it ([`Token`]): the seat
//! token in `hello`, the host and seat tokens of the HTTP API.
//!
//! `Debug` prints nothing secret, so that a stray `?token` in a log line
//! cannot leak it. Minting and hashing tokens is the server's business.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A secret bearer token as the client presents it.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct Token(String);

impl Token {
    /// Wraps a token's text (received from a client, or freshly minted).
    pub fn from_client(s: impl Into<String>) -> Token {
        Token(s.into())
    }

    /// The secret text, for the one response that hands it out.
    pub fn reveal(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_the_token() {
        let t = Token::from_client("s3cret");
        assert!(!format!("{t:?}").contains("s3cret"));
    }
}
