-- Several processes drain one outbox on PostgreSQL (docs/deployment.md): each deliverer claims the items it
-- is about to send until `claimed_until`, so that no other process sends them meanwhile. A process that
-- dies mid-send leaves its claim to expire; the item then goes out again with the same nonce, and Discord
-- returns the first message instead of posting a second. SQLite has one process: the column stays NULL.
ALTER TABLE outbox ADD COLUMN claimed_until TEXT;
