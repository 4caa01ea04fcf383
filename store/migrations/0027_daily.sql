-- The daily loop: one daily reward per game and Paris day, with its streak; opt-in DM reminders.

-- One row per claimed (player, game, Paris day): the primary key is what makes a double click claim once.
-- `streak` is the number of consecutive Paris days claimed up to this one (1 after a missed day).
CREATE TABLE daily_claims (
    player_id   INTEGER NOT NULL REFERENCES players (id),
    game        TEXT    NOT NULL,
    day         TEXT    NOT NULL,                   -- the Paris date, e.g. 2026-03-29
    streak      INTEGER NOT NULL CHECK (streak >= 1),
    amount      INTEGER NOT NULL CHECK (amount >= 0),
    claimed_at  TEXT    NOT NULL,
    PRIMARY KEY (player_id, game, day)
);

-- Chocobataille's allowance (ledger reason choco.daily, ref = the UTC date it was claimed on) becomes the
-- shared mechanism's: its claims are carried over so that today's is not paid again after the upgrade.
INSERT INTO daily_claims (player_id, game, day, streak, amount, claimed_at)
SELECT player_id, 'choco', ref, 1, delta, MIN(at) FROM ledger
WHERE reason = 'choco.daily' AND ref IS NOT NULL AND currency IS NOT NULL
GROUP BY player_id, ref, delta
ON CONFLICT (player_id, game, day) DO NOTHING;

-- Opt-in DM reminders (/settings reminders): off by default.
ALTER TABLE players ADD COLUMN reminders INTEGER NOT NULL DEFAULT 0 CHECK (reminders IN (0, 1));
CREATE INDEX players_with_reminders ON players (id) WHERE reminders = 1;
