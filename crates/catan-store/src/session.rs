//! A cluster node's session (migrations/postgres/0008_node_sessions.sql,
//! docs/CLUSTER.md "Node sessions"): one connection of the node's own,
//! held for as long as the node lives, with a session-level advisory lock
//! keyed by the node's `session_key`. PostgreSQL releases the lock the
//! moment it sees the connection close, which for a process that was
//! killed is at once (its kernel closes the socket), long before the
//! node's lease runs out. Other nodes try the same key with a
//! transaction-level lock: when the try succeeds, the session is gone, and
//! they end the node's lease generation there and then
//! ([`NodeSession::cut_dead`]).
//!
//! The lock proves death only one way: a node that is paused, or cut off
//! from the database by the network, keeps its session (PostgreSQL has not
//! seen the connection close), so it is left to its lease as before. And
//! a node whose session closed while it lives (a database restart, a
//! killed connection) is cut like a dead one: its renewals are refused,
//! it stops serving, and its journal appends are fenced out by the
//! takeovers' epochs, as after any lost lease.

use crate::Store;
use crate::cluster::pool;
use crate::error::StoreError;
use chrono::{DateTime, Utc};
use sqlx::{Connection, PgConnection, Row};
use std::time::{Duration, Instant};
use uuid::Uuid;

/// The advisory lock class of node sessions: the first key of
/// PostgreSQL's two-key form ("CATN"), so that no other user of advisory
/// locks (sqlx's migrator takes a one-key lock) can hold a node's key.
const SESSION_CLASS: i32 = 0x4341_544E;

/// A node whose session a survivor found gone.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CutNode {
    /// The node id.
    pub id: String,
    /// When its generation was ended (the database's clock).
    pub at: DateTime<Utc>,
}

/// This node's session: a connection that holds the node's advisory lock
/// until it closes. Drop it only to end the node: dropping it closes the
/// connection, and the others then cut the node.
#[derive(Debug)]
pub struct NodeSession {
    conn: PgConnection,
    key: i32,
    opened: Instant,
    broken: bool,
}

/// The session key of process `instance`: one per process, so that a
/// restarted node never waits for its predecessor's session to close.
/// Two processes whose keys collide (one chance in two billion) only lose
/// the early cut: each looks alive while the other's session is.
fn session_key(instance: Uuid) -> i32 {
    let b = instance.as_bytes();
    i32::from_be_bytes([b[0], b[1], b[2], b[3]]) & i32::MAX
}

impl Store {
    /// Opens the session of node `id` (process `instance`, registered with
    /// [`Store::register_node`]): takes a connection out of the pool for
    /// good, takes the node's lock on it, and only then names the key in
    /// the node's row, so that no survivor tries a key before it is held.
    /// Opening it again after a lost session names the same key.
    pub async fn open_node_session(
        &self,
        id: &str,
        instance: Uuid,
    ) -> Result<NodeSession, StoreError> {
        let mut conn = pool(self)?.acquire().await?.detach();
        let key = session_key(instance);
        let locked: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock($1, $2)")
            .bind(SESSION_CLASS)
            .bind(key)
            .fetch_one(&mut conn)
            .await?;
        if !locked {
            let _ = conn.close().await;
            return Err(StoreError::Invalid(format!(
                "the node session key {key} is held by another process"
            )));
        }
        let named = sqlx::query(
            "UPDATE cluster_nodes SET session_key = $3 WHERE id = $1 AND instance = $2",
        )
        .bind(id)
        .bind(instance)
        .bind(key)
        .execute(&mut conn)
        .await?;
        if named.rows_affected() != 1 {
            let _ = conn.close().await;
            return Err(StoreError::NodeIdInUse(id.to_string()));
        }
        Ok(NodeSession {
            conn,
            key,
            opened: Instant::now(),
            broken: false,
        })
    }
}

impl NodeSession {
    /// The key of the node's lock.
    pub fn key(&self) -> i32 {
        self.key
    }

    /// How long the session has held the lock.
    pub fn age(&self) -> Duration {
        self.opened.elapsed()
    }

    /// Whether the connection failed (not a statement: the connection
    /// itself): the lock is gone with it, and the session must be opened
    /// again.
    pub fn is_broken(&self) -> bool {
        self.broken
    }

    /// Closes the session (the node leaves the cluster cleanly: its row
    /// goes with it, so nobody cuts it).
    pub async fn close(self) {
        let _ = self.conn.close().await;
    }

    /// Ends, in one statement, the lease generation of every other node
    /// that beat within `ttl` and whose session is gone (a
    /// transaction-level try of its key succeeds), as if it had given its
    /// lobbies up: its lobbies are orphans from now on, and it leaves the
    /// node list. Answers the nodes cut within `ttl`, by this statement or
    /// another node's, so that every survivor hears of each cut.
    pub async fn cut_dead(&mut self, me: &str, ttl: Duration) -> Result<Vec<CutNode>, StoreError> {
        // The CASE keeps the lock try behind the other conditions: a
        // condition list may be evaluated in any order, and a try on this
        // node's own key, or a stale row's, must never be made.
        let rows = sqlx::query(
            "WITH cut AS ( \
               UPDATE cluster_nodes SET lease_gen = nextval('lease_generations'), \
                 gen_since = now(), lease_until = least(lease_until, now()), \
                 heartbeat = least(heartbeat, now() - make_interval(secs => $2 / 500.0)), \
                 cut_at = now() \
               WHERE CASE WHEN id <> $1 AND session_key IS NOT NULL \
                            AND heartbeat >= now() - make_interval(secs => $2 / 1000.0) \
                          THEN pg_try_advisory_xact_lock($3, session_key) ELSE FALSE END \
               RETURNING id, cut_at) \
             SELECT id, cut_at FROM cut \
             UNION \
             SELECT id, cut_at FROM cluster_nodes \
             WHERE id <> $1 AND cut_at >= now() - make_interval(secs => $2 / 1000.0)",
        )
        .bind(me)
        .bind(ttl.as_secs_f64() * 1000.0)
        .bind(SESSION_CLASS)
        .fetch_all(&mut self.conn)
        .await
        .inspect_err(|e| self.broken |= connection_lost(e))?;
        rows.iter()
            .map(|r| {
                Ok(CutNode {
                    id: r.try_get("id")?,
                    at: r.try_get("cut_at")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }
}

/// Whether `e` is the connection's failure rather than the statement's
/// (a timeout or a refused statement leaves the connection, and its lock,
/// in place).
fn connection_lost(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::WorkerCrashed => true,
        // The server ended the connection (08: connection exception; 57P:
        // an administrator or a shutdown terminated the backend).
        sqlx::Error::Database(d) => d
            .code()
            .is_some_and(|c| c.starts_with("08") || c.starts_with("57P")),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_key_is_the_instance_s_first_bytes_and_never_negative() {
        let id = Uuid::from_bytes([0xff; 16]);
        assert_eq!(session_key(id), i32::MAX);
        let id = Uuid::from_bytes([0, 0, 1, 2, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9]);
        assert_eq!(session_key(id), 258);
    }
}
