-- An outbox item may edit a message sent by an earlier item (a duel's public message, edited after each
-- round): `edit_of` names that item; its `sent_message_id` is the message to edit. Items to one target
-- leave in order, so the original is always sent before its edits.
ALTER TABLE outbox ADD COLUMN edit_of INTEGER REFERENCES outbox(id);
