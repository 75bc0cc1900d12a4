//! Start-up recovery: every game the store still lists as in progress is
//! rebuilt from its log and its lobby resumed, so that players reconnect
//! with their seat tokens (the store keeps only their hashes) and play on.

use super::convert::journal_record;
use super::store_journal::finish_stored;
use crate::lobby::info::LobbyStatus;
use crate::registry::Registry;
use catan_core::record::RULES_VERSION;
use catan_store::{Store, StoreError};
use uuid::Uuid;

/// What recovery did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecoveryReport {
    /// Lobbies resumed, by id.
    pub resumed: Vec<Uuid>,
    /// Games whose last action had ended them but whose end was not
    /// recorded; now marked finished.
    pub finished: Vec<Uuid>,
    /// Games that could not be rebuilt, with why; left untouched in the store.
    pub failed: Vec<(String, String)>,
}

/// Resumes every unfinished game in `store` into `registry`.
///
/// A game that cannot be rebuilt (a log this build does not replay, a
/// corrupt seat) is logged and left as it is rather than abandoned, so that
/// a fixed build can still resume it.
pub async fn recover(registry: &Registry, store: &Store) -> Result<RecoveryReport, StoreError> {
    let mut report = RecoveryReport::default();
    let bot_delay = registry.config().bot_delay_ms;
    for stored in store.unfinished_games().await? {
        let id = stored.record.game_id.clone();
        if stored.record.rules_version != RULES_VERSION {
            let why = format!(
                "played under rules version {:?}, this build is {RULES_VERSION:?}",
                stored.record.rules_version
            );
            tracing::error!(game_id = %id, %why, "cannot resume game");
            report.failed.push((id, why));
            continue;
        }
        let record = match journal_record(&stored, bot_delay) {
            Ok(r) => r,
            Err(why) => {
                tracing::error!(game_id = %id, %why, "cannot resume game");
                report.failed.push((id, why));
                continue;
            }
        };
        let lobby_id = record.start.lobby_id;
        match registry.resume(&record) {
            Ok(handle) => {
                let over = handle
                    .info()
                    .await
                    .is_ok_and(|i| i.status == LobbyStatus::Finished);
                if over {
                    // The server stopped between storing the winning action
                    // and storing the result: record the result now. The
                    // lobby stays so that its players can see the end.
                    match finish_stored(store, &stored.record).await {
                        Ok(()) => report.finished.push(lobby_id),
                        Err(e) => {
                            tracing::error!(game_id = %id, error = %e, "cannot record the end");
                            report.failed.push((id.clone(), e.to_string()));
                        }
                    }
                } else {
                    report.resumed.push(lobby_id);
                }
                tracing::info!(
                    game_id = %id,
                    actions = record.entries.len(),
                    finished = over,
                    "game recovered"
                );
            }
            Err(e) => {
                tracing::error!(game_id = %id, error = %e, "cannot resume game");
                report.failed.push((id, e.to_string()));
            }
        }
    }
    Ok(report)
}
