-- Immortal's War on a server: the time each player has to choose in a duel's round (/setup immortals)
-- before the AI chooses for them; a server without a row uses the default, 120 seconds.

CREATE TABLE immortals_guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    choice_seconds  INTEGER NOT NULL DEFAULT 120 CHECK (choice_seconds BETWEEN 30 AND 3600),
    updated_at      TEXT    NOT NULL
);
