-- Trades and gifts between players (services/platform/trades.py, docs/trades.md).
-- A trade is open until both parties confirm the same `version` of the offers (any change of an offer
-- bumps it and so voids the confirmations), then every item moves in one unit and the status becomes
-- 'done'; or it ends 'cancelled' by a party, or 'expired' by its job. A gift is a trade whose items all
-- come from the proposer and which only the proposer confirms. Offered copies are locked with
-- `cards.locked_by = 'trade:<id>'` while the trade is open. Rows are kept: they are the trade log.
CREATE TABLE trades (
    id                  INTEGER PRIMARY KEY,
    kind                TEXT    NOT NULL CHECK (kind IN ('trade', 'gift')),
    game                TEXT    NOT NULL,
    guild_id            INTEGER NOT NULL,
    channel_id          INTEGER,
    proposer_id         INTEGER NOT NULL REFERENCES players(id),
    partner_id          INTEGER NOT NULL REFERENCES players(id),
    status              TEXT    NOT NULL DEFAULT 'open'
                                CHECK (status IN ('open', 'done', 'cancelled', 'expired')),
    version             INTEGER NOT NULL DEFAULT 0,
    proposer_confirmed  INTEGER,
    partner_confirmed   INTEGER,
    expiry_job          INTEGER,
    created_at          TEXT    NOT NULL,
    expires_at          TEXT    NOT NULL,
    ended_at            TEXT,
    ended_by            INTEGER,
    CHECK (proposer_id <> partner_id)
);
CREATE INDEX trades_by_guild ON trades (guild_id, id);
CREATE INDEX trades_by_proposer ON trades (proposer_id, status);
CREATE INDEX trades_by_partner ON trades (partner_id, status);

-- What each party offers: a copy (`card_id`) or an amount of a currency; `value` is its worth in the
-- game's value unit when it was offered (docs/trades.md), summed for the daily cap.
CREATE TABLE trade_items (
    id        INTEGER PRIMARY KEY,
    trade_id  INTEGER NOT NULL REFERENCES trades(id),
    giver_id  INTEGER NOT NULL REFERENCES players(id),
    card_id   INTEGER REFERENCES cards(id),
    currency  TEXT,
    amount    INTEGER NOT NULL CHECK (amount > 0),
    value     INTEGER NOT NULL CHECK (value >= 0),
    CHECK ((card_id IS NULL) <> (currency IS NULL))
);
CREATE UNIQUE INDEX trade_items_one_card ON trade_items (trade_id, card_id);
CREATE UNIQUE INDEX trade_items_one_amount ON trade_items (trade_id, giver_id, currency);
