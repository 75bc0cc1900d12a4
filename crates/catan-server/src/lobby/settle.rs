//! Actions whose append is in doubt, and how the lobby settles them.
//!
//! An append that does not answer within the journal deadline (or whose
//! connection broke on the way) may still commit after the lobby gave up on
//! it. The lobby must never differ from its log, so it neither forgets the
//! action (the log might hold it: the next action would then collide with
//! its seq, and the log and the game would disagree) nor writes the next
//! one after it (a gap if it was not stored). Instead:
//!
//! 1. The requester is answered `storage_unavailable` at the deadline; the
//!    game stays as it was and nobody hears of the action.
//! 2. The lobby keeps the action (the game after it and its events) as
//!    *in doubt* and refuses every other action with `storage_unavailable`
//!    until it is settled; chat, resync, joins and connections go on, and
//!    other lobbies are not affected.
//! 3. A task off the actor asks the journal to settle it
//!    ([`crate::journal::Journal::settle`]: record it unless its seq is
//!    taken, then check that the seq holds exactly this action), retrying
//!    while the database does not answer.
//! 4. Once it is recorded the lobby adopts it: it becomes the game and
//!    everyone gets its `update`, just as if the append had answered in time
//!    (the requester learns from that update that its action was applied).
//!    Only if the journal says it will never be recorded (another action
//!    holds the seq, the game is gone) is it dropped, and the game stays.
//!
//! So the log never has a gap and holds no action the lobby does not, and
//! an action acknowledged with `accepted` is always in the log.

use super::actor::LobbyActor;
use super::play::Actor;
use catan_core::record::RecordedAction;
use catan_core::{Event, Game, Seat};
use std::time::Duration;
use tokio::sync::mpsc;

/// How long the settling task waits between attempts while the database
/// does not answer.
const RETRY_EVERY: Duration = Duration::from_millis(500);

/// An action whose append is in doubt, with what applying it produced.
pub(super) struct InDoubt {
    pub entry: RecordedAction,
    pub seat: Seat,
    pub by: Actor,
    pub next: Game,
    pub events: Vec<Event>,
}

/// What settling found.
pub(super) struct Settled {
    seq: u64,
    /// `None`: recorded. `Some(why)`: it never will be.
    dropped: Option<String>,
}

/// The actor's end of settling: the action in doubt, if any, and the
/// channel its outcome comes back on.
pub(super) struct Settling {
    pending: Option<InDoubt>,
    tx: mpsc::UnboundedSender<Settled>,
    rx: mpsc::UnboundedReceiver<Settled>,
}

impl Default for Settling {
    fn default() -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        Settling {
            pending: None,
            tx,
            rx,
        }
    }
}

impl Settling {
    /// Whether an action is in doubt (then the lobby takes no other).
    pub(super) fn busy(&self) -> bool {
        self.pending.is_some()
    }

    /// The next outcome (never ends: the actor holds a sender).
    pub(super) async fn next(&mut self) -> Option<Settled> {
        self.rx.recv().await
    }
}

impl LobbyActor {
    /// Holds `doubt` and starts settling it off the actor.
    pub(super) fn settle_later(&mut self, doubt: InDoubt) {
        let journal = self.env.journal();
        let lobby_id = self.id;
        let entry = doubt.entry.clone();
        let tx = self.settling.tx.clone();
        tracing::warn!(
            seq = entry.seq,
            "append in doubt; settling it before the next action"
        );
        self.settling.pending = Some(doubt);
        crate::metrics::metrics().journal_in_doubt.inc();
        tokio::spawn(async move {
            let dropped = loop {
                match journal.settle(lobby_id, &entry).await {
                    Ok(()) => break None,
                    Err(e) if e.in_doubt => {
                        tracing::debug!(seq = entry.seq, error = %e, "still in doubt");
                        tokio::time::sleep(RETRY_EVERY).await;
                    }
                    Err(e) => break Some(e.message),
                }
            };
            // The lobby may be gone; then there is nobody to tell.
            let _ = tx.send(Settled {
                seq: entry.seq,
                dropped,
            });
        });
    }

    /// Adopts or drops the action in doubt, as settling found.
    pub(super) async fn on_settled(&mut self, settled: Settled) {
        let Some(doubt) = self
            .settling
            .pending
            .take_if(|d| d.entry.seq == settled.seq)
        else {
            return;
        };
        match settled.dropped {
            None => {
                tracing::info!(seq = settled.seq, "action in doubt was recorded; adopted");
                self.adopt(
                    doubt.seat,
                    doubt.by,
                    doubt.entry.seq,
                    doubt.next,
                    &doubt.events,
                    None,
                )
                .await;
            }
            Some(why) => {
                tracing::error!(seq = settled.seq, reason = %why, "action in doubt dropped");
                crate::metrics::metrics().journal_in_doubt_dropped.inc();
                self.schedule_bots();
            }
        }
        self.after_sends();
    }
}
