-- Tournaments run by the bot (services/platform/tournaments/, docs/tournaments.md).
--
-- A tournament is 'open' for registration until `starts_at`, then 'running' round by round, then
-- 'finished' (podium paid, titles on /profile) or 'cancelled' (fees refunded). Every change of its row is a
-- save guarded by `version`, so a deadline job and a match's end can never both close the same round.
-- `seed` stays secret until the start; `commitment` (its SHA-256, engine/fair_draw.py) is published at
-- the creation, so the seeding and the coin flips can be checked afterwards. `pot` is the entry fees held:
-- always the sum of the entries' `fee_paid` until the podium is paid.
CREATE TABLE tournaments (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,               -- where it was created: its matches are played there
    game           TEXT    NOT NULL,
    format         TEXT    NOT NULL CHECK (format IN ('elimination', 'swiss')),
    seeding        TEXT    NOT NULL CHECK (seeding IN ('random', 'rating')),
    max_players    INTEGER NOT NULL CHECK (max_players BETWEEN 4 AND 64),
    rounds         INTEGER CHECK (rounds >= 1),    -- Swiss: asked, else set at the start; elimination: at the start
    round_hours    INTEGER NOT NULL CHECK (round_hours IN (1, 24, 72)),
    fee            INTEGER NOT NULL DEFAULT 0 CHECK (fee >= 0),
    currency       TEXT,                           -- the fee's currency (the game's first)
    pot            INTEGER NOT NULL DEFAULT 0 CHECK (pot >= 0),
    status         TEXT    NOT NULL DEFAULT 'open'
                           CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    round          INTEGER NOT NULL DEFAULT 0,     -- the round being played, 0 before the start
    round_ends_at  TEXT,
    round_job      INTEGER,                        -- the pending job: the start, then each round's deadline
    seed           TEXT    NOT NULL,
    commitment     TEXT    NOT NULL,
    created_by     INTEGER NOT NULL,
    request_key    TEXT    UNIQUE,                 -- the creating interaction: a replay finds this row
    post_item      INTEGER REFERENCES outbox(id),  -- the bracket or standings post, edited after each match
    version        INTEGER NOT NULL DEFAULT 0,
    created_at     TEXT    NOT NULL,
    starts_at      TEXT    NOT NULL,               -- registration closes, the first round opens
    day            TEXT    NOT NULL,               -- its date in its name: the start's, in Paris
    started_at     TEXT,
    ended_at       TEXT
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status, id);
CREATE INDEX tournaments_by_end ON tournaments (guild_id, ended_at);

-- One row per registered player. A player who leaves before the start is deleted (their fee refunded in
-- the same unit); one who erased their data during the tournament stays, anonymous and 'withdrawn' (no
-- longer paired). `name` is the player's Discord name at registration, for the pictures (which cannot
-- show a mention). `place` and `prize` are set at the end.
CREATE TABLE tournament_entries (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments(id),
    player_id      INTEGER NOT NULL REFERENCES players(id),
    name           TEXT    NOT NULL,
    registered_at  TEXT    NOT NULL,
    fee_paid       INTEGER NOT NULL DEFAULT 0 CHECK (fee_paid >= 0),
    seed_rank      INTEGER CHECK (seed_rank >= 1),
    status         TEXT    NOT NULL DEFAULT 'in' CHECK (status IN ('in', 'withdrawn')),
    place          INTEGER CHECK (place >= 1),
    prize          INTEGER CHECK (prize >= 0),
    PRIMARY KEY (tournament_id, player_id)
);
CREATE INDEX tournament_entries_by_player ON tournament_entries (player_id, place);

-- Each table of each round: two players (or one and a bye), the game's match that decides it, and how it
-- was decided. Points are half-points (win 2, draw 1, loss 0); `winner_id` is who goes on in elimination.
-- 'playing' -> 'decided' is made once, by a conditional UPDATE in the unit that records the result.
CREATE TABLE tournament_tables (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments(id),
    round          INTEGER NOT NULL CHECK (round >= 1),
    table_no       INTEGER NOT NULL CHECK (table_no >= 0),
    first_id       INTEGER,
    second_id      INTEGER,
    match_id       INTEGER REFERENCES matches(id),
    status         TEXT    NOT NULL DEFAULT 'playing' CHECK (status IN ('playing', 'decided')),
    first_points   INTEGER,
    second_points  INTEGER,
    winner_id      INTEGER,
    reason         TEXT,
    decided_at     TEXT,
    PRIMARY KEY (tournament_id, round, table_no)
);
CREATE UNIQUE INDEX tournament_tables_by_match ON tournament_tables (match_id);
