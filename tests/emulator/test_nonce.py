"""Discord's `enforce_nonce` on message creation: a client re-sending a post (after a lost response or a
crash) gets the first message back instead of a second one, for a few minutes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import discord
import pytest
import pytest_asyncio
from discord.http import Route

from emulator import DiscordEmulator
from emulator.core import NONCE_WINDOW_MS
from emulator.world import DEFAULT_EPOCH
from tests.emulator.conftest import EmulatedBot


def text_channel(bot: EmulatedBot, emu: DiscordEmulator, name: str) -> discord.TextChannel:
    channel = bot.get_channel(emu.channel(name).id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_a_repeated_nonce_returns_the_first_message(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    games = text_channel(bot, emu, "games")

    first = await games.send("round 1", nonce="abc0000000p1")
    again = await games.send("round 1", nonce="abc0000000p1")

    assert again.id == first.id
    assert again.nonce == first.nonce == "abc0000000p1"
    assert [m.content for m in emu.channel_messages(emu.channel("games"))] == ["round 1"]
    posts = [r for r in emu.requests if r.method == "POST" and r.path.endswith("/messages")]
    assert [(r.json["nonce"], r.json["enforce_nonce"]) for r in posts] == [("abc0000000p1", True)] * 2
    emu.assert_no_errors()


async def test_a_nonce_is_per_author_and_channel_and_other_nonces_post(
    emu: DiscordEmulator, bot: EmulatedBot
) -> None:
    games, general = text_channel(bot, emu, "games"), text_channel(bot, emu, "general")

    await games.send("a", nonce="n1")
    await general.send("b", nonce="n1")  # same nonce, other channel: a message of its own
    await games.send("c", nonce="n2")
    await games.send("d")  # discord.py draws a random nonce of its own

    assert [m.content for m in emu.channel_messages(emu.channel("games"))] == ["a", "c", "d"]
    assert [m.content for m in emu.channel_messages(emu.channel("general"))] == ["b"]
    emu.assert_no_errors()


async def test_without_enforce_nonce_the_nonce_is_only_echoed(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=emu.channel("games").id)

    replies = [await bot.http.request(route, json={"content": "x", "nonce": 42}) for _ in range(2)]

    assert [r["nonce"] for r in replies] == [42, 42]
    assert replies[0]["id"] != replies[1]["id"]
    assert len(emu.channel_messages(emu.channel("games"))) == 2
    emu.assert_no_errors()


async def test_a_nonce_longer_than_25_characters_is_refused(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    with pytest.raises(discord.HTTPException) as refused:
        await text_channel(bot, emu, "games").send("x", nonce="n" * 26)

    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert emu.channel_messages(emu.channel("games")) == []
    assert len(emu.errors) == 1
    assert "nonce" in emu.errors[0]
    emu.errors.clear()


@pytest_asyncio.fixture
async def timed() -> AsyncIterator[tuple[DiscordEmulator, EmulatedBot, list[float]]]:
    """An emulator whose time is set by the test, and the test bot connected to it."""
    now = [DEFAULT_EPOCH.timestamp() + 3600]
    emulator = DiscordEmulator(clock=lambda: now[0])
    guild = emulator.add_guild("Test Server")
    emulator.add_channel(guild, "games")
    async with emulator:
        client = EmulatedBot(guild.id)
        task = asyncio.create_task(client.start(emulator.bot_token))
        try:
            await emulator.wait_ready()
            yield emulator, client, now
        finally:
            await client.close()
            await task


async def test_the_de_duplication_lasts_a_window(
    timed: tuple[DiscordEmulator, EmulatedBot, list[float]],
) -> None:
    emu, bot, now = timed
    games = text_channel(bot, emu, "games")
    first = await games.send("hello", nonce="late")

    now[0] += NONCE_WINDOW_MS / 1000 - 1
    assert (await games.send("hello", nonce="late")).id == first.id
    now[0] += 2  # past the window: the same nonce creates a new message, as on Discord
    later = await games.send("hello", nonce="late")

    assert later.id != first.id
    assert len(emu.channel_messages(emu.channel("games"))) == 2
    emu.assert_no_errors()
