-- Parked leases (issue 13; docs/CLUSTER.md "Idle lobbies"). A node that
-- unloads an idle lobby (nobody connected for the idle time; its game is
-- in the log) gives its lease up parked: the lobby is nobody's, and the
-- first node a client asks for it takes it over, but no node's reaper
-- resumes it unasked. A lease given up by a draining node or a failed
-- takeover is not parked: those lobbies were being served and are taken
-- over at once. Any claim clears the mark.
ALTER TABLE lobby_leases ADD COLUMN parked BOOLEAN NOT NULL DEFAULT FALSE;
