-- The deck lab's per-player cooldown (services/platform/lab/cooldown.py): when the player may run the next
-- lab. The lab itself stores nothing else: its seeds and results are never kept.
CREATE TABLE lab_cooldowns (
    player_id  INTEGER NOT NULL PRIMARY KEY REFERENCES players (id),
    ready_at   TEXT    NOT NULL
);
