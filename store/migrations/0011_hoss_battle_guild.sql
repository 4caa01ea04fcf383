-- HOSS ranked battles: the server where each battle was started (NULL: in direct messages, or started
-- before this column existed). A battle is public in its server (its message is posted in a channel
-- there), so its finished replay is open to that server's members; its controls answer only there.
ALTER TABLE hoss_battles ADD COLUMN guild_id INTEGER;
