"""Several gateway connections with shard ids, against real discord.py `AutoShardedBot`s.

Discord's gateway page, "Sharding": a server's events go to the connection whose shard id is
`(guild_id >> 22) % num_shards`, events without a server (DMs) to shard 0, and an IDENTIFY whose shard is
not below its count is closed with 4010.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from emulator import DiscordEmulator
from emulator.gateway import INVALID_SHARD
from emulator.world import Guild

COUNT = 2


class ShardBot(commands.AutoShardedBot):
    """Answers `/where` with its own name and the shard the server is on; records the messages it sees."""

    def __init__(self, name: str, shard_ids: list[int] | None, shard_count: int | None = COUNT) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True
        intents.dm_messages = True
        shards: dict[str, Any] = {"shard_count": shard_count}
        if shard_ids is not None:
            shards["shard_ids"] = shard_ids
        super().__init__(
            command_prefix="!", intents=intents, guild_ready_timeout=0.01, help_command=None, **shards
        )
        self.name = name
        self.seen: list[int | None] = []  # the server of each message event received

    async def setup_hook(self) -> None:
        @self.tree.command(name="where", description="Which process answers")
        @app_commands.allowed_contexts(guilds=True, dms=True)
        async def where(interaction: discord.Interaction) -> None:
            shard = None if interaction.guild is None else interaction.guild.shard_id
            await interaction.response.send_message(f"{self.name} shard {shard}")

        if self.shard_ids is None or 0 in self.shard_ids:
            await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before each shard after the first (Discord's identify rate limit), which
        the emulator does not enforce."""

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(None if message.guild is None else message.guild.id)


def shard_of(guild: Guild, count: int = COUNT) -> int:
    return (guild.id >> 22) % count


@pytest.fixture
async def emu() -> AsyncIterator[DiscordEmulator]:
    emulator = DiscordEmulator()
    for n in range(6):
        emulator.add_guild(f"Server {n}")
    emulator.add_user("alice")
    async with emulator:
        yield emulator
    emulator.assert_no_errors()


def guilds_on(emu: DiscordEmulator, shard: int) -> list[Guild]:
    found = [guild for guild in emu.world.guilds if shard_of(guild) == shard]
    assert found, f"the test needs a server on shard {shard}"
    return found


async def started(emu: DiscordEmulator, *bots: ShardBot, sessions: int) -> list[asyncio.Task[None]]:
    tasks = [asyncio.create_task(bot.start(emu.bot_token)) for bot in bots]
    try:
        await emu.wait_ready(timeout=10, sessions=sessions)
    except BaseException:
        await closed(bots, tasks)
        raise
    return tasks


async def closed(bots: tuple[ShardBot, ...], tasks: list[asyncio.Task[None]]) -> None:
    for bot in bots:
        await bot.close()
    await asyncio.gather(*tasks)


async def test_each_process_gets_the_servers_and_interactions_of_its_shard(emu: DiscordEmulator) -> None:
    bots = (ShardBot("first", [0]), ShardBot("second", [1]))
    tasks = await started(emu, *bots, sessions=2)
    try:
        for shard, bot in enumerate(bots):
            assert {g.id for g in bot.guilds} == {g.id for g in guilds_on(emu, shard)}
        ready = [s.identify_payload for s in emu.gateway.live.values()]
        assert sorted(p["shard"] for p in ready if p is not None) == [[0, COUNT], [1, COUNT]]
        alice = emu.user("alice")
        for shard, bot in enumerate(bots):
            for guild in guilds_on(emu, shard):
                result = await emu.run_command(alice, "where", channel=emu.channel("general", guild))
                assert result.content == f"{bot.name} shard {shard}"
                assert result.interaction.shards == [(shard, COUNT)]
        result = await emu.run_command(alice, "where", channel=emu.dm_channel(alice))
        assert result.content == "first shard None"  # DMs come on shard 0
        assert result.interaction.shards == [(0, COUNT)]
    finally:
        await closed(bots, tasks)


async def test_message_events_go_to_the_shard_of_their_server_and_dms_to_shard_zero(
    emu: DiscordEmulator,
) -> None:
    bots = (ShardBot("first", [0]), ShardBot("second", [1]))
    tasks = await started(emu, *bots, sessions=2)
    try:
        alice = emu.user("alice")
        for guild in emu.world.guilds:
            await emu.post_message(alice, "hello", channel=emu.channel("general", guild))
        await emu.post_message(alice, "psst", channel=emu.dm_channel(alice))
        await emu.gateway.barrier()
        first, second = bots
        assert sorted(g for g in first.seen if g is not None) == sorted(g.id for g in guilds_on(emu, 0))
        assert sorted(g for g in second.seen if g is not None) == sorted(g.id for g in guilds_on(emu, 1))
        assert first.seen.count(None) == 1
        assert None not in second.seen
    finally:
        await closed(bots, tasks)


async def test_one_process_may_hold_every_shard_from_the_recommended_count(emu: DiscordEmulator) -> None:
    """Without a shard count discord.py asks GET /gateway/bot, whose `shards` the emulator answers."""
    emu.gateway.recommended_shards = 3
    bot = ShardBot("all", None, shard_count=None)
    tasks = await started(emu, bot, sessions=3)
    try:
        assert bot.shard_count == 3
        assert sorted(s for s in emu.gateway.live if s is not None) == [(0, 3), (1, 3), (2, 3)]
        assert {g.id for g in bot.guilds} == {g.id for g in emu.world.guilds}
        guild = emu.world.guilds[0]
        result = await emu.run_command(emu.user("alice"), "where", channel=emu.channel("general", guild))
        assert result.interaction.shards == [(shard_of(guild, 3), 3)]
    finally:
        await closed((bot,), tasks)


async def test_the_recommended_count_is_one_shard_per_thousand_servers(emu: DiscordEmulator) -> None:
    assert emu.gateway.shard_count() == 1
    for n in range(1000):
        emu.add_guild(f"Crowd {n}")
    assert emu.gateway.shard_count() == 2


async def test_a_shard_past_the_count_is_closed_with_invalid_shard(emu: DiscordEmulator) -> None:
    bot = ShardBot("wrong", [2])
    with pytest.raises(discord.ConnectionClosed) as caught:
        async with asyncio.timeout(10):
            await bot.start(emu.bot_token)
    await bot.close()
    assert caught.value.code == INVALID_SHARD
    assert emu.gateway.refused == [(INVALID_SHARD, "shard 2 is not in 0..1")]
    assert emu.gateway.live == {}


async def test_an_action_in_a_server_no_connection_receives_fails_at_once(emu: DiscordEmulator) -> None:
    bots = (ShardBot("first", [0]),)
    tasks = await started(emu, *bots, sessions=1)
    try:
        guild = guilds_on(emu, 1)[0]
        with pytest.raises(Exception, match=f"no gateway connection receives guild {guild.id}"):
            await emu.run_command(emu.user("alice"), "where", channel=emu.channel("general", guild))
    finally:
        await closed(bots, tasks)
