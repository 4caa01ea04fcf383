-- A server's posts are sent by the process holding its shard (docs/deployment.md, "Several processes and
-- shards"): each outbox item names its server, NULL for a DM sent outside any server and for the items
-- written before this migration (any process sends those), and each process's heartbeat names the shards
-- it holds (NULL: unsharded, or a process gone whose shards any live process now serves).
ALTER TABLE outbox ADD COLUMN guild_id INTEGER;
ALTER TABLE heartbeats ADD COLUMN shard_count INTEGER;
ALTER TABLE heartbeats ADD COLUMN shard_ids TEXT;
