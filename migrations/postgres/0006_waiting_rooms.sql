-- Waiting rooms that outlive their node (issue 13; docs/CLUSTER.md "What
-- happens when..."). A lobby not yet started has no game row and no log,
-- so until now it died with its node, and a rolling restart closed every
-- waiting room. Its owner now writes the room here (settings, host token
-- hash, who sits where: people by name and token hash, bots by kind)
-- before it answers each change, under its lease's epoch like an append,
-- and deletes it when the room closes. A node asked for a lobby whose lease
-- is free and that has a room here but no game takes the room over.
-- Once its game has started the game row is what counts: a room row left
-- beside a game is never read.
CREATE TABLE waiting_rooms (
    lobby_id UUID PRIMARY KEY,
    updated  TIMESTAMPTZ NOT NULL,
    room     JSONB NOT NULL
);
