-- Chocobataille: saved decks per league, per-server settings, challenges, games refereed by the bot,
-- their log and penalties, results per server and league, and roleplay character names.

-- One saved deck (24 catalog ids, at most two copies of one card) per player and league.
CREATE TABLE choco_decks (
    player_id   INTEGER NOT NULL REFERENCES players(id),
    league      TEXT    NOT NULL CHECK (league IN ('bronze', 'argent', 'or')),
    cards       TEXT    NOT NULL,                  -- JSON list of 24 catalog card ids
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (player_id, league)
) WITHOUT ROWID;

-- What a server changes about Chocobataille (defaults are the issue's: 30 days, reminders 12 h and 1 h,
-- 7 days of absence per player and game, downtime not forgiven).
CREATE TABLE choco_guild_settings (
    guild_id           INTEGER PRIMARY KEY,
    referee_role_id    INTEGER,
    min_member_days    INTEGER NOT NULL DEFAULT 30 CHECK (min_member_days BETWEEN 0 AND 365),
    reminder_hours     TEXT    NOT NULL DEFAULT '[12, 1]',   -- JSON list of hours before the deadline
    absence_cap_hours  INTEGER NOT NULL DEFAULT 168 CHECK (absence_cap_hours BETWEEN 0 AND 2160),
    forgive_downtime   INTEGER NOT NULL DEFAULT 0 CHECK (forgive_downtime IN (0, 1)),
    updated_at         TEXT    NOT NULL
);

CREATE TABLE choco_challenges (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,                -- where the challenge was made
    challenger_id   INTEGER NOT NULL REFERENCES players(id),
    challenged_id   INTEGER NOT NULL REFERENCES players(id),
    league          TEXT    NOT NULL CHECK (league IN ('bronze', 'argent', 'or')),
    status          TEXT    NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'accepted', 'declined', 'withdrawn', 'expired')),
    request_key     TEXT    NOT NULL UNIQUE,         -- the interaction that made it
    game_id         INTEGER REFERENCES choco_games(id),
    created_at      TEXT    NOT NULL,
    expires_at      TEXT    NOT NULL,
    decided_at      TEXT
);
CREATE INDEX choco_challenges_pending ON choco_challenges (challenged_id) WHERE status = 'pending';

-- A game: its decks and seed (with the log, a replay), the engine state, and the deadline of the player
-- to act. `version` changes with every change of the state or of the deadlines, so a job or a click meant
-- for an earlier version does nothing (conditional UPDATE). The end is the transition 'live' -> 'over',
-- made once in the unit that pays the reward and records the result.
CREATE TABLE choco_games (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,                -- the games channel (or where the challenge was made)
    thread_id       INTEGER UNIQUE,                  -- the game's thread, once opened
    league          TEXT    NOT NULL CHECK (league IN ('bronze', 'argent', 'or')),
    seat0_id        INTEGER NOT NULL REFERENCES players(id),
    seat1_id        INTEGER NOT NULL REFERENCES players(id),
    seed            INTEGER NOT NULL,
    decks           TEXT    NOT NULL,                -- JSON [[24 ids], [24 ids]] as dealt
    state           TEXT    NOT NULL,                -- engine JSON (ChocoState)
    status          TEXT    NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'over', 'cancelled')),
    version         INTEGER NOT NULL DEFAULT 0,
    turn_started_at TEXT,                            -- when the player to act was called
    deadline_at     TEXT,                            -- the 24 h penalty (NULL in the preparatory turn)
    pass_at         TEXT,                            -- the 72 h pass
    stage           INTEGER NOT NULL DEFAULT 0 CHECK (stage IN (0, 1)),  -- 1 once the 24 h penalty is applied
    faulted_turn    INTEGER,                         -- the turn whose unowned-card fault was already counted
    result          TEXT CHECK (result IN ('win', 'draw', 'forfeit_voluntary', 'forfeit_absence',
                                           'referee', 'cancelled')),
    winner_seat     INTEGER CHECK (winner_seat IN (0, 1)),
    reward_card     INTEGER REFERENCES cards(id),
    created_at      TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL,
    ended_at        TEXT
);
CREATE INDEX choco_games_live ON choco_games (status) WHERE status = 'live';
CREATE INDEX choco_games_by_seat0 ON choco_games (seat0_id, status);
CREATE INDEX choco_games_by_seat1 ON choco_games (seat1_id, status);

-- Pending jobs of a game (deadline stages and reminders), so they are withdrawn when the deadline moves.
CREATE TABLE choco_game_jobs (
    game_id  INTEGER NOT NULL REFERENCES choco_games(id),
    job_id   INTEGER NOT NULL REFERENCES jobs(id),
    PRIMARY KEY (game_id, job_id)
) WITHOUT ROWID;

-- Declared absences: they pause the penalties of that player in that game until `until`.
CREATE TABLE choco_absences (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES choco_games(id),
    player_id   INTEGER NOT NULL REFERENCES players(id),
    starts_at   TEXT    NOT NULL,
    until       TEXT    NOT NULL,
    hours       INTEGER NOT NULL CHECK (hours > 0),
    reason      TEXT    NOT NULL,
    created_at  TEXT    NOT NULL
);
CREATE INDEX choco_absences_by_game ON choco_absences (game_id, player_id);

-- The game's log: every action, penalty, absence and referee act, in order. `data` is JSON; `state_before`
-- keeps the engine state a penalty was applied to, so a referee can cancel it.
CREATE TABLE choco_game_log (
    game_id       INTEGER NOT NULL REFERENCES choco_games(id),
    seq           INTEGER NOT NULL CHECK (seq >= 1),
    at            TEXT    NOT NULL,
    actor_id      INTEGER,                           -- NULL for the bot's own acts (deadlines)
    kind          TEXT    NOT NULL,
    data          TEXT    NOT NULL DEFAULT '{}',
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- Results per server, player and league: the leaderboard and the badges are sums over these rows.
CREATE TABLE choco_results (
    guild_id          INTEGER NOT NULL,
    player_id         INTEGER NOT NULL REFERENCES players(id),
    league            TEXT    NOT NULL CHECK (league IN ('bronze', 'argent', 'or')),
    wins              INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses            INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    draws             INTEGER NOT NULL DEFAULT 0 CHECK (draws >= 0),
    absence_forfeits  INTEGER NOT NULL DEFAULT 0 CHECK (absence_forfeits >= 0),
    cards_lost        INTEGER NOT NULL DEFAULT 0 CHECK (cards_lost >= 0),
    PRIMARY KEY (guild_id, player_id, league)
) WITHOUT ROWID;

-- A player's roleplay character name on a server ("inRP" ranking).
CREATE TABLE choco_characters (
    guild_id    INTEGER NOT NULL,
    player_id   INTEGER NOT NULL REFERENCES players(id),
    name        TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, player_id)
) WITHOUT ROWID;

-- The platform's last sign of life, written every minute and at shutdown: at start-up, the time the bot
-- was down (servers may choose to forgive it to their players' deadlines).
CREATE TABLE heartbeat (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    last_seen  TEXT NOT NULL
);

-- The turn a player is building in the guided panel: steps so far (engine action JSON), for the game's
-- `version` it was built on (a draft for an older version is stale and starts again).
CREATE TABLE choco_drafts (
    game_id     INTEGER NOT NULL REFERENCES choco_games(id),
    seat        INTEGER NOT NULL CHECK (seat IN (0, 1)),
    version     INTEGER NOT NULL,
    steps       TEXT    NOT NULL DEFAULT '[]',
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
