//! What several server nodes over one PostgreSQL database share
//! (migrations/postgres/0002_cluster.sql, 0007_node_leases.sql,
//! docs/CLUSTER.md): the live nodes, each with a lease of its own, and who
//! owns each lobby, with an epoch (a fencing token).
//!
//! Every expiry is computed by the database's clock (`now()`), so nodes'
//! clocks never have to agree. A node holds one lease, in its own row,
//! renewed by one single-row update per beat however many lobbies it
//! holds; a lobby's row names its holder and the generation of the
//! holder's lease it was taken under, and is live while the holder's lease
//! at that generation is (`lease_live`, the `lease_state` view). A node
//! that gave its lobbies up takes a new generation, which leaves every
//! lobby of the old one to the others at once. A lobby lease is taken (a
//! new lobby, or a takeover of one whose holder's lease ran out or that
//! was released) by one statement that only one node can win, and only
//! by a node whose own lease is live; each takeover raises the epoch.
//! Journal appends carry the writer's epoch and are stored only while it
//! is still the lease's (`append_fenced`), checked in the statement that
//! inserts, under a key share lock on the lease row, which only a
//! takeover's `FOR UPDATE` conflicts with: a takeover either waits for an
//! append in flight (and then reads it from the log) or the append sees
//! the new epoch and writes nothing. Renewals write no lobby row at all.
//!
//! SQLite has no cluster: every call here answers
//! [`StoreError::NeedsPostgres`] there.

use crate::error::{StoreError, classify_append};
use crate::postgres::{Columns, by_index, whole_tables};
use crate::{Store, StoredGame};
use catan_core::record::RecordedAction;
use chrono::{DateTime, Utc};
use sqlx::postgres::{PgPool, PgRow};
use sqlx::{PgConnection, Row};
use std::collections::{HashMap, HashSet};
use std::time::Duration;
use uuid::Uuid;

/// A live node as the cluster table lists it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NodeRecord {
    /// The node id.
    pub id: String,
    /// The base URL clients reach it at.
    pub url: String,
    /// Lobbies it holds.
    pub lobbies: i32,
    /// WebSockets open on it.
    pub sockets: i32,
    /// Its one-minute load average.
    pub load: f32,
    /// Whether it is handing its lobbies away (stopping).
    pub draining: bool,
    /// When it started (RFC 3339).
    pub started: String,
    /// Milliseconds since its last beat.
    pub beat_age_ms: i64,
}

/// What a node reports of itself on each beat.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeLoad {
    /// Lobbies held.
    pub lobbies: i32,
    /// WebSockets open.
    pub sockets: i32,
    /// One-minute load average.
    pub load: f32,
    /// Handing lobbies away.
    pub draining: bool,
}

/// A lease a node holds: the lobby and the epoch it holds it at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lease {
    /// The lobby (and game) id.
    pub lobby_id: Uuid,
    /// The fencing token.
    pub epoch: u64,
}

/// A node holding lobbies: its id and the generation of its node lease
/// (from [`Store::register_node`] or [`Store::renew_node_lease`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holder<'a> {
    /// The node id.
    pub node: &'a str,
    /// The generation of its lease.
    pub generation: i64,
}

/// Who owns a lobby now, as the lease table says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseOwner {
    /// The holding node (`None`: released).
    pub node_id: Option<String>,
    /// That node's URL, if it is registered.
    pub url: Option<String>,
    /// The current epoch.
    pub epoch: u64,
    /// Whether the lease is live: its holder's lease, at the generation
    /// this lobby was taken under, has not run out (the holder may be
    /// serving).
    pub live: bool,
    /// How long until the holder's lease runs out (zero once it has).
    pub expires_in: Duration,
    /// How long ago the lease died: was released, its holder's lease ran
    /// out, or its holder took a new generation (zero while it is live).
    pub expired_for: Duration,
    /// How long ago the holding node last beat, while it is still at the
    /// generation this lobby was taken under (`None`: no such node, or it
    /// gave that generation's lobbies up).
    pub beat_age: Option<Duration>,
}

/// A game in progress that nobody serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Orphan {
    /// The game (and lobby) id.
    pub game_id: Uuid,
    /// How long since its lease died (released, or its holder's lease ran
    /// out or moved to a new generation; since the game was stored, if it
    /// never had one); by the database's clock.
    pub orphaned_for: Duration,
    /// Whether the node that held the dead lease still beats (within the
    /// lease time given), at the same generation: a live node whose
    /// renewal is late (a busy database) rather than a dead one, or one
    /// that gave the lobby up.
    pub holder_live: bool,
}

/// What a claim of a stored game's lease came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// Won, at this epoch.
    Won(u64),
    /// Another node holds the lease.
    Held,
    /// The claiming node's own lease is not live (it ran out, or the
    /// generation given is not the node's): it may take no lobby until it
    /// renews.
    Lapsed,
    /// Nothing to serve: no such game in progress is stored, nor a waiting
    /// room without a game (nothing was claimed).
    NoGame,
}

/// A lobby's listing as its owner last published it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// The lobby.
    pub lobby_id: Uuid,
    /// Whether it is listed publicly.
    pub public: bool,
    /// Its description (JSON text).
    pub info: String,
}

pub(crate) fn pool(store: &Store) -> Result<&PgPool, StoreError> {
    match store {
        Store::Postgres(p) => Ok(p),
        Store::Sqlite(_) => Err(StoreError::NeedsPostgres),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Each of `rows` read with `read`; a column that does not decode fails
/// them all.
fn read_all<T, C: FromIterator<T>>(
    rows: &[PgRow],
    read: impl FnMut(&PgRow) -> Result<T, sqlx::Error>,
) -> Result<C, StoreError> {
    Ok(rows.iter().map(read).collect::<Result<C, _>>()?)
}

/// A duration the database computed in milliseconds (negative: zero).
fn millis(v: i64) -> Duration {
    Duration::from_millis(u64::try_from(v).unwrap_or(0))
}

fn epoch_of(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

pub(crate) fn epoch_sql(e: u64) -> Result<i64, StoreError> {
    i64::try_from(e).map_err(|_| StoreError::Invalid(format!("epoch {e} is too large")))
}

/// `leases` as the lobby and epoch arrays of an `UNNEST($n::uuid[],
/// $m::int8[])`.
fn lease_columns(leases: &[Lease]) -> Result<(Vec<Uuid>, Vec<i64>), StoreError> {
    let ids = leases.iter().map(|l| l.lobby_id).collect();
    let epochs = leases
        .iter()
        .map(|l| epoch_sql(l.epoch))
        .collect::<Result<_, _>>()?;
    Ok((ids, epochs))
}

impl Store {
    /// Registers node `id` (a fresh row, or one whose previous process has
    /// stopped beating for `ttl`) with a lease for `ttl`; answers the
    /// lease's generation. A row still beating under another `instance` is
    /// [`StoreError::NodeIdInUse`].
    pub async fn register_node(
        &self,
        id: &str,
        url: &str,
        instance: Uuid,
        ttl: Duration,
    ) -> Result<i64, StoreError> {
        let p = pool(self)?;
        let row = sqlx::query(
            "INSERT INTO cluster_nodes (id, url, instance, started, heartbeat, lease_gen, \
               lease_until, gen_since) \
             VALUES ($1, $2, $3, now(), now(), nextval('lease_generations'), \
               now() + make_interval(secs => $4 / 1000.0), now()) \
             ON CONFLICT (id) DO UPDATE SET url = $2, instance = $3, started = now(), \
               heartbeat = now(), lobbies = 0, sockets = 0, load = 0, draining = FALSE, \
               lease_gen = nextval('lease_generations'), gen_since = now(), \
               lease_until = now() + make_interval(secs => $4 / 1000.0) \
             WHERE cluster_nodes.instance = $3 \
                OR cluster_nodes.heartbeat < now() - make_interval(secs => $4 / 1000.0) \
             RETURNING lease_gen",
        )
        .bind(id)
        .bind(url)
        .bind(instance)
        .bind(ms(ttl))
        .fetch_optional(p)
        .await?;
        match row {
            Some(r) => Ok(r.try_get("lease_gen")?),
            None => Err(StoreError::NodeIdInUse(id.to_string())),
        }
    }

    /// One beat of node `id`: its load, and that it lives. `false` when the
    /// row now belongs to another process (this one must stop).
    pub async fn node_beat(
        &self,
        id: &str,
        instance: Uuid,
        load: &NodeLoad,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE cluster_nodes SET heartbeat = now(), lobbies = $3, sockets = $4, \
             load = $5, draining = $6 WHERE id = $1 AND instance = $2",
        )
        .bind(id)
        .bind(instance)
        .bind(load.lobbies)
        .bind(load.sockets)
        .bind(load.load)
        .bind(load.draining)
        .execute(pool(self)?)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Renews node `id`'s lease for `ttl`, in one single-row update: every
    /// lobby it holds at `generation` with it. `None` for `generation`
    /// starts a new generation (the node gave its lobbies up: those of the
    /// old one are nobody's from now on). Answers the generation renewed;
    /// `None` when the row belongs to another process, or has moved on to
    /// a newer generation than the one given (a late renewal: it renews
    /// nothing).
    pub async fn renew_node_lease(
        &self,
        id: &str,
        instance: Uuid,
        generation: Option<i64>,
        ttl: Duration,
    ) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "UPDATE cluster_nodes SET lease_until = now() + make_interval(secs => $4 / 1000.0), \
               lease_gen = coalesce($3::int8, nextval('lease_generations')), \
               gen_since = CASE WHEN $3::int8 IS NULL THEN now() ELSE gen_since END \
             WHERE id = $1 AND instance = $2 AND ($3::int8 IS NULL OR lease_gen = $3::int8) \
             RETURNING lease_gen",
        )
        .bind(id)
        .bind(instance)
        .bind(generation)
        .bind(ms(ttl))
        .fetch_optional(pool(self)?)
        .await?;
        row.map(|r| r.try_get("lease_gen"))
            .transpose()
            .map_err(StoreError::from)
    }

    /// Removes node `id`'s row (it stopped cleanly).
    pub async fn leave_cluster(&self, id: &str, instance: Uuid) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM cluster_nodes WHERE id = $1 AND instance = $2")
            .bind(id)
            .bind(instance)
            .execute(pool(self)?)
            .await?;
        Ok(())
    }

    /// Nodes that beat within `ttl`, by id.
    pub async fn live_nodes(&self, ttl: Duration) -> Result<Vec<NodeRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, url, lobbies, sockets, load, draining, started, \
               (extract(epoch FROM now() - heartbeat) * 1000)::int8 AS age \
             FROM cluster_nodes \
             WHERE heartbeat >= now() - make_interval(secs => $1 / 1000.0) ORDER BY id",
        )
        .bind(ms(ttl))
        .fetch_all(pool(self)?)
        .await?;
        read_all(&rows, |r| {
            Ok(NodeRecord {
                id: r.try_get("id")?,
                url: r.try_get("url")?,
                lobbies: r.try_get("lobbies")?,
                sockets: r.try_get("sockets")?,
                load: r.try_get("load")?,
                draining: r.try_get("draining")?,
                started: crate::format_time(r.try_get::<DateTime<Utc>, _>("started")?),
                beat_age_ms: r.try_get("age")?,
            })
        })
    }

    /// Takes the lease of `lobby_id` for `holder`: a lobby never leased
    /// gets epoch 1; one whose lease is dead (released, or its holder's
    /// lease ran out) is taken over at the next epoch. `None` when another
    /// holder's lease is live, or the holder's own lease is not
    /// ([`Claim::Lapsed`]). A node may claim a lobby it holds again (to
    /// serve it anew, e.g. after a restart): that is a takeover too, at the
    /// next epoch, so a writer of its earlier incarnation is fenced out.
    pub async fn claim_lease(
        &self,
        lobby_id: Uuid,
        holder: Holder<'_>,
    ) -> Result<Option<u64>, StoreError> {
        Ok(match self.claim(lobby_id, holder, false).await? {
            Claim::Won(epoch) => Some(epoch),
            Claim::Held | Claim::Lapsed | Claim::NoGame => None,
        })
    }

    /// Claims the lease of stored game `lobby_id` to take it over, like
    /// [`Store::claim_lease`] but only while the game is stored and in
    /// progress, or the lobby is a stored waiting room with no game yet
    /// ([`Store::save_waiting_room`]); checked in the same statement, so
    /// that a request for an unknown id leases nothing.
    pub async fn claim_game(
        &self,
        lobby_id: Uuid,
        holder: Holder<'_>,
    ) -> Result<Claim, StoreError> {
        self.claim(lobby_id, holder, true).await
    }

    async fn claim(
        &self,
        lobby_id: Uuid,
        holder: Holder<'_>,
        needs_game: bool,
    ) -> Result<Claim, StoreError> {
        // One statement (a takeover is one round trip). It locks the lease
        // row FOR UPDATE before it writes: that is the one lock an append's
        // FOR KEY SHARE waits for (and waits out), so a takeover and an
        // append are ordered. The `lock` CTE runs inside the INSERT's
        // condition, so it is taken before the write. The holder's node
        // row is only read: a renewal in flight neither waits for a claim
        // nor makes it wait.
        let row = sqlx::query(
            "WITH game AS (SELECT NOT $4 OR EXISTS (SELECT 1 FROM games \
                             WHERE id = $1 AND status = 'in_progress') \
                           OR (EXISTS (SELECT 1 FROM waiting_rooms WHERE lobby_id = $1) \
                               AND NOT EXISTS (SELECT 1 FROM games WHERE id = $1)) AS ok), \
                  me AS (SELECT lease_live($2, $3) AS ok), \
                  lock AS (SELECT 1 FROM lobby_leases WHERE lobby_id = $1 FOR UPDATE), \
                  won AS ( \
               INSERT INTO lobby_leases (lobby_id, node_id, gen, epoch, since) \
               SELECT $1, $2, $3, 1, now() \
               WHERE (SELECT ok FROM game) AND (SELECT ok FROM me) \
                 AND (SELECT count(*) FROM lock) >= 0 \
               ON CONFLICT (lobby_id) DO UPDATE SET node_id = $2, gen = $3, \
                 epoch = lobby_leases.epoch + 1, parked = FALSE, since = now() \
               WHERE lobby_leases.node_id IS NULL OR lobby_leases.node_id = $2 \
                  OR NOT lease_live(lobby_leases.node_id, lobby_leases.gen) \
               RETURNING epoch) \
             SELECT (SELECT ok FROM game) AS ok, (SELECT ok FROM me) AS holding, \
               (SELECT epoch FROM won) AS epoch",
        )
        .bind(lobby_id)
        .bind(holder.node)
        .bind(holder.generation)
        .bind(needs_game)
        .fetch_one(pool(self)?)
        .await?;
        let ok: bool = row.try_get("ok")?;
        let holding: bool = row.try_get("holding")?;
        let epoch: Option<i64> = row.try_get("epoch")?;
        Ok(match (ok, holding, epoch) {
            (false, _, _) => Claim::NoGame,
            (true, false, _) => Claim::Lapsed,
            (true, true, Some(e)) => Claim::Won(epoch_of(e)),
            (true, true, None) => Claim::Held,
        })
    }

    /// Publishes the listings of lobbies `node` holds, each at the epoch
    /// given (a listing of a lobby taken over since is not written), in one
    /// statement.
    pub async fn publish_listings(
        &self,
        node: &str,
        listings: &[(u64, Listing)],
    ) -> Result<(), StoreError> {
        if listings.is_empty() {
            return Ok(());
        }
        let ids: Vec<Uuid> = listings.iter().map(|(_, l)| l.lobby_id).collect();
        let epochs = listings
            .iter()
            .map(|(e, _)| epoch_sql(*e))
            .collect::<Result<Vec<_>, _>>()?;
        let infos: Vec<&str> = listings.iter().map(|(_, l)| l.info.as_str()).collect();
        let public: Vec<bool> = listings.iter().map(|(_, l)| l.public).collect();
        sqlx::query(
            "UPDATE lobby_leases l SET info = i.info::jsonb, public = i.public \
             FROM UNNEST($2::uuid[], $3::int8[], $4::text[], $5::bool[]) \
               AS i(id, epoch, info, public) \
             WHERE l.lobby_id = i.id AND l.epoch = i.epoch AND l.node_id = $1",
        )
        .bind(node)
        .bind(ids)
        .bind(epochs)
        .bind(infos)
        .bind(public)
        .execute(pool(self)?)
        .await?;
        Ok(())
    }

    /// Which of `leases` `holder` still holds (at those epochs, under its
    /// generation): after a moment when its own lease may have run out
    /// before a renewal got through, another node may have taken some
    /// over.
    pub async fn held_leases(
        &self,
        holder: Holder<'_>,
        leases: &[Lease],
    ) -> Result<HashSet<Uuid>, StoreError> {
        if leases.is_empty() {
            return Ok(HashSet::new());
        }
        let (ids, epochs) = lease_columns(leases)?;
        let rows = sqlx::query(
            "SELECT l.lobby_id FROM lobby_leases l \
             JOIN UNNEST($3::uuid[], $4::int8[]) AS h(id, epoch) \
               ON l.lobby_id = h.id AND l.epoch = h.epoch \
             WHERE l.node_id = $1 AND l.gen = $2",
        )
        .bind(holder.node)
        .bind(holder.generation)
        .bind(ids)
        .bind(epochs)
        .fetch_all(pool(self)?)
        .await?;
        read_all(&rows, |r| r.try_get("lobby_id"))
    }

    /// [`Store::update_seats`] fenced like an append: the seats are written
    /// only while `epoch` is still the lease's epoch of the game, checked
    /// under the lease row's share lock in the same statement (a takeover's
    /// `FOR UPDATE` waits for it, or it for the takeover), so an old owner
    /// paused past a takeover cannot overwrite the new owner's seats.
    /// [`StoreError::Fenced`] when the epoch is not the current one.
    pub async fn update_seats_fenced(
        &self,
        game: &StoredGame,
        epoch: u64,
    ) -> Result<(), StoreError> {
        let seats = crate::rows::SeatColumns::of(game)?;
        let row = sqlx::query(
            "WITH fence AS (SELECT 1 FROM lobby_leases WHERE lobby_id = $1 AND epoch = $4 \
                              FOR KEY SHARE), \
                  done AS (UPDATE games SET seats = $2::jsonb, player_names = $3 \
                           WHERE id = $1 AND EXISTS (SELECT 1 FROM fence) RETURNING 1) \
             SELECT EXISTS (SELECT 1 FROM fence) AS held, EXISTS (SELECT 1 FROM done) AS done",
        )
        .bind(game.id)
        .bind(&seats.seats)
        .bind(&seats.player_names)
        .bind(epoch_sql(epoch)?)
        .fetch_one(pool(self)?)
        .await?;
        match (
            row.try_get::<bool, _>("held")?,
            row.try_get::<bool, _>("done")?,
        ) {
            (false, _) => Err(StoreError::Fenced { game_id: game.id }),
            (true, false) => Err(StoreError::UnknownGame(game.id)),
            (true, true) => Ok(()),
        }
    }

    /// Gives leases up (the lobby stopped here while it was being served: a
    /// drain, a failed takeover): any node may take them over at once, and
    /// the reapers do. Only leases still held at these epochs are touched.
    pub async fn release_leases(&self, node: &str, leases: &[Lease]) -> Result<(), StoreError> {
        self.give_up(node, leases, false).await
    }

    /// Gives leases up parked (the lobby was unloaded while idle): the first
    /// node a client asks for it takes it over, but no reaper resumes it
    /// unasked ([`Store::orphaned_games`] leaves it out), so an abandoned
    /// game is not loaded again and again. Only leases still held at these
    /// epochs are touched.
    pub async fn park_leases(&self, node: &str, leases: &[Lease]) -> Result<(), StoreError> {
        self.give_up(node, leases, true).await
    }

    async fn give_up(&self, node: &str, leases: &[Lease], parked: bool) -> Result<(), StoreError> {
        if leases.is_empty() {
            return Ok(());
        }
        let (ids, epochs) = lease_columns(leases)?;
        sqlx::query(
            "UPDATE lobby_leases l SET node_id = NULL, since = now(), parked = $4 \
             FROM UNNEST($2::uuid[], $3::int8[]) AS h(id, epoch) \
             WHERE l.lobby_id = h.id AND l.epoch = h.epoch AND l.node_id = $1",
        )
        .bind(node)
        .bind(ids)
        .bind(epochs)
        .bind(parked)
        .execute(pool(self)?)
        .await?;
        Ok(())
    }

    /// Who owns `lobby_id`, with the owner's URL. `None`: never leased.
    pub async fn lease_owner(&self, lobby_id: Uuid) -> Result<Option<LeaseOwner>, StoreError> {
        let mut owners = self.lease_owners(&[lobby_id]).await?;
        Ok(owners.remove(&lobby_id))
    }

    /// [`Store::lease_owner`] of each of `lobby_ids` in one query (the
    /// lobbies without a lease row are left out): a dead node's clients
    /// all look their lobbies up at once, and one statement each kept
    /// the survivors' pools full for seconds.
    pub async fn lease_owners(
        &self,
        lobby_ids: &[Uuid],
    ) -> Result<HashMap<Uuid, LeaseOwner>, StoreError> {
        let mut tx = by_index(pool(self)?).await?;
        let rows = sqlx::query(
            "SELECT lobby_id, node_id, url, epoch, live, \
               CASE WHEN live THEN GREATEST(EXTRACT(EPOCH FROM lease_until - now()) * 1000, 0) \
                    ELSE 0 END::BIGINT AS expires_in_ms, \
               CASE WHEN live THEN 0 \
                    ELSE GREATEST(EXTRACT(EPOCH FROM now() - dead_since) * 1000, 0) \
                    END::BIGINT AS expired_for_ms, \
               CASE WHEN holder_gen = gen \
                    THEN (EXTRACT(EPOCH FROM now() - heartbeat) * 1000)::BIGINT END AS beat_age_ms \
             FROM lease_state WHERE lobby_id = ANY($1)",
        )
        .bind(lobby_ids)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        rows.into_iter()
            .map(|r| {
                Ok((
                    r.try_get("lobby_id")?,
                    LeaseOwner {
                        node_id: r.try_get("node_id")?,
                        url: r.try_get("url")?,
                        epoch: epoch_of(r.try_get("epoch")?),
                        live: r.try_get("live")?,
                        expires_in: millis(r.try_get("expires_in_ms")?),
                        expired_for: millis(r.try_get("expired_for_ms")?),
                        beat_age: r.try_get::<Option<i64>, _>("beat_age_ms")?.map(millis),
                    },
                ))
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// The cluster's shared secret (made once by the migrations): a node
    /// forwarding a request to another sends it, so that the receiver
    /// trusts the client address the request names.
    pub async fn cluster_key(&self) -> Result<String, StoreError> {
        Ok(sqlx::query_scalar("SELECT key FROM cluster_key")
            .fetch_one(pool(self)?)
            .await?)
    }

    /// Games in progress that nobody serves: their lease is dead (released
    /// but not parked, or its holder's lease ran out or moved to a new
    /// generation), or they never had one (stored before the cluster).
    /// Most recently orphaned first (their players are the ones
    /// reconnecting now), never leased last; at most `limit`; a holder
    /// counts as live if it beat within `ttl` at the lease's generation.
    pub async fn orphaned_games(
        &self,
        limit: i64,
        ttl: Duration,
    ) -> Result<Vec<Orphan>, StoreError> {
        let mut tx = whole_tables(pool(self)?).await?;
        let rows = sqlx::query(
            "SELECT g.id, (greatest(0, extract(epoch FROM now() - coalesce(s.dead_since, g.created))) \
                             * 1000)::int8 AS age, \
                    coalesce(s.holder_gen = s.gen \
                             AND s.heartbeat >= now() - make_interval(secs => $2 / 1000.0), false) \
                      AS holder_live \
             FROM games g LEFT JOIN lease_state s ON s.lobby_id = g.id \
             WHERE g.status = 'in_progress' \
               AND (s.lobby_id IS NULL OR NOT s.live) \
               AND NOT coalesce(s.parked, false) \
             ORDER BY s.dead_since DESC NULLS LAST, g.created LIMIT $1",
        )
        .bind(limit)
        .bind(ms(ttl))
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        read_all(&rows, |r| {
            Ok(Orphan {
                game_id: r.try_get("id")?,
                orphaned_for: millis(r.try_get("age")?),
                holder_live: r.try_get("holder_live")?,
            })
        })
    }

    /// Claims for `holder`, in one statement, the leases of those of `ids`
    /// that are stored games in progress nobody holds (dead or never
    /// leased), each at its next epoch; answers the games won with their
    /// epochs (none while the holder's own lease is not live). Only the
    /// rows it can take are locked, `FOR UPDATE` in id order, skipping any
    /// row another transaction holds: the locks order each claim after any
    /// append in flight, as in [`Store::claim_game`] (a row an append holds
    /// is skipped this round and looked at again the next), two nodes
    /// claiming overlapping sets at once never wait for each other, and a
    /// live lease's row is never locked.
    pub async fn claim_games(
        &self,
        ids: &[Uuid],
        holder: Holder<'_>,
    ) -> Result<Vec<(Uuid, u64)>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut tx = by_index(pool(self)?).await?;
        let rows = sqlx::query(
            "WITH want AS (SELECT id FROM games \
                             WHERE id = ANY($1::uuid[]) AND status = 'in_progress' \
                               AND lease_live($2, $3)), \
                  lock AS (SELECT lobby_id FROM lobby_leases \
                             WHERE lobby_id IN (SELECT id FROM want) \
                               AND (node_id IS NULL OR NOT lease_live(node_id, gen)) \
                             ORDER BY lobby_id FOR UPDATE SKIP LOCKED) \
             INSERT INTO lobby_leases (lobby_id, node_id, gen, epoch, since) \
             SELECT id, $2, $3, 1, now() FROM want w \
             WHERE w.id IN (SELECT lobby_id FROM lock) \
                OR NOT EXISTS (SELECT 1 FROM lobby_leases l WHERE l.lobby_id = w.id) \
             ORDER BY id \
             ON CONFLICT (lobby_id) DO UPDATE SET node_id = $2, gen = $3, \
               epoch = lobby_leases.epoch + 1, parked = FALSE, since = now() \
             WHERE lobby_leases.node_id IS NULL \
                OR NOT lease_live(lobby_leases.node_id, lobby_leases.gen) \
             RETURNING lobby_id, epoch",
        )
        .bind(ids)
        .bind(holder.node)
        .bind(holder.generation)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        read_all(&rows, |r| {
            Ok((r.try_get("lobby_id")?, epoch_of(r.try_get("epoch")?)))
        })
    }

    /// The published listings of every lobby with a live lease.
    pub async fn live_listings(&self) -> Result<Vec<Listing>, StoreError> {
        let rows = sqlx::query(
            "SELECT lobby_id, public, info::text AS info FROM lease_state \
             WHERE live AND info <> '{}'::jsonb",
        )
        .fetch_all(pool(self)?)
        .await?;
        read_all(&rows, |r| {
            Ok(Listing {
                lobby_id: r.try_get("lobby_id")?,
                public: r.try_get("public")?,
                info: r.try_get("info")?,
            })
        })
    }
}

/// One action to append, with the epoch its writer holds the game's lease
/// at (`None`: not fenced, a single server).
pub type FencedAction = (Uuid, RecordedAction, Option<u64>);

/// Appends a batch in one statement, each fenced action only if its epoch
/// is still its lease's; answers the games whose actions were fenced out
/// (not written). Unfenced and still-current actions are all stored or
/// none (a constraint failure fails the statement).
pub(crate) async fn append_fenced(
    conn: &mut PgConnection,
    batch: &[FencedAction],
) -> Result<HashSet<Uuid>, StoreError> {
    if batch.is_empty() {
        return Ok(HashSet::new());
    }
    let c = Columns::of(batch.iter().map(|(g, a, _)| (*g, a)))?;
    let fenced: Vec<bool> = batch.iter().map(|(_, _, e)| e.is_some()).collect();
    let mut fence_games = Vec::new();
    let mut fence_epochs = Vec::new();
    for (game_id, _, epoch) in batch {
        if let Some(e) = epoch {
            fence_games.push(*game_id);
            fence_epochs.push(epoch_sql(*e)?);
        }
    }
    let rows = c
        .bind(sqlx::query(&format!(
            "WITH fence AS ( \
           SELECT l.lobby_id FROM lobby_leases l \
           JOIN UNNEST($9::uuid[], $10::int8[]) AS f(g, e) ON l.lobby_id = f.g AND l.epoch = f.e \
           FOR KEY SHARE OF l) \
         INSERT INTO game_actions ({}) \
         SELECT g, s, p, a::jsonb, o::jsonb, t, i \
         FROM UNNEST($1::uuid[], $2::int8[], $3::int2[], $4::text[], $5::text[], \
                     $6::timestamptz[], $7::bool[], $8::bool[]) AS u(g, s, p, a, o, t, i, f) \
         WHERE NOT u.f OR u.g IN (SELECT lobby_id FROM fence) \
         RETURNING game_id",
            crate::columns::NEW_ACTION
        )))
        .bind(fenced)
        .bind(fence_games)
        .bind(fence_epochs)
        .fetch_all(&mut *conn)
        .await
        .map_err(|e| classify_append(e, batch[0].0, batch[0].1.seq))?;
    let stored: HashSet<Uuid> = read_all(&rows, |r| r.try_get("game_id"))?;
    Ok(batch
        .iter()
        .filter(|(g, _, e)| e.is_some() && !stored.contains(g))
        .map(|(g, _, _)| *g)
        .collect())
}

/// Whether `epoch` is still the lease's epoch of `game_id`, read under a
/// share lock (so a takeover in flight is waited for).
pub(crate) async fn holds(
    conn: &mut PgConnection,
    game_id: Uuid,
    epoch: u64,
) -> Result<bool, StoreError> {
    let row = sqlx::query("SELECT epoch FROM lobby_leases WHERE lobby_id = $1 FOR KEY SHARE")
        .bind(game_id)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(row
        .map(|r| r.try_get::<i64, _>("epoch"))
        .transpose()?
        .is_some_and(|e| epoch_of(e) == epoch))
}
