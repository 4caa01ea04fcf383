-- Erasure (/privacy delete, docs/privacy.md): what it cancels is said, and nothing ever moves to an erased
-- player.
--
-- A trade or gift cancelled because one of its parties erased their data says so to the other party:
-- `end_reason` is 'erased' then (NULL for every other end).
ALTER TABLE trades ADD COLUMN end_reason TEXT;

-- An erased player is an anonymous id, negative (no Discord user has one). Their wallets and copies are
-- emptied through the ledger at erasure; from then on nothing may be credited, minted or handed to such an
-- id: a wallet, a copy's owner or a new ledger row with a negative player is refused by the database
-- itself, whatever code path would try (a pending trade, a raffle prize, a defence reward). The ledger's
-- rows moved to the anonymous id by the erasure are updates, which its own trigger governs.
CREATE TRIGGER wallets_never_erased_insert BEFORE INSERT ON wallets
WHEN NEW.player_id < 0
BEGIN
    SELECT RAISE(ABORT, 'an erased player holds nothing');
END;
CREATE TRIGGER wallets_never_erased_update BEFORE UPDATE ON wallets
WHEN NEW.player_id < 0
BEGIN
    SELECT RAISE(ABORT, 'an erased player holds nothing');
END;
CREATE TRIGGER cards_never_erased_insert BEFORE INSERT ON cards
WHEN NEW.owner_id < 0
BEGIN
    SELECT RAISE(ABORT, 'an erased player holds nothing');
END;
CREATE TRIGGER cards_never_erased_update BEFORE UPDATE ON cards
WHEN NEW.owner_id < 0
BEGIN
    SELECT RAISE(ABORT, 'an erased player holds nothing');
END;
CREATE TRIGGER ledger_never_erased_insert BEFORE INSERT ON ledger
WHEN NEW.player_id < 0
BEGIN
    SELECT RAISE(ABORT, 'an erased player holds nothing');
END;
