-- Immortal's War: a profile per player (starter marker, deck of copies, player XP, combat points,
-- record), each copy's experience, the spells a player knows, and one row per player and finished duel
-- (what it was worth, and the opponent the anti-farm rule reads).

CREATE TABLE immortals_profiles (
    player_id      INTEGER PRIMARY KEY REFERENCES players(id),
    starter_given  INTEGER NOT NULL DEFAULT 0 CHECK (starter_given IN (0, 1)),
    deck           TEXT,                              -- JSON list of copy ids (cards.id), in saved order
    xp             INTEGER NOT NULL DEFAULT 0 CHECK (xp >= 0),
    combat_points  INTEGER NOT NULL DEFAULT 0 CHECK (combat_points >= 0),
    duels          INTEGER NOT NULL DEFAULT 0 CHECK (duels >= 0),
    wins           INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    draws          INTEGER NOT NULL DEFAULT 0 CHECK (draws >= 0),
    losses         INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    created_at     TEXT    NOT NULL,
    CHECK (duels = wins + draws + losses)
);

-- A copy's experience (its level follows from the catalog's level table); no row is 0 XP.
CREATE TABLE immortals_card_xp (
    card_id  INTEGER PRIMARY KEY REFERENCES cards(id),
    xp       INTEGER NOT NULL CHECK (xp >= 0)
);

CREATE TABLE immortals_spells (
    player_id   INTEGER NOT NULL REFERENCES players(id),
    spell       TEXT    NOT NULL,                     -- the catalog id of the spell
    learned_at  TEXT    NOT NULL,
    PRIMARY KEY (player_id, spell)
);

-- One row per human seat of a finished duel, in the order duels ended (id): the anti-farm rule reads a
-- player's latest opponents from here. opponent_id 0 is the AI.
CREATE TABLE immortals_results (
    id           INTEGER PRIMARY KEY,
    match_id     INTEGER NOT NULL REFERENCES matches(id),
    player_id    INTEGER NOT NULL REFERENCES players(id),
    opponent_id  INTEGER NOT NULL,
    guild_id     INTEGER,
    outcome      TEXT    NOT NULL CHECK (outcome IN ('win', 'draw', 'loss')),
    gains        TEXT    NOT NULL,                    -- JSON: the engine's DuelResult as applied
    recorded_at  TEXT    NOT NULL,
    UNIQUE (match_id, player_id)
);
CREATE INDEX immortals_results_by_player ON immortals_results (player_id, id);
