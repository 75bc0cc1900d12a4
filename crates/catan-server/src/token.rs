//! Secret tokens (seat and host): random, shown once, kept only as SHA-256.
//!
//! The server never stores or logs a token itself; it keeps the hash and
//! compares hashes. `Debug` and `Display` of [`Token`] print nothing secret so
//! that a stray `?token` in a log line cannot leak it.

use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;

/// A secret bearer token as the client presents it.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct Token(String);

impl Token {
    /// A fresh random token: 32 bytes from the OS-seeded CSPRNG, hex encoded.
    pub fn generate() -> Token {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        Token(hex::encode(bytes))
    }

    /// Wraps a token received from a client.
    pub fn from_client(s: impl Into<String>) -> Token {
        Token(s.into())
    }

    /// The secret text, for the one response that hands it out.
    pub fn reveal(&self) -> &str {
        &self.0
    }

    /// Its SHA-256 hash, the only form the server keeps.
    pub fn hash(&self) -> TokenHash {
        TokenHash(Sha256::digest(self.0.as_bytes()).into())
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(<redacted>)")
    }
}

/// The SHA-256 of a token.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TokenHash(pub [u8; 32]);

impl TokenHash {
    /// Compares in time independent of where the hashes differ, so response
    /// timing tells an attacker nothing about a guessed token.
    pub fn matches(&self, other: &TokenHash) -> bool {
        self.0
            .iter()
            .zip(other.0.iter())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
    }

    /// Lower-case hex, for storage.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// Parses the hex form written by [`TokenHash::to_hex`].
    pub fn from_hex(s: &str) -> Option<TokenHash> {
        let v = hex::decode(s).ok()?;
        let arr: [u8; 32] = v.try_into().ok()?;
        Some(TokenHash(arr))
    }
}

impl fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A prefix is enough to tell hashes apart in a debugger.
        write!(f, "TokenHash({}..)", &self.to_hex()[..8])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_hash_stably() {
        let a = Token::generate();
        let b = Token::generate();
        assert_ne!(a.reveal(), b.reveal());
        assert_eq!(a.reveal().len(), 64);
        assert!(a.hash().matches(&Token::from_client(a.reveal()).hash()));
        assert!(!a.hash().matches(&b.hash()));
    }

    #[test]
    fn debug_never_shows_the_token() {
        let t = Token::generate();
        assert!(!format!("{t:?}").contains(t.reveal()));
    }

    #[test]
    fn hash_hex_round_trips() {
        let h = Token::generate().hash();
        assert_eq!(TokenHash::from_hex(&h.to_hex()), Some(h));
        assert_eq!(TokenHash::from_hex("zz"), None);
    }
}
