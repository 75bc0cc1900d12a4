-- Node sessions (issue 13; docs/CLUSTER.md "Node sessions"). A node that
-- was SIGKILLed left its lobbies unserved until its lease ran out (3 s by
-- default) before any survivor could take one over. PostgreSQL knows much
-- sooner: the dead process's connections close with it. Each node now
-- holds a session-level advisory lock, keyed by `session_key`, on a
-- connection of its own for as long as it lives; a survivor whose
-- transaction-level try of that lock succeeds knows the session is gone
-- and ends the node's lease generation at once (`NodeSession::cut_dead`).
-- A paused or partitioned node keeps its session (PostgreSQL has not seen
-- its connection close), so it keeps its lease until the lease runs out,
-- as before.
--
-- `session_key`: NULL while the node holds no session lock (a node of an
-- older version, or one whose session is being opened): never cut.
-- `cut_at`: when a survivor last ended the node's generation that way, so
-- that every other survivor hears of it on its next look.
ALTER TABLE cluster_nodes
    ADD COLUMN session_key INTEGER,
    ADD COLUMN cut_at      TIMESTAMPTZ;
