-- Pillz duel economy: a profile per player (starter deck marker, active deck, Elo rating and record),
-- saved decks in four slots, and the result of every friend match (rewards, anti-farming count, ladder).

CREATE TABLE pillz_profiles (
    player_id      INTEGER PRIMARY KEY REFERENCES players(id),
    starter_given  INTEGER NOT NULL DEFAULT 0 CHECK (starter_given IN (0, 1)),
    active_slot    INTEGER CHECK (active_slot BETWEEN 1 AND 4),
    rating         INTEGER NOT NULL DEFAULT 1000,
    games          INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins           INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    draws          INTEGER NOT NULL DEFAULT 0 CHECK (draws >= 0),
    losses         INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    created_at     TEXT    NOT NULL,
    CHECK (games = wins + draws + losses)
);

-- A saved deck: 8 to 12 distinct catalog ids (checked by services/pillz_decks.py).
CREATE TABLE pillz_decks (
    player_id   INTEGER NOT NULL REFERENCES players(id),
    slot        INTEGER NOT NULL CHECK (slot BETWEEN 1 AND 4),
    cards       TEXT    NOT NULL,                  -- JSON list of catalog ids
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (player_id, slot)
) WITHOUT ROWID;

-- One row per friend match, written by the duel's end-of-duel unit; the duel id makes it idempotent.
-- pair_low/pair_high is the unordered pair of players, counted per UTC day for the anti-farming cap.
CREATE TABLE pillz_friend_results (
    duel_id      INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    seat0_id     INTEGER NOT NULL REFERENCES players(id),
    seat1_id     INTEGER NOT NULL REFERENCES players(id),
    pair_low     INTEGER NOT NULL,
    pair_high    INTEGER NOT NULL,
    winner_seat  INTEGER CHECK (winner_seat IN (0, 1)),  -- NULL: a draw
    rewarded     INTEGER NOT NULL CHECK (rewarded IN (0, 1)),
    rewards      TEXT    NOT NULL,                        -- JSON: per seat gold, capped, Elo before/after
    day          TEXT    NOT NULL,                        -- UTC date, YYYY-MM-DD
    recorded_at  TEXT    NOT NULL,
    CHECK (seat0_id <> seat1_id AND pair_low < pair_high)
);
CREATE INDEX pillz_friend_results_pair_day ON pillz_friend_results (pair_low, pair_high, day);
CREATE INDEX pillz_friend_results_guild ON pillz_friend_results (guild_id, seat0_id, seat1_id);
