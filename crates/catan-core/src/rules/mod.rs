//! The rules, one file per family: opening and building, production and the
//! robber, development cards, trading, awards.

pub mod awards;
pub mod building;
pub mod devcards;
pub mod production;
pub mod trade;
