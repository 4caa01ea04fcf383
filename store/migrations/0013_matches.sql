-- Two-seat games in progress, for every game (services/shared/matches.py): one row per match, its seats
-- and its moves. A challenge is a match still 'pending' (services/shared/challenges.py); accepting it
-- starts the match under the same id, so the buttons of the challenge message and of the game agree.
-- The engine state is saved after every move; `version` changes with each save, so a click or a job
-- meant for an earlier version changes nothing (conditional UPDATE, row count checked).
-- The SQL is plain enough for PostgreSQL too (no WITHOUT ROWID, no json functions, no reserved names).

CREATE TABLE matches (
    id            INTEGER PRIMARY KEY,
    game          TEXT    NOT NULL,                    -- the game's key ('pillz')
    kind          TEXT    NOT NULL DEFAULT '',         -- the game's own variety ('friend', 'practice'...)
    guild_id      INTEGER NOT NULL,                    -- the one server the match answers in
    channel_id    INTEGER NOT NULL,
    thread_id     INTEGER,
    status        TEXT    NOT NULL CHECK (status IN ('pending', 'declined', 'withdrawn', 'expired', 'live',
                                                     'over', 'cancelled')),
    request_key   TEXT    UNIQUE,                      -- the interaction that made it (a replay finds it)
    seed          INTEGER,
    setup         TEXT,                                -- JSON: what the engine started from (the decks)
    state         TEXT,                                -- engine JSON
    data          TEXT    NOT NULL DEFAULT '{}',       -- JSON: the game's own fields (notes...)
    version       INTEGER NOT NULL DEFAULT 0,
    message_item  INTEGER REFERENCES outbox(id),       -- the public message; its edits refer to it
    deadline_at   TEXT,
    deadline_job  INTEGER REFERENCES jobs(id),         -- the pending job (expiry, timeout) of this version
    result        TEXT,                                -- JSON: outcome, rewards, ratings
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL,
    expires_at    TEXT,                                -- a pending challenge's end
    ended_at      TEXT
);
CREATE INDEX matches_open ON matches (game, status) WHERE status IN ('pending', 'live');

CREATE TABLE match_seats (
    match_id   INTEGER NOT NULL REFERENCES matches(id),
    seat       INTEGER NOT NULL CHECK (seat IN (0, 1)),
    player_id  INTEGER REFERENCES players(id),         -- NULL: the AI
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_seats_by_player ON match_seats (player_id, match_id);

-- Every move, in order: with the seed and the setup, a replay.
CREATE TABLE match_moves (
    match_id  INTEGER NOT NULL REFERENCES matches(id),
    seq       INTEGER NOT NULL CHECK (seq >= 1),
    seat      INTEGER NOT NULL CHECK (seat IN (0, 1)),
    action    TEXT    NOT NULL,                        -- the engine's action JSON
    author    TEXT    NOT NULL CHECK (author IN ('player', 'ai', 'timeout')),
    at        TEXT    NOT NULL,
    PRIMARY KEY (match_id, seq)
);

-- Pillz duels move here with their ids, so the buttons of messages already posted, the timeout jobs
-- ({"duel": id}) and the ladder's duel ids keep naming the same duel. Finished duels come too: their moves
-- are their replay. A move's time was not kept: the duel's last change stands for it.
INSERT INTO matches (id, game, kind, guild_id, channel_id, status, request_key, seed, setup, state, data,
                     version, message_item, deadline_at, deadline_job, result, created_at, updated_at,
                     expires_at, ended_at)
SELECT id, 'pillz', kind, guild_id, channel_id, status, request_key, seed, decks, state,
       '{"notes": ' || notes || '}', version, message_item, deadline_at, timeout_job, result, created_at,
       updated_at, expires_at, ended_at
FROM pillz_duels;

INSERT INTO match_seats (match_id, seat, player_id) SELECT id, 0, seat0_id FROM pillz_duels;
INSERT INTO match_seats (match_id, seat, player_id) SELECT id, 1, seat1_id FROM pillz_duels;

INSERT INTO match_moves (match_id, seq, seat, action, author, at)
SELECT m.duel_id, m.seq, m.seat, m.action, m.by, d.updated_at
FROM pillz_duel_moves m JOIN pillz_duels d ON d.id = m.duel_id;

DROP TABLE pillz_duel_moves;
DROP TABLE pillz_duels;
