-- Per-server settings chosen with /setup.

CREATE TABLE guild_settings (
    guild_id              INTEGER PRIMARY KEY,
    announce_channel_id   INTEGER,
    games_channel_id      INTEGER,
    deadline_preset       TEXT NOT NULL DEFAULT 'standard'
                          CHECK (deadline_preset IN ('fast', 'standard', 'relaxed')),
    updated_at            TEXT NOT NULL
);
