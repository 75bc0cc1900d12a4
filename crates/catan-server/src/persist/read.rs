//! Reading saved games from the store for the HTTP endpoints, with the
//! refusals a client gets when there is no store or it cannot answer
//! (shared by `saved` and `steps`).

use crate::error::Refusal;
use crate::state::AppState;
use catan_core::record::GameRecord;
use catan_protocol::Code;
use catan_store::{Store, StoreError};
use uuid::Uuid;

/// The server's store, or the refusal for a server that keeps no games.
pub(super) fn store(st: &AppState) -> Result<&Store, Refusal> {
    st.store.as_ref().ok_or_else(|| {
        Refusal::new(
            Code::StorageUnavailable,
            "this server keeps no saved games (it runs without a database)",
        )
    })
}

/// The refusal for a store error: unavailable (try again) or internal.
pub(super) fn store_refusal(e: StoreError) -> Refusal {
    if e.is_unavailable() {
        tracing::warn!(error = %e, "saved games: database unavailable");
        Refusal::new(
            Code::StorageUnavailable,
            "saved games cannot be read right now; try again",
        )
    } else {
        tracing::error!(error = %e, "saved games: store error");
        Refusal::new(Code::Internal, "saved games cannot be read")
    }
}

/// One game's public record from the store, if it exists.
pub async fn store_for(st: &AppState, id: Uuid) -> Result<Option<GameRecord>, Refusal> {
    store(st)?.get_record(id).await.map_err(store_refusal)
}
