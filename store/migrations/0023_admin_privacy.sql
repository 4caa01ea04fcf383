-- Admin tools and personal data: the audit log of every admin action, server bans, paused games, and the
-- one update the ledger allows (docs/privacy.md).

-- Every admin action, in the server where it ran (NULL: in direct messages); `/setup audit` pages it.
CREATE TABLE admin_audit (
    id         INTEGER PRIMARY KEY,
    at         TEXT    NOT NULL,
    guild_id   INTEGER,
    actor_id   INTEGER NOT NULL,                  -- who acted (an owner or a server manager)
    action     TEXT    NOT NULL,                  -- a stable code: grant, take, give_card, ban, pause...
    target_id  INTEGER,                           -- the player acted on, if any
    game       TEXT,
    details    TEXT    NOT NULL DEFAULT '{}'      -- JSON: amount, currency, card, reason...
);
CREATE INDEX admin_audit_by_guild ON admin_audit (guild_id, id);

-- A player kept out of the games of one server by its managers. No foreign key: a ban outlives the
-- player's erasure (/privacy delete), and may name someone who never played.
CREATE TABLE guild_bans (
    guild_id   INTEGER NOT NULL,
    player_id  INTEGER NOT NULL,
    banned_by  INTEGER NOT NULL,
    reason     TEXT    NOT NULL,
    banned_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, player_id)
);

-- A game paused in one server: its commands and buttons answer "paused" there.
CREATE TABLE game_pauses (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    paused_by  INTEGER NOT NULL,
    paused_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, game)
);

-- The ledger stays append-only for what it counts. The one update allowed is the erasure of a player
-- (/privacy delete): a row of a real player (a Discord id, positive) moves to an anonymous player (a
-- negative id no Discord user can have), its ref rewritten without the Discord id; amounts, cards, times
-- and reasons stay as they were, and an anonymous row never moves again.
DROP TRIGGER ledger_is_append_only_update;
CREATE TRIGGER ledger_is_append_only_update BEFORE UPDATE ON ledger
WHEN NOT (
    OLD.player_id > 0 AND NEW.player_id < 0
    AND NEW.id = OLD.id AND NEW.at = OLD.at AND NEW.delta = OLD.delta AND NEW.reason = OLD.reason
    AND NEW.currency IS OLD.currency AND NEW.card_id IS OLD.card_id AND NEW.balance_after IS OLD.balance_after
)
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;
