"""The outbox delivered to the emulator by the real deliverer, shared by the delivery tests: a world of
services and a channel, messages queued, and a deliverer started again as after a restart."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest_asyncio

from core.clock import ManualClock
from core.settings import Settings
from discord_app.delivery import Deliverer
from emulator import DiscordEmulator
from emulator.world import Channel, User
from services.infra import outbox
from services.infra.container import Services, build_services
from services.infra.messages import MessageSpec, Target, Text


@dataclass
class World:
    emu: DiscordEmulator
    services: Services
    channel: Channel
    carol: User  # refuses DMs


@pytest_asyncio.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    emu = DiscordEmulator()
    guild = emu.add_guild("Club", locale="fr")
    channel = emu.add_channel(guild, "parties")
    carol = emu.add_user("carol", dms_closed=True)
    settings = Settings(_env_file=None, discord_token=emu.bot_token, database_path=tmp_path / "bot.sqlite3")
    services = await build_services(settings, ManualClock())
    try:
        async with emu:
            yield World(emu, services, channel, carol)
    finally:
        await services.close()


async def restarted_deliverer(world: World) -> tuple[Deliverer, discord.Client]:
    """A new client and deliverer, as after a restart (REST only: delivery needs no gateway)."""
    client = discord.Client(intents=discord.Intents.none())
    await client.login(world.emu.bot_token)
    return Deliverer(client, world.services), client


async def queue(world: World, target: Target, text: str) -> int:
    now = world.services.clock.now()
    spec = MessageSpec(content=Text.raw(text))
    return await world.services.db.write(lambda conn: outbox.enqueue(conn, now, target, spec))
