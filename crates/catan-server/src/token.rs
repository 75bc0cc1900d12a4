//! Secret tokens (seat and host): random, shown once, kept only as SHA-256.
//!
//! The server never stores or logs a token itself; it keeps the hash and
//! compares hashes. The token's wire form, whose `Debug` prints nothing
//! secret, is the protocol crate's [`Token`].

use catan_protocol::Token;
use rand::RngCore;
use sha2::{Digest, Sha256};
use std::fmt;

/// What the server alone does with a [`Token`]: mint one and hash it (the
/// protocol crate has the token's wire form only).
pub trait TokenSecret {
    /// A fresh random token: 32 bytes from the OS-seeded CSPRNG, hex encoded.
    fn generate() -> Self;
    /// Its SHA-256 hash, the only form the server keeps.
    fn hash(&self) -> TokenHash;
}

impl TokenSecret for Token {
    fn generate() -> Token {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        Token::from_client(hex::encode(bytes))
    }

    fn hash(&self) -> TokenHash {
        TokenHash(Sha256::digest(self.reveal().as_bytes()).into())
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
