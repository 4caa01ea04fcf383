-- Durable jobs (deadlines, recurring rewards) and the outbox of messages Discord must still receive.

-- A job fires once: it is claimed by `UPDATE ... SET state = 'done' WHERE id = ? AND state = 'due'` in the same
-- transaction as its effects. A recurring occurrence is one row per (kind, period_key), so a rerun never pays
-- twice; one-off jobs leave period_key NULL (NULLs never collide in a UNIQUE constraint).
CREATE TABLE jobs (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL,
    due_at      TEXT    NOT NULL,                   -- absolute UTC (core.clock.to_db), sortable as text
    payload     TEXT    NOT NULL DEFAULT '{}',      -- JSON object handed to the handler
    state       TEXT    NOT NULL DEFAULT 'due'
                CHECK (state IN ('due', 'done', 'failed', 'cancelled')),
    period_key  TEXT,
    attempts    INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error  TEXT,
    created_at  TEXT    NOT NULL,
    fired_at    TEXT,
    UNIQUE (kind, period_key)
);
CREATE INDEX jobs_by_state_due ON jobs (state, due_at);

-- A message exists here iff the transaction that produced it committed; the Discord layer delivers it later.
CREATE TABLE outbox (
    id                   INTEGER PRIMARY KEY,
    created_at           TEXT    NOT NULL,
    target_kind          TEXT    NOT NULL CHECK (target_kind IN ('channel', 'dm')),
    target_id            INTEGER NOT NULL,          -- channel/thread id, or the recipient's user id for a DM
    fallback_channel_id  INTEGER,                   -- where a closed-DM recipient gets a private "show" button
    payload              TEXT    NOT NULL,          -- services.messages.MessageSpec.to_json()
    state                TEXT    NOT NULL DEFAULT 'pending'
                         CHECK (state IN ('pending', 'sent', 'fallback', 'failed')),
    attempts             INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at      TEXT    NOT NULL,
    last_error           TEXT,
    sent_message_id      INTEGER
);
CREATE INDEX outbox_by_state_next ON outbox (state, next_attempt_at);
-- Messages to one place leave in the order they were written: only the oldest pending one per target is due.
CREATE INDEX outbox_pending_by_target ON outbox (target_kind, target_id, id) WHERE state = 'pending';
