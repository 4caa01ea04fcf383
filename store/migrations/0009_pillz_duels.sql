-- Pillz duels: a challenge (pending) becomes a live duel; practice duels are against the AI (seat 1 NULL).
-- The engine state is saved after every move; `version` changes with each, so a click or a timeout meant
-- for an earlier version does nothing (conditional UPDATE). The public message is an outbox item; every
-- later state is an edit of it (outbox.edit_of), so the message follows the duel even after a restart.

CREATE TABLE pillz_guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    choice_seconds  INTEGER NOT NULL DEFAULT 120 CHECK (choice_seconds BETWEEN 30 AND 3600),
    updated_at      TEXT    NOT NULL
);

CREATE TABLE pillz_duels (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    kind           TEXT    NOT NULL CHECK (kind IN ('friend', 'practice')),
    seat0_id       INTEGER NOT NULL REFERENCES players(id),
    seat1_id       INTEGER REFERENCES players(id),     -- NULL: the AI
    request_key    TEXT    NOT NULL UNIQUE,             -- the interaction that made it
    status         TEXT    NOT NULL CHECK (status IN ('pending', 'declined', 'expired', 'live', 'over')),
    seed           INTEGER,
    decks          TEXT,                                -- JSON [[ids], [ids]] the four were drawn from
    state          TEXT,                                -- engine JSON (PillzState)
    version        INTEGER NOT NULL DEFAULT 0,
    message_item   INTEGER REFERENCES outbox(id),       -- the public message (its edits refer to it)
    notes          TEXT    NOT NULL DEFAULT '[]',       -- public notes: who the AI played for on a timeout
    deadline_at    TEXT,                                -- when the AI plays for the seat to act
    timeout_job    INTEGER REFERENCES jobs(id),
    result         TEXT,                                -- JSON: outcome, rewards, ratings
    created_at     TEXT    NOT NULL,
    updated_at     TEXT    NOT NULL,
    expires_at     TEXT,
    ended_at       TEXT
);
CREATE INDEX pillz_duels_live ON pillz_duels (status) WHERE status IN ('pending', 'live');

-- Every move, in order: with the seed and the decks, a replay.
CREATE TABLE pillz_duel_moves (
    duel_id  INTEGER NOT NULL REFERENCES pillz_duels(id),
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    seat     INTEGER NOT NULL CHECK (seat IN (0, 1)),
    action   TEXT    NOT NULL,
    by       TEXT    NOT NULL CHECK (by IN ('player', 'ai', 'timeout')),
    PRIMARY KEY (duel_id, seq)
) WITHOUT ROWID;
