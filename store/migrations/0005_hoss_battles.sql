-- HOSS TCG: ranked battles against the AI (one row per battle, its rounds and decisions), and the
-- milestone notices whose gold is credited when the player clicks OK.

-- A battle's engine state is saved at every pause where the player decides; `pause` numbers those pauses
-- (1 = the first; 0 only while the row is being created) and `version` every change, so an answer or a
-- timeout applies only to the pause it was meant for (conditional UPDATE). The end is the transition
-- status 'live' -> 'won'/'lost'/'draw', made once by a conditional UPDATE in the unit that pays the reward.
CREATE TABLE hoss_battles (
    id              INTEGER PRIMARY KEY,
    player_id       INTEGER NOT NULL REFERENCES players(id),
    rank            INTEGER NOT NULL CHECK (rank BETWEEN 1 AND 9),
    start_key       TEXT    NOT NULL UNIQUE,          -- the interaction that started it
    seed            INTEGER NOT NULL,
    player_setup    TEXT    NOT NULL,                 -- JSON PlayerSetup of seat 0 (the player's deck then)
    opponent_setup  TEXT    NOT NULL,                 -- JSON PlayerSetup of seat 1 (the AI's deck)
    state           TEXT    NOT NULL,                 -- engine JSON (HossState) at the current pause or end
    status          TEXT    NOT NULL DEFAULT 'live'
                    CHECK (status IN ('live', 'won', 'lost', 'draw')),
    pause           INTEGER NOT NULL DEFAULT 0 CHECK (pause >= 0),
    version         INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    round           INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),
    player_deaths   INTEGER NOT NULL DEFAULT 0 CHECK (player_deaths >= 0),
    deadline_at     TEXT,                             -- when the AI decides for the player (NULL once over)
    timeout_job     INTEGER REFERENCES jobs(id),
    viewed_round    INTEGER NOT NULL DEFAULT 0,       -- rounds already returned by the view
    counted         INTEGER CHECK (counted IN (0, 1)),  -- set at the end: 0 for 3 rounds or fewer
    reward          TEXT,                             -- JSON breakdown of the gold paid, set at the end
    gold            INTEGER NOT NULL DEFAULT 0 CHECK (gold >= 0),
    created_at      TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL,
    ended_at        TEXT
);
CREATE INDEX hoss_battles_by_player ON hoss_battles (player_id, id);
-- One live battle per player.
CREATE UNIQUE INDEX hoss_battles_one_live ON hoss_battles (player_id) WHERE status = 'live';

-- Every decision of both seats, in the order they were applied: with the seed and the setups, a replay.
CREATE TABLE hoss_battle_decisions (
    battle_id  INTEGER NOT NULL REFERENCES hoss_battles(id),
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    pause      INTEGER NOT NULL,                      -- the player's pause number it belongs to
    round      INTEGER NOT NULL,                      -- rounds played before it
    seat       INTEGER NOT NULL CHECK (seat IN (0, 1)),
    action     TEXT    NOT NULL,                      -- engine action JSON
    by         TEXT    NOT NULL CHECK (by IN ('player', 'ai', 'timeout', 'skip')),
    PRIMARY KEY (battle_id, seq)
) WITHOUT ROWID;

-- The engine's log, one record per round (creatures, PV, statuses, synergies and the round's events).
CREATE TABLE hoss_battle_rounds (
    battle_id  INTEGER NOT NULL REFERENCES hoss_battles(id),
    round      INTEGER NOT NULL CHECK (round >= 1),
    record     TEXT    NOT NULL,
    PRIMARY KEY (battle_id, round)
) WITHOUT ROWID;

-- Notices the player must acknowledge; a milestone's gold is credited when it is claimed, once.
CREATE TABLE hoss_notices (
    id          INTEGER PRIMARY KEY,
    player_id   INTEGER NOT NULL REFERENCES players(id),
    kind        TEXT    NOT NULL CHECK (kind IN ('milestone')),
    rank        INTEGER NOT NULL CHECK (rank BETWEEN 1 AND 9),
    wins        INTEGER NOT NULL CHECK (wins > 0),
    gold        INTEGER NOT NULL CHECK (gold > 0),
    battle_id   INTEGER REFERENCES hoss_battles(id),
    created_at  TEXT    NOT NULL,
    claimed_at  TEXT,
    UNIQUE (player_id, kind, rank, wins)
);
CREATE INDEX hoss_notices_pending ON hoss_notices (player_id, id) WHERE claimed_at IS NULL;
