-- Every message the outbox creates carries a nonce derived from its row, with `enforce_nonce`: when a post
-- is sent again after a crash between sending it and marking it sent, Discord returns the first message
-- instead of creating a second one. Row ids alone would collide between databases that share one bot token
-- (a test copy next to production), so each database draws a random prefix once, here: 10 hex digits.
CREATE TABLE outbox_nonce_prefix (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    prefix  TEXT    NOT NULL CHECK (length(prefix) = 10)
);
INSERT INTO outbox_nonce_prefix (id, prefix) VALUES (1, lower(hex(randomblob(5))));
