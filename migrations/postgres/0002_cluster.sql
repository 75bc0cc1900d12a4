-- Several server nodes over one database (issue 13; docs/CLUSTER.md).
-- PostgreSQL only: SQLite is the single-node default and needs none of this.

-- Live server nodes: each beats every second; a node whose beat is older
-- than the lease time is gone.
CREATE TABLE cluster_nodes (
    id        TEXT PRIMARY KEY,
    -- The base URL clients reach this node at (http://host:port).
    url       TEXT NOT NULL,
    -- A random id of the running process, so that a second process started
    -- with the same node id is refused while the first still beats.
    instance  UUID NOT NULL,
    started   TIMESTAMPTZ NOT NULL,
    heartbeat TIMESTAMPTZ NOT NULL,
    lobbies   INTEGER NOT NULL DEFAULT 0,
    sockets   INTEGER NOT NULL DEFAULT 0,
    -- One-minute load average (0 where unknown).
    load      REAL NOT NULL DEFAULT 0,
    draining  BOOLEAN NOT NULL DEFAULT FALSE
);

-- Which node owns each lobby. A lobby (and its game, same id) is served by
-- exactly one node: the holder of an unexpired lease. `epoch` grows on every
-- takeover and fences the journal: an action is stored only while its
-- writer's epoch is the current one. Released leases keep their row (node
-- NULL) so that an epoch is never handed out twice.
CREATE TABLE lobby_leases (
    lobby_id UUID PRIMARY KEY,
    node_id  TEXT,
    epoch    BIGINT NOT NULL CHECK (epoch >= 1),
    expires  TIMESTAMPTZ NOT NULL,
    -- The lobby as listed (LobbyInfo JSON), refreshed by its owner, so that
    -- any node can list every node's lobbies.
    info     JSONB NOT NULL DEFAULT '{}'::jsonb,
    public   BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE INDEX lobby_leases_by_node ON lobby_leases (node_id) WHERE node_id IS NOT NULL;
CREATE INDEX lobby_leases_by_expiry ON lobby_leases (expires);
