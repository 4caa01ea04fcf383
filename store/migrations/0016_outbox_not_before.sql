-- An outbox item may wait until a given time (`not_before`, NULL: due at once): a HOSS battle's rounds
-- are resolved in one unit, which queues one edit of the battle's public message per round, each due at
-- its own time on the bot's clock, so the rounds are shown one by one, restarts included. A timed item
-- holds back only the later edits of its own message, not the other messages of its channel.
ALTER TABLE outbox ADD COLUMN not_before TEXT;
