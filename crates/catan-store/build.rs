//! Rebuilds the crate when a migration is added or changed: `sqlx::migrate!`
//! embeds the migration files at compile time, and on stable Rust it cannot
//! tell Cargo to watch them itself.

fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
