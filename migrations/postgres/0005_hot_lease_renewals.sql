-- Lease renewals as heap-only updates (issue 13; docs/CLUSTER.md "Leases
-- and fencing"). Every node renews all its leases once per beat, which
-- rewrites each row's `expires`. An index on `expires` made every one of
-- those rewrites insert a new entry into all three indexes of the table;
-- without it, and with room left on each page for the new row version,
-- PostgreSQL updates the row in place on its page (a HOT update) and
-- touches no index. Measured on 10,000 leases in three nodes' batches:
-- a renewal of 3,333 leases took about 100 ms with the index and 37 ms
-- without it at fill factor 50 (docs/PERFORMANCE.md, "Lease renewals").
-- No query needs the index: orphans are found from `games`, and the live
-- listings are a scan of a table the size of the lobbies in play.
DROP INDEX lobby_leases_by_expiry;
-- Half of each page stays free for the renewed versions of its rows.
-- Pages written before this migration fill as their rows move.
ALTER TABLE lobby_leases SET (fillfactor = 50);
