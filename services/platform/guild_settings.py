"""Per-server settings: where announcements and game threads go, the default turn deadline, and the
language of the server's public posts."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from core.clock import Clock, to_db
from core.errors import BadInput
from core.settings import SUPPORTED_LOCALES
from store.db import Database

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


def read(conn: sqlite3.Connection, guild_id: int) -> GuildSettings:
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

    async def get(self, guild_id: int) -> GuildSettings:
        return await self.db.read(lambda conn: read(conn, guild_id))

    async def public_locale(self, guild_id: int, discord_locale: str | None = None) -> str | None:
        """The language of the server's public posts. The first time a server is seen with its Discord
        language (`discord_locale`, already one we speak), that language is remembered, so that later
        posts the outbox sends without an interaction keep it; /setup language overrides it."""
        settings = await self.get(guild_id)
        if settings.locale is not None or discord_locale is None:
            return settings.locale
        now = to_db(self.clock.now())

        def unit(conn: sqlite3.Connection) -> str | None:
            conn.execute(
                "INSERT INTO guild_settings (guild_id, locale, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at"
                " WHERE guild_settings.locale IS NULL",
                (guild_id, discord_locale, now),
            )
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

        def unit(conn: sqlite3.Connection) -> GuildSettings:
            conn.execute(
                f"INSERT INTO guild_settings (guild_id, {column}, updated_at) VALUES (?, ?, ?)"
                f" ON CONFLICT (guild_id) DO UPDATE SET {column} = excluded.{column}, updated_at = excluded.updated_at",
                (guild_id, value, now),
            )
            return read(conn, guild_id)

        return await self.db.write(unit)
