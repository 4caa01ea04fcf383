-- HOSS ranked battles: the outbox item standing for the battle's public message (the interaction response
-- that showed it, recorded as sent), whose later versions the outbox makes round by round (`edit_of`).
-- NULL until the message is shown; `/hoss battle` showing the battle again moves it to the new message.
ALTER TABLE hoss_battles ADD COLUMN message_item INTEGER REFERENCES outbox(id);
