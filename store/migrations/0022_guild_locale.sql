-- The language of a server's public posts (duel boards, threads, battles, announcements): chosen with
-- /setup language, else the server's Discord language remembered when first seen (NULL: not seen yet).
ALTER TABLE guild_settings ADD COLUMN locale TEXT CHECK (locale IN ('fr', 'en'));
