"""A channel post Discord refuses because the bot may not post there (403, 50001 or 50013) is recorded as
undeliverable with the permissions it needed, never retried, and the game's players are told by DM."""

from __future__ import annotations

import sqlite3
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
from services.infra.messages import Embed, MessageSpec, Target, Text


@dataclass
class Setup:
    emu: DiscordEmulator
    services: Services
    deliverer: Deliverer
    channel: Channel
    alice: User
    bob: User


@pytest_asyncio.fixture
async def setup(tmp_path: Path) -> AsyncIterator[Setup]:
    emu = DiscordEmulator()
    guild = emu.add_guild("Club", locale="fr")
    channel = emu.add_channel(guild, "parties")
    alice, bob = emu.add_user("alice", locale="fr"), emu.add_user("bob")
    settings = Settings(_env_file=None, discord_token=emu.bot_token, database_path=tmp_path / "bot.sqlite3")
    services = await build_services(settings, ManualClock())
    client = discord.Client(intents=discord.Intents.none())
    try:
        async with emu:
            await client.login(emu.bot_token)  # REST only: delivery needs no gateway
            yield Setup(emu, services, Deliverer(client, services), channel, alice, bob)
            await client.close()
    finally:
        await services.close()


async def queue(setup: Setup, channel_id: int, text: str, *, embed: bool = False) -> int:
    now = setup.services.clock.now()
    embeds = (Embed(description=Text.raw("board")),) if embed else ()
    spec = MessageSpec(content=Text.raw(text), embeds=embeds)
    target = Target("channel", channel_id, players=(setup.alice.id, setup.bob.id), guild_id=None)
    return await setup.services.db.write(lambda conn: outbox.enqueue(conn, now, target, spec))


def row(setup: Setup, item_id: int) -> sqlite3.Row:
    with sqlite3.connect(setup.services.settings.database_path) as conn:
        conn.row_factory = sqlite3.Row
        found: sqlite3.Row | None = conn.execute("SELECT * FROM outbox WHERE id = ?", (item_id,)).fetchone()
    assert found is not None
    return found


async def test_a_post_the_bot_may_not_make_is_undeliverable_and_the_players_are_told(setup: Setup) -> None:
    setup.emu.world.deny_bot(setup.channel, "send_messages")
    item = await queue(setup, setup.channel.id, "Tour 3")

    await setup.deliverer.flush()

    refused = row(setup, item)
    assert refused["state"] == "failed"
    assert refused["undeliverable"] == "view_channel,send_messages"
    assert refused["last_error"].startswith("403 50013")
    assert setup.emu.channel_messages(setup.channel) == []
    assert await setup.services.outbox.next_due_at() is None  # not retried
    [to_alice] = setup.emu.dm_messages(setup.alice)
    [to_bob] = setup.emu.dm_messages(setup.bob)
    assert f"<#{setup.channel.id}>" in to_alice.content
    assert "• Envoyer des messages" in to_alice.content
    assert to_bob.content == to_alice.content  # channel words follow the bot's default language


async def test_a_hidden_channel_names_view_channel(setup: Setup) -> None:
    setup.emu.world.deny_bot(setup.channel, "view_channel")
    item = await queue(setup, setup.channel.id, "Tour 3", embed=True)

    await setup.deliverer.flush()

    assert row(setup, item)["undeliverable"] == "view_channel"
    [dm] = setup.emu.dm_messages(setup.alice)
    assert "• Voir les salons" in dm.content
    assert "Intégrer des liens" not in dm.content


async def test_a_thread_post_with_an_embed_names_what_a_thread_needs(setup: Setup) -> None:
    setup.emu.world.add_thread(setup.channel, "Partie 1", owner=setup.emu.bot_user)
    thread = setup.emu.channel("Partie 1")
    setup.emu.world.deny_bot(setup.channel, "embed_links")
    item = await queue(setup, thread.id, "Tour 3", embed=True)

    await setup.deliverer.flush()

    assert row(setup, item)["undeliverable"] == "view_channel,send_messages_in_threads,embed_links"


async def test_players_are_told_once_until_a_post_goes_through_again(setup: Setup) -> None:
    setup.emu.world.deny_bot(setup.channel, "send_messages")
    await queue(setup, setup.channel.id, "Tour 3")
    await queue(setup, setup.channel.id, "Tour 4")
    await setup.deliverer.flush()
    assert len(setup.emu.dm_messages(setup.alice)) == 1

    setup.emu.world.allow_bot(setup.channel)
    await queue(setup, setup.channel.id, "Tour 5")
    await setup.deliverer.flush()
    setup.emu.world.deny_bot(setup.channel, "send_messages")
    await queue(setup, setup.channel.id, "Tour 6")
    await setup.deliverer.flush()

    assert [m.content for m in setup.emu.channel_messages(setup.channel)] == ["Tour 5"]
    assert len(setup.emu.dm_messages(setup.alice)) == 2
    assert len(setup.emu.dm_messages(setup.bob)) == 2


async def test_a_refused_post_is_marked_once(setup: Setup) -> None:
    item = await queue(setup, setup.channel.id, "Tour 3")
    assert await setup.services.outbox.mark_undeliverable(item, ("view_channel",), "403 50001")
    assert not await setup.services.outbox.mark_undeliverable(item, ("view_channel",), "403 50001")

    await setup.deliverer.flush()

    assert len(setup.emu.dm_messages(setup.alice)) == 1
