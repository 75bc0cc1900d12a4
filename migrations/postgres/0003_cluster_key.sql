-- The cluster's shared secret (issue 13; docs/CLUSTER.md "Client
-- addresses"). A node that forwards a request to another node names the
-- client's address in a header and proves with this key that it is a node
-- of the cluster: the receiving node then counts the request against that
-- client rather than against the forwarding node. Made once, here, from
-- PostgreSQL's cryptographic random source; every node reads it at start.
CREATE TABLE cluster_key (
    one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one),
    key TEXT NOT NULL
);
INSERT INTO cluster_key (key)
VALUES (replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));
