-- Dinocard above its engine: a profile per player (starter collection marker, defence notices, dojo
-- progress), packs (decks of owned copies, levels, experience, skills) and each pack's daily challenges.
-- A copy in a pack is locked in `cards.locked_by` ('dinocard:pack:<id>'), so no other pack, sale or
-- future trade can take it (services/dinocard/packs.py).

CREATE TABLE dinocard_profiles (
    player_id      INTEGER PRIMARY KEY REFERENCES players(id),
    starter_given  INTEGER NOT NULL DEFAULT 0 CHECK (starter_given IN (0, 1)),
    notify         INTEGER NOT NULL DEFAULT 1 CHECK (notify IN (0, 1)),  -- DM the result of a defence
    dojo_beaten    INTEGER NOT NULL DEFAULT 0 CHECK (dojo_beaten >= 0),   -- masters beaten, in order
    created_at     TEXT    NOT NULL
);

CREATE TABLE dinocard_packs (
    id          INTEGER PRIMARY KEY,
    owner_id    INTEGER NOT NULL REFERENCES players(id),
    name        TEXT    NOT NULL,
    cards       TEXT    NOT NULL,                  -- JSON list of catalog ids, in the player's order
    level       INTEGER NOT NULL DEFAULT 1 CHECK (level BETWEEN 1 AND 50),
    xp          INTEGER NOT NULL DEFAULT 0 CHECK (xp >= 0),
    skills      TEXT    NOT NULL DEFAULT '{}',     -- JSON points per skill (engine Skills)
    wins        INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses      INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    daily_from  TEXT    NOT NULL,                  -- first day (scheduler's zone, YYYY-MM-DD) it may challenge
    status      TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'dissolved')),
    version     INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);
CREATE UNIQUE INDEX dinocard_packs_name ON dinocard_packs (owner_id, name) WHERE status = 'active';
CREATE INDEX dinocard_packs_level ON dinocard_packs (status, level);

-- Challenges a pack launched per day (the scheduler's zone); the increment is guarded by the allowance.
CREATE TABLE dinocard_launches (
    pack_id  INTEGER NOT NULL REFERENCES dinocard_packs(id),
    day      TEXT    NOT NULL,
    used     INTEGER NOT NULL CHECK (used >= 1),
    PRIMARY KEY (pack_id, day)
);
