-- Players, wallets, card ownership and the append-only ledger that explains every balance.

CREATE TABLE players (
    id          INTEGER PRIMARY KEY,              -- the Discord user id: one player per user, global
    created_at  TEXT    NOT NULL,
    locale      TEXT    CHECK (locale IN ('fr', 'en')),  -- explicit choice; NULL follows the Discord locale
    dms_closed  INTEGER NOT NULL DEFAULT 0 CHECK (dms_closed IN (0, 1))
);

CREATE TABLE wallets (
    player_id  INTEGER NOT NULL REFERENCES players(id),
    currency   TEXT    NOT NULL,
    balance    INTEGER NOT NULL CHECK (balance >= 0),
    PRIMARY KEY (player_id, currency)
) WITHOUT ROWID;

CREATE TABLE cards (
    id          INTEGER PRIMARY KEY,
    game        TEXT    NOT NULL,
    card_key    TEXT    NOT NULL,
    owner_id    INTEGER REFERENCES players(id),    -- NULL once the card is destroyed (sold, sacrificed)
    attrs       TEXT    NOT NULL DEFAULT '{}',     -- per-copy properties as JSON (stars, holo, ...)
    locked_by   TEXT,                              -- a lock (e.g. an arena deck) forbids moving the card
    created_at  TEXT    NOT NULL
);
CREATE INDEX cards_by_owner ON cards (owner_id, game);

CREATE TABLE ledger (
    id             INTEGER PRIMARY KEY,
    at             TEXT    NOT NULL,
    player_id      INTEGER NOT NULL REFERENCES players(id),
    currency       TEXT,
    card_id        INTEGER REFERENCES cards(id),
    delta          INTEGER NOT NULL CHECK (delta <> 0),
    balance_after  INTEGER CHECK (balance_after >= 0),
    reason         TEXT    NOT NULL,
    ref            TEXT,
    CHECK ((currency IS NULL) <> (card_id IS NULL)),
    CHECK (card_id IS NULL OR delta IN (-1, 1))
);
CREATE INDEX ledger_by_player ON ledger (player_id, id);

CREATE TRIGGER ledger_is_append_only_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;
CREATE TRIGGER ledger_is_append_only_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

-- An operation a double click could repeat stores its result under a unique key.
CREATE TABLE idempotency (
    key         TEXT PRIMARY KEY,
    result      TEXT NOT NULL,
    created_at  TEXT NOT NULL
) WITHOUT ROWID;
