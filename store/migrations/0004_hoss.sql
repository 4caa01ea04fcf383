-- HOSS TCG: booster openings (cards face down until flipped), saved decks, the active deck,
-- and progress per battle rank (which unlocks better boosters and the race booster).

CREATE TABLE hoss_openings (
    id             INTEGER PRIMARY KEY,
    player_id      INTEGER NOT NULL REFERENCES players(id),
    purchase_key   TEXT    NOT NULL,              -- the purchase (interaction) that bought it
    booster_index  INTEGER NOT NULL CHECK (booster_index BETWEEN 0 AND 9),
    kind           TEXT    NOT NULL CHECK (kind IN ('normal', 'race')),
    race           TEXT,
    tier           INTEGER NOT NULL CHECK (tier BETWEEN 1 AND 9),
    created_at     TEXT    NOT NULL,
    UNIQUE (purchase_key, booster_index)
);
CREATE INDEX hoss_openings_by_player ON hoss_openings (player_id, id);

CREATE TABLE hoss_opening_cards (
    opening_id  INTEGER NOT NULL REFERENCES hoss_openings(id),
    position    INTEGER NOT NULL CHECK (position BETWEEN 0 AND 5),
    card_id     INTEGER NOT NULL REFERENCES cards(id),
    flipped     INTEGER NOT NULL DEFAULT 0 CHECK (flipped IN (0, 1)),
    PRIMARY KEY (opening_id, position)
) WITHOUT ROWID;

CREATE TABLE hoss_decks (
    player_id   INTEGER NOT NULL REFERENCES players(id),
    slot        INTEGER NOT NULL CHECK (slot BETWEEN 1 AND 4),
    name        TEXT    NOT NULL,
    lines       TEXT    NOT NULL,   -- JSON list of line ids
    buffs       TEXT    NOT NULL,   -- JSON list of buff card ids
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (player_id, slot)
) WITHOUT ROWID;

CREATE TABLE hoss_profiles (
    player_id    INTEGER PRIMARY KEY REFERENCES players(id),
    active_slot  INTEGER CHECK (active_slot BETWEEN 1 AND 4)
);

CREATE TABLE hoss_rank_progress (
    player_id  INTEGER NOT NULL REFERENCES players(id),
    rank       INTEGER NOT NULL CHECK (rank BETWEEN 1 AND 9),
    wins       INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses     INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    PRIMARY KEY (player_id, rank)
) WITHOUT ROWID;
