-- A channel post Discord refuses for good because the bot may not post there (403: it cannot see the
-- channel, 50001, or lacks a permission, 50013) is 'failed' with `undeliverable`: the permissions the
-- post needed there, comma-separated (`view_channel`, or e.g. `send_messages_in_threads,embed_links`).
-- `players` (a JSON list of user ids) names the players of the game the post belongs to: each is told by
-- DM, once per refused channel until a post there goes through again.
ALTER TABLE outbox ADD COLUMN undeliverable TEXT;
ALTER TABLE outbox ADD COLUMN players TEXT NOT NULL DEFAULT '[]';
