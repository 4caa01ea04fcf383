-- HOSS TCG: the daily raffle of each server (« La tombola »), drawn at 20:00 Paris time with a
-- commit-reveal seed (engine/fair_draw.py, docs/hoss/raffle.md).

-- One raffle per server and draw day (the Paris date of its 20:00 draw). `seed` stays secret while the
-- raffle is open; `commitment` (SHA-256 of the seed) is shown from its creation, before any ticket.
-- The draw is the transition status 'open' -> 'drawn', made once by a conditional UPDATE in the unit
-- that credits the winners. `carried_in` is taken at the draw from the server's previous drawn raffle
-- (`carry_taken` marks that raffle), so an indivisible remainder is paid exactly once.
CREATE TABLE hoss_raffles (
    guild_id        INTEGER NOT NULL,
    day             TEXT    NOT NULL,
    seed            TEXT    NOT NULL,
    commitment      TEXT    NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'drawn')),
    opened_at       TEXT    NOT NULL,
    tickets         INTEGER CHECK (tickets >= 0),
    carried_in      INTEGER CHECK (carried_in >= 0),
    pot             INTEGER CHECK (pot >= 0),
    share           INTEGER CHECK (share >= 0),
    carried_out     INTEGER CHECK (carried_out >= 0),
    carry_taken     INTEGER NOT NULL DEFAULT 0 CHECK (carry_taken IN (0, 1)),
    entries_digest  TEXT,
    drawn_at        TEXT,
    PRIMARY KEY (guild_id, day)
);
CREATE INDEX hoss_raffles_open ON hoss_raffles (status, day);

-- Tickets in the order sold; `winner` is the place in the draw (1 = drawn first), NULL for the others.
-- One ticket per player and draw day across every server: the wallet is shared by all servers.
CREATE TABLE hoss_raffle_tickets (
    guild_id   INTEGER NOT NULL,
    day        TEXT    NOT NULL,
    number     INTEGER NOT NULL CHECK (number >= 1),
    player_id  INTEGER NOT NULL REFERENCES players(id),
    bought_at  TEXT    NOT NULL,
    winner     INTEGER CHECK (winner >= 1),
    PRIMARY KEY (guild_id, day, number),
    FOREIGN KEY (guild_id, day) REFERENCES hoss_raffles (guild_id, day)
);
CREATE UNIQUE INDEX hoss_raffle_one_ticket_a_day ON hoss_raffle_tickets (day, player_id);
