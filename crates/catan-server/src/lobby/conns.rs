//! The lobby's open connections and how messages reach them.
//!
//! Every send is a `try_send` into the connection's bounded queue: the actor
//! never waits for a socket. A connection whose queue is full is told to
//! close (it resyncs when it reconnects) and forgotten.

use super::{CloseOrder, ConnId};
use crate::token::TokenHash;
use axum::extract::ws::Utf8Bytes;
use catan_core::{Seat, Viewer};
use catan_protocol::CloseReason;
use catan_protocol::{ServerMsg, UpdateView};
use std::collections::{BTreeMap, HashMap};
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::{mpsc, oneshot};

/// One open connection.
pub(super) struct Conn {
    /// Whose eyes it sees through.
    pub viewer: Viewer,
    /// How its updates give the view (its protocol version's choice).
    update_view: UpdateView,
    /// The token hash it authenticated with (seats only).
    pub token: Option<TokenHash>,
    tx: mpsc::Sender<Utf8Bytes>,
    close: Option<oneshot::Sender<CloseOrder>>,
}

/// All open connections of a lobby.
#[derive(Default)]
pub(super) struct Conns {
    map: BTreeMap<ConnId, Conn>,
    /// Viewers of connections dropped since the last [`Conns::take_dropped`].
    dropped: Vec<Viewer>,
}

impl Conns {
    pub fn insert(
        &mut self,
        id: ConnId,
        viewer: Viewer,
        protocol: u32,
        token: Option<TokenHash>,
        tx: mpsc::Sender<Utf8Bytes>,
        close: oneshot::Sender<CloseOrder>,
    ) {
        self.map.insert(
            id,
            Conn {
                viewer,
                update_view: UpdateView::for_protocol(protocol),
                token,
                tx,
                close: Some(close),
            },
        );
    }

    pub fn get(&self, id: ConnId) -> Option<&Conn> {
        self.map.get(&id)
    }

    /// Forgets a connection that went away by itself.
    pub fn remove(&mut self, id: ConnId) -> Option<Viewer> {
        self.map.remove(&id).map(|c| c.viewer)
    }

    /// Closes a connection with a reason and forgets it.
    pub fn kick(&mut self, id: ConnId, reason: CloseReason) {
        self.kick_with(id, CloseOrder { reason, last: None });
    }

    fn kick_with(&mut self, id: ConnId, order: CloseOrder) {
        if let Some(mut c) = self.map.remove(&id) {
            if let Some(close) = c.close.take() {
                // The connection may already be gone; then nobody needs telling.
                let _ = close.send(order);
            }
            self.dropped.push(c.viewer);
        }
    }

    /// Closes every connection.
    pub fn close_all(&mut self, reason: CloseReason) {
        let ids: Vec<ConnId> = self.map.keys().copied().collect();
        for id in ids {
            self.kick(id, reason);
        }
    }

    /// The connection holding `seat`, if any.
    pub fn seat_conn(&self, seat: Seat) -> Option<ConnId> {
        self.map
            .iter()
            .find(|(_, c)| c.viewer == Viewer::Seat(seat))
            .map(|(id, _)| *id)
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn spectators(&self) -> usize {
        self.map
            .values()
            .filter(|c| c.viewer == Viewer::Spectator)
            .count()
    }

    /// Viewers of connections dropped for being slow since the last call.
    pub fn take_dropped(&mut self) -> Vec<Viewer> {
        std::mem::take(&mut self.dropped)
    }

    /// Queues one message for one connection.
    pub fn send(&mut self, id: ConnId, msg: &ServerMsg) {
        let text = Utf8Bytes::from(msg.to_text());
        self.send_text(id, text);
    }

    /// Queues the answer to one of the connection's requests. If its queue
    /// is full the connection is closed as too slow, and the answer goes
    /// with the close order, so the request is still answered.
    pub fn reply(&mut self, id: ConnId, msg: &ServerMsg) {
        let text = Utf8Bytes::from(msg.to_text());
        self.queue(id, text, true);
    }

    fn send_text(&mut self, id: ConnId, text: Utf8Bytes) {
        self.queue(id, text, false);
    }

    fn queue(&mut self, id: ConnId, text: Utf8Bytes, is_reply: bool) {
        let Some(c) = self.map.get(&id) else {
            return;
        };
        match c.tx.try_send(text) {
            Ok(()) => {}
            Err(TrySendError::Full(text)) => {
                tracing::info!(conn = id, "connection queue full; closing it");
                crate::metrics::metrics().slow_consumer_kicks.inc();
                let last = is_reply.then_some(text);
                self.kick_with(
                    id,
                    CloseOrder {
                        reason: CloseReason::TOO_SLOW,
                        last,
                    },
                );
            }
            Err(TrySendError::Closed(_)) => {
                if let Some(c) = self.map.remove(&id) {
                    self.dropped.push(c.viewer);
                }
            }
        }
    }

    /// Sends every connection its own message, built once per distinct
    /// viewer and [`UpdateView`]: `make(viewer, form)`.
    pub fn broadcast_with(&mut self, mut make: impl FnMut(Viewer, UpdateView) -> ServerMsg) {
        let mut cache: HashMap<(Viewer, UpdateView), Utf8Bytes> = HashMap::new();
        let targets: Vec<(ConnId, Viewer, UpdateView)> = self
            .map
            .iter()
            .map(|(i, c)| (*i, c.viewer, c.update_view))
            .collect();
        for (id, viewer, form) in targets {
            let text = cache
                .entry((viewer, form))
                .or_insert_with(|| Utf8Bytes::from(make(viewer, form).to_text()))
                .clone();
            self.send_text(id, text);
        }
    }

    /// Sends the same message to everyone.
    pub fn broadcast(&mut self, msg: &ServerMsg) {
        let text = Utf8Bytes::from(msg.to_text());
        let ids: Vec<ConnId> = self.map.keys().copied().collect();
        for id in ids {
            self.send_text(id, text.clone());
        }
    }
}
