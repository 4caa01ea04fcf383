"""Per-server settings: where announcements and game threads go, the default turn deadline, and the
language of the server's public posts.

Kept in memory per server (`GuildSettingsCache`): the language of public posts is asked at every click on
a public message and every post the outbox renders (a Pillz move asked it once: one database read in
eight), and a server's settings change only by /setup. Every unit that writes `guild_settings` calls
`forget` for its server and announces `GUILD_TOPIC` with the server's id, as `access.AccessCache` does,
so every process sharing the database forgets that server once the commit is known.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from core.clock import Clock, to_db
from core.errors import BadInput
from core.settings import SUPPORTED_LOCALES
from services.infra.keyed_cache import KeyedCache
from store.connection import Connection
from store.db import Database, announce

DeadlinePreset = Literal["fast", "standard", "relaxed"]
# Play-by-post turns (Chocobataille's 24 h rule is "standard"); games may scale these for fast modes.
DEADLINE_PRESETS: dict[str, timedelta] = {
    "fast": timedelta(hours=12),
    "standard": timedelta(hours=24),
    "relaxed": timedelta(hours=48),
}


@dataclass(frozen=True)
class GuildSettings:
    guild_id: int
    announce_channel_id: int | None = None
    games_channel_id: int | None = None
    deadline_preset: str = "standard"
    locale: str | None = None  # public posts' language: /setup language, else the server's Discord one

    @property
    def turn_deadline(self) -> timedelta:
        return DEADLINE_PRESETS[self.deadline_preset]


_COLUMNS = {"announce_channel_id", "games_channel_id", "deadline_preset", "locale"}
GUILD_TOPIC = "guild_settings"  # announced with the server's id by every unit that changes its settings
GUILD_CACHE_SIZE = 10_000  # servers kept; the oldest read goes first


class GuildSettingsCache(KeyedCache[GuildSettings]):
    """Servers' settings, by server id (`GUILD_TOPIC`)."""

    def __init__(self, capacity: int = GUILD_CACHE_SIZE) -> None:
        super().__init__(capacity)


def read(conn: Connection, guild_id: int) -> GuildSettings:
    row = conn.execute(
        "SELECT announce_channel_id, games_channel_id, deadline_preset, locale FROM guild_settings"
        " WHERE guild_id = ?",
        (guild_id,),
    ).fetchone()
    if row is None:
        return GuildSettings(guild_id)
    return GuildSettings(guild_id, row[0], row[1], row[2], row[3])


class GuildSettingsService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self.cache = GuildSettingsCache()
        db.subscribe_keys(GUILD_TOPIC, self.cache.changed)

    async def get(self, guild_id: int) -> GuildSettings:
        return await self.cache.get_or_read(guild_id, lambda: self.db.read(lambda conn: read(conn, guild_id)))

    def _changed(self, conn: Connection, guild_id: int) -> None:
        """In the unit that writes the server's settings: no process keeps the former ones."""
        self.cache.forget(guild_id)
        announce(conn, GUILD_TOPIC, str(guild_id))

    async def public_locale(self, guild_id: int, discord_locale: str | None = None) -> str | None:
        """The language of the server's public posts. The first time a server is seen with its Discord
        language (`discord_locale`, already one we speak), that language is remembered, so that later
        posts the outbox sends without an interaction keep it; /setup language overrides it."""
        settings = await self.get(guild_id)
        if settings.locale is not None or discord_locale is None:
            return settings.locale
        now = to_db(self.clock.now())

        def unit(conn: Connection) -> str | None:
            conn.execute(
                "INSERT INTO guild_settings (guild_id, locale, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at"
                " WHERE guild_settings.locale IS NULL",
                (guild_id, discord_locale, now),
            )
            self._changed(conn, guild_id)
            return read(conn, guild_id).locale

        return await self.db.write(unit)

    async def update(
        self, guild_id: int, column: str, value: int | str | None, *, announcement: bool = False
    ) -> GuildSettings:
        """`announcement`: the channel given is an announcement channel (Discord's type 5). Games open
        public threads, which such a channel cannot hold (its threads are announcement threads), so it
        is refused as the games channel; announcements may go there."""
        if column not in _COLUMNS:
            raise ValueError(column)
        if column == "locale" and value not in SUPPORTED_LOCALES:
            raise ValueError(value)
        if column == "deadline_preset" and value not in DEADLINE_PRESETS:
            raise BadInput("error.bad_preset", preset=str(value))
        if column == "games_channel_id" and announcement:
            raise BadInput("setup.announcement_channel", channel=f"<#{value}>")
        now = to_db(self.clock.now())

        def unit(conn: Connection) -> GuildSettings:
            conn.execute(
                f"INSERT INTO guild_settings (guild_id, {column}, updated_at) VALUES (?, ?, ?)"
                f" ON CONFLICT (guild_id) DO UPDATE SET {column} = excluded.{column}, updated_at = excluded.updated_at",
                (guild_id, value, now),
            )
            self._changed(conn, guild_id)
            return read(conn, guild_id)

        return await self.db.write(unit)
