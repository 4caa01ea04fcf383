-- HOSS TCG: the Arena's weekly seasons of each server (« L'Arène »), docs/hoss/arena.md.

-- A season is named by its server and the Paris date of its Monday. It closes at the next Monday 00:00
-- Paris ("dimanche minuit"): the transition 'open' -> 'closed' is made once, by a conditional UPDATE in
-- the unit that pays the rewards and releases the decks. `seed` (secret until the close) drives the
-- season's matchmaking draws; `commitment` is its SHA-256, published at the season's opening.
CREATE TABLE hoss_arena_seasons (
    guild_id     INTEGER NOT NULL,
    season       TEXT    NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    seed         TEXT    NOT NULL,
    commitment   TEXT    NOT NULL,
    opened_at    TEXT    NOT NULL,
    ranked_at    TEXT,                              -- the last hourly ranking
    board_item   INTEGER REFERENCES outbox(id),     -- the ranking post, edited each hour
    closed_at    TEXT,
    PRIMARY KEY (guild_id, season)
);

-- One row per registered player and season. `place` is the player's place in the last hourly ranking
-- (NULL until the first ranking after registering); `reached_at` is when the player's points last changed
-- (or registration), the ranking's second tie-break. `deck_a`/`deck_b` are the saved decks as the
-- battle reads them (JSON PlayerSetup extra), the ones opponents face until the next save.
CREATE TABLE hoss_arena_entries (
    guild_id       INTEGER NOT NULL,
    season         TEXT    NOT NULL,
    player_id      INTEGER NOT NULL REFERENCES players(id),
    points         INTEGER NOT NULL DEFAULT 0 CHECK (points >= 0),
    attack_wins    INTEGER NOT NULL DEFAULT 0 CHECK (attack_wins >= 0),
    reached_at     TEXT    NOT NULL,
    registered_at  TEXT    NOT NULL,
    saved_at       TEXT    NOT NULL,
    deck_a         TEXT    NOT NULL,
    deck_b         TEXT    NOT NULL,
    place          INTEGER CHECK (place >= 1),
    reward         INTEGER CHECK (reward >= 0),     -- set at the close
    PRIMARY KEY (guild_id, season, player_id),
    FOREIGN KEY (guild_id, season) REFERENCES hoss_arena_seasons (guild_id, season)
);
-- One Arena per player and week across every server: the HOSS wallet is shared by all servers.
CREATE UNIQUE INDEX hoss_arena_one_server ON hoss_arena_entries (season, player_id);
CREATE INDEX hoss_arena_by_place ON hoss_arena_entries (guild_id, season, place);

-- Every attack: the opponent drawn (uniform among `candidates`, the window of the last hourly ranking
-- less the last hour's opponents, with the season's seed and the attacker's attack number), then its
-- result, settled once (status 'drawn' -> 'won'/'lost'/'tie' by a conditional UPDATE in the unit that
-- moves points and pays gold). With the revealed seed, anyone can recompute each draw.
CREATE TABLE hoss_arena_attacks (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    season       TEXT    NOT NULL,
    attacker_id  INTEGER NOT NULL REFERENCES players(id),
    defender_id  INTEGER NOT NULL REFERENCES players(id),
    number       INTEGER NOT NULL CHECK (number >= 1),  -- the attacker's n-th attack this season
    candidates   TEXT    NOT NULL,                       -- JSON list of player ids, in ranking order
    status       TEXT    NOT NULL DEFAULT 'drawn' CHECK (status IN ('drawn', 'won', 'lost', 'tie')),
    battle_ref   TEXT,                                   -- the battle that decided it
    drawn_at     TEXT    NOT NULL,
    settled_at   TEXT,
    UNIQUE (guild_id, season, attacker_id, number),
    FOREIGN KEY (guild_id, season) REFERENCES hoss_arena_seasons (guild_id, season)
);
CREATE INDEX hoss_arena_attacks_recent ON hoss_arena_attacks (attacker_id, drawn_at);
-- One attack at a time per player: a new draw waits for the previous battle's result.
CREATE UNIQUE INDEX hoss_arena_one_attack ON hoss_arena_attacks (attacker_id) WHERE status = 'drawn';
