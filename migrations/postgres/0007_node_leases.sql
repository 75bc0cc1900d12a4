-- Node leases (issue 13; docs/CLUSTER.md "Leases and epochs"). A node
-- used to renew one row per lobby it held, every beat: 3,333 row versions
-- per node per second at 10,000 games, and renewals that grew slow under
-- load until nodes gave every lobby up at once (docs/PERFORMANCE.md,
-- "Cluster at size, again"). Now a node holds one lease of its own, in its
-- `cluster_nodes` row, and renews that one row; a lobby's row names its
-- holder and the holder's lease generation, and is live while that node's
-- lease at that generation is. The epoch stays per lobby and fences the
-- journal as before.

-- Lease generations come from one sequence, so a generation is never
-- handed out twice (not across node ids, nor after a node's row was
-- deleted and made again).
CREATE SEQUENCE lease_generations;

-- The node's lease: its generation, until when it holds (by the database's
-- clock), and since when it holds this generation. A node that gave its
-- lobbies up (it could not renew in time) takes a new generation, so that
-- the lobbies it held under the old one are nobody's at once, even if a
-- late renewal of the old generation got through.
ALTER TABLE cluster_nodes
    ADD COLUMN lease_gen   BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN lease_until TIMESTAMPTZ NOT NULL DEFAULT '-infinity',
    ADD COLUMN gen_since   TIMESTAMPTZ NOT NULL DEFAULT now();

-- A lobby's holder is `node_id` at generation `gen`. `expires` becomes
-- `since`: when the lease last changed hands (taken or given up); nothing
-- rewrites it on a beat any more. Rows held under the old scheme have
-- generation 0, which no node holds: they are orphans, taken over as
-- after a node's death (stop every node of the old version first).
ALTER TABLE lobby_leases ADD COLUMN gen BIGINT NOT NULL DEFAULT 0;
ALTER TABLE lobby_leases RENAME COLUMN expires TO since;
-- Lobby rows are no longer rewritten every beat: full pages again.
ALTER TABLE lobby_leases RESET (fillfactor);

-- Whether `node` holds its lease at generation `gen` now: the one
-- definition of a live lobby lease (a lobby row naming that node and
-- generation). Inlined by the planner.
CREATE FUNCTION lease_live(node TEXT, gen BIGINT) RETURNS BOOLEAN
LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM cluster_nodes n
                   WHERE n.id = node AND n.lease_gen = gen AND n.lease_until >= now())
$$;

-- Each lobby lease with its holder's state: whether it is live, the
-- holder's URL and last beat, and since when the lease is dead (released,
-- its holder's lease ran out, or its holder took a new generation).
CREATE VIEW lease_state AS
SELECT l.lobby_id, l.node_id, l.gen, l.epoch, l.since, l.parked, l.info, l.public,
       n.url, n.heartbeat, n.lease_gen AS holder_gen, n.lease_until,
       coalesce(n.lease_gen = l.gen AND n.lease_until >= now(), FALSE) AS live,
       CASE WHEN n.id IS NULL THEN l.since
            WHEN n.lease_gen <> l.gen THEN greatest(l.since, n.gen_since)
            ELSE greatest(l.since, n.lease_until) END AS dead_since
FROM lobby_leases l LEFT JOIN cluster_nodes n ON n.id = l.node_id;
