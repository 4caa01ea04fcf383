-- Several processes share one PostgreSQL database (docs/deployment.md, "Several processes"): each writes its
-- own sign of life, and the downtime a game gives back is the whole fleet's (time since the last beat of any
-- process). The single row of 0006 is kept as the sign of life of the processes that ran before.
CREATE TABLE heartbeats (
    process     TEXT PRIMARY KEY,
    started_at  TEXT NOT NULL,
    last_seen   TEXT NOT NULL
);

INSERT INTO heartbeats (process, started_at, last_seen)
SELECT 'before-0030', last_seen, last_seen FROM heartbeat;

DROP TABLE heartbeat;

-- The process whose deliverer claimed an item (`claimed_until`, 0029): when that process stops beating, a
-- live one releases its claims at once instead of waiting for them to run out.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
