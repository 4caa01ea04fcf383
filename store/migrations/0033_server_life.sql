-- Server life: drops in the games channel, wishlists, shown-off pulls kept for the weekly recap
-- (docs/drops.md). Nothing here is per game: a drop's prize names its game and card like `cards` does.

-- A server's drops, chosen with /setup drops: off until a manager turns them on. `games` lists the game
-- keys drops may come from ('' = every game that has drops). `last_active_at` is written at most once a
-- minute by the activity of slash commands there; `next_job` is the pending job that may open the next
-- drop (NULL: none is armed; the next activity arms one).
CREATE TABLE drop_settings (
    guild_id        INTEGER PRIMARY KEY,
    rhythm          TEXT    NOT NULL DEFAULT 'off' CHECK (rhythm IN ('off', 'rare', 'normal', 'frequent')),
    games           TEXT    NOT NULL DEFAULT '',
    last_active_at  TEXT,
    next_job        INTEGER,
    updated_at      TEXT    NOT NULL
);

-- Who used a slash command in which server, and the last Paris day they did: the count of a day's
-- players sets how many drops the server may have that day, and a wishlist is read out only in servers
-- where its player was seen. Written once per player, server and day at most.
CREATE TABLE guild_players (
    guild_id    INTEGER NOT NULL,
    player_id   INTEGER NOT NULL REFERENCES players (id),
    first_seen  TEXT    NOT NULL,
    last_day    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, player_id)
);
CREATE INDEX guild_players_by_day ON guild_players (guild_id, last_day);

-- One drop: its prize (JSON: a card and its copy's attributes, or an amount of a currency), the
-- commit-reveal draw's secret seed and published commitment, and how it ended. `day` is the Paris date
-- it appeared (the server's daily cap), `won_day` the Paris date it was won (the winner's daily cap).
CREATE TABLE drops (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    game          TEXT    NOT NULL,
    prize         TEXT    NOT NULL,
    status        TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'drawn', 'empty', 'void')),
    seed          TEXT    NOT NULL,
    commitment    TEXT    NOT NULL,
    digest        TEXT,
    entrants      INTEGER NOT NULL DEFAULT 0,
    skipped       INTEGER NOT NULL DEFAULT 0,
    winner_id     INTEGER,
    copy_id       INTEGER,
    won_day       TEXT,
    message_item  INTEGER REFERENCES outbox (id),
    day           TEXT    NOT NULL,
    opened_at     TEXT    NOT NULL,
    closes_at     TEXT    NOT NULL,
    closed_at     TEXT
);
CREATE INDEX drops_by_guild_day ON drops (guild_id, day);
CREATE INDEX drops_won ON drops (winner_id, won_day);

-- Who clicked « Prendre » within the window, in click order: the list the draw is made from.
CREATE TABLE drop_entries (
    drop_id     INTEGER NOT NULL REFERENCES drops (id),
    player_id   INTEGER NOT NULL,
    position    INTEGER NOT NULL CHECK (position >= 1),
    entered_at  TEXT    NOT NULL,
    PRIMARY KEY (drop_id, player_id),
    UNIQUE (drop_id, position)
);

-- A player's wished cards, at most 10 per game (checked by the service in the unit that adds one).
CREATE TABLE wishlists (
    player_id  INTEGER NOT NULL REFERENCES players (id),
    game       TEXT    NOT NULL,
    card_key   TEXT    NOT NULL,
    added_at   TEXT    NOT NULL,
    PRIMARY KEY (player_id, game, card_key)
);
CREATE INDEX wishlists_by_card ON wishlists (game, card_key);

-- The DM « someone showed off a card you wish for » sent once per player, card and Paris day.
CREATE TABLE wish_notices (
    player_id  INTEGER NOT NULL REFERENCES players (id),
    game       TEXT    NOT NULL,
    card_key   TEXT    NOT NULL,
    day        TEXT    NOT NULL,
    PRIMARY KEY (player_id, game, card_key, day)
);

-- Every pull shown off in public (« Montrer »), for the weekly recap's rarest pulls.
CREATE TABLE showoff_log (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    player_id  INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    card_key   TEXT    NOT NULL,
    copy       TEXT    NOT NULL,
    shown_at   TEXT    NOT NULL
);
CREATE INDEX showoff_log_by_guild ON showoff_log (guild_id, shown_at);

-- Wishlist alerts (a mention on a drop of a wished card, a DM when one is shown off): on by default,
-- /settings wishlist turns them off.
ALTER TABLE players ADD COLUMN wish_alerts INTEGER NOT NULL DEFAULT 1 CHECK (wish_alerts IN (0, 1));
