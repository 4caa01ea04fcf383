-- Per-server settings chosen with /setup.

CREATE TABLE guild_settings (
    guild_id              INTEGER PRIMARY KEY,
    announce_channel_id   INTEGER,
    games_channel_id      INTEGER,
    deadline_preset       TEXT NOT NULL DEFAULT 'standard'
                          CHECK (deadline_preset IN ('fast', 'standard', 'relaxed')),
    updated_at            TEXT NOT NULL
);

-- The last Discord locale a player used, so DMs sent later (by the scheduler) speak their language.
ALTER TABLE players ADD COLUMN last_locale TEXT CHECK (last_locale IN ('fr', 'en'));
