"""A server's settings are read once, then kept until a unit changes them (services/infra/guild_settings.py)."""

from __future__ import annotations

from core.clock import ManualClock
from services.infra.guild_settings import GuildSettingsService, read
from store.db import Database

GUILD = 5


async def test_settings_are_read_once_then_kept(db: Database, clock: ManualClock) -> None:
    guilds = GuildSettingsService(db, clock)
    first = await guilds.get(GUILD)
    reads = db.reads
    assert await guilds.get(GUILD) == first
    assert db.reads == reads


async def test_a_change_is_seen_by_the_very_next_read(db: Database, clock: ManualClock) -> None:
    guilds = GuildSettingsService(db, clock)
    assert (await guilds.get(GUILD)).locale is None
    await guilds.update(GUILD, "locale", "en")
    assert (await guilds.get(GUILD)).locale == "en"
    await guilds.update(GUILD, "deadline_preset", "fast")
    settings = await guilds.get(GUILD)
    assert (settings.locale, settings.deadline_preset) == ("en", "fast")


async def test_the_servers_discord_language_remembered_is_seen_next(db: Database, clock: ManualClock) -> None:
    guilds = GuildSettingsService(db, clock)
    assert (await guilds.get(GUILD)).locale is None  # kept: no language yet
    assert await guilds.public_locale(GUILD, "en") == "en"
    assert (await guilds.get(GUILD)).locale == "en"
    assert await guilds.public_locale(GUILD, "fr") == "en"  # remembered, not replaced


async def test_a_read_that_raced_with_a_change_is_not_kept(db: Database, clock: ManualClock) -> None:
    """A read that began before a change and ended after it must not be kept (`generation`)."""
    guilds = GuildSettingsService(db, clock)
    generation = guilds.cache.generation
    stale = await db.read(lambda conn: read(conn, GUILD))
    await guilds.update(GUILD, "locale", "en")
    guilds.cache.put(GUILD, stale, generation)
    assert (await guilds.get(GUILD)).locale == "en"
