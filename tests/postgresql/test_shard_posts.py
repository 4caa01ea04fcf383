"""A server's posts leave from the process holding its shard (services/infra/shards.py): two processes'
real deliverers (two `PostgresDatabase` handles under their own names, one shard each of two) against the
Discord emulator. A DM outside any server leaves once, from either. When a process dies (silent, its
connection gone) the survivor sends its servers' posts; a restarted one takes them back."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import discord
import pytest

from core.clock import ManualClock
from core.settings import Settings
from discord_app.delivery import Deliverer
from emulator import DiscordEmulator
from emulator.world import Channel, Guild, User
from services.infra import outbox
from services.infra.container import Services, build_services
from services.infra.heartbeat import DEAD_AFTER, PERIOD
from services.infra.messages import MessageSpec, Target, Text
from store.connection import Connection
from tests.fixtures.postgres import Cluster

START = datetime(2026, 3, 27, 12, 0, tzinfo=UTC)
COUNT = 2


def shard_of(guild: Guild) -> int:
    return (guild.id >> 22) % COUNT


@dataclass
class Process:
    services: Services
    client: discord.Client
    deliverer: Deliverer
    alive: bool = True

    @property
    def name(self) -> str:
        return self.services.db.process


@dataclass
class World:
    emu: DiscordEmulator
    url: str
    clock: ManualClock
    channels: dict[int, list[Channel]]  # shard -> one channel in each of its two servers
    users: list[User]


def servers(emu: DiscordEmulator) -> Iterator[Guild]:
    n = 0
    while True:
        yield emu.add_guild(f"Serveur {n}", locale="fr")
        n += 1


@pytest.fixture
async def world(pg_cluster: Cluster) -> AsyncIterator[World]:
    emu = DiscordEmulator()
    channels: dict[int, list[Channel]] = {0: [], 1: []}
    for guild in servers(emu):  # server ids follow their names: two on each shard
        if len(channels[shard_of(guild)]) < 2:
            channels[shard_of(guild)].append(emu.add_channel(guild, "parties"))
        if min(len(found) for found in channels.values()) == 2:
            break
    users = [emu.add_user(f"joueur{n}") for n in range(3)]
    url = pg_cluster.create()
    try:
        async with emu:
            yield World(emu, url, ManualClock(START), channels, users)
    finally:
        pg_cluster.drop(url)


@asynccontextmanager
async def running(world: World, shard: int) -> AsyncIterator[Process]:
    """One bot process over `shard`: its services (its own database handle and name), its first beat,
    and its deliverer over a REST-only client (delivery needs no gateway)."""
    settings = Settings(
        _env_file=None,
        discord_token=world.emu.bot_token,
        database_url=world.url,
        shard_count=COUNT,
        shard_ids=(shard,),
    )
    services = await build_services(settings, world.clock)
    client = discord.Client(intents=discord.Intents.none())
    process = Process(services, client, Deliverer(client, services))
    try:
        await client.login(world.emu.bot_token)
        await services.heartbeat.beat()
        yield process
    finally:
        if process.alive:  # a clean shutdown (bot.py's close): the last beat, then the claims and shards go
            await client.close()
            await services.heartbeat.beat()
            await services.close()


async def die(process: Process) -> None:
    """The process is killed: no last beat, nothing released; its database connection is gone."""
    process.alive = False
    await process.client.close()
    await process.services.db.close()


async def queue(process: Process, target: Target, text: str) -> int:
    now = process.services.clock.now()
    spec = MessageSpec(content=Text.raw(text))
    return await process.services.db.write(lambda conn: outbox.enqueue(conn, now, target, spec))


async def post(process: Process, channel: Channel, text: str) -> int:
    assert channel.guild is not None
    return await queue(process, Target("channel", channel.id, guild_id=channel.guild.id), text)


async def senders(process: Process) -> dict[int, tuple[str, str | None]]:
    """Each item's state and the process whose deliverer claimed it (kept once sent)."""

    def unit(conn: Connection) -> dict[int, tuple[str, str | None]]:
        rows = conn.execute("SELECT id, state, claimed_by FROM outbox").fetchall()
        return {int(row[0]): (str(row[1]), row[2]) for row in rows}

    return await process.services.db.read(unit)


def texts(world: World, channel: Channel) -> list[str]:
    return [m.content for m in world.emu.channel_messages(channel)]


async def test_each_process_sends_its_own_servers_posts_and_a_dm_once(world: World) -> None:
    async with running(world, 0) as first, running(world, 1) as second:
        by_shard = {0: first, 1: second}
        items: dict[int, int] = {}  # item -> the shard whose process must send it
        for shard, channels in world.channels.items():
            for channel in channels:
                for n in range(3):
                    # queued by the OTHER process: a job may run anywhere, its post goes to the server's
                    items[await post(by_shard[1 - shard], channel, f"{channel.id}:{n}")] = shard
        dms = [
            await queue(first, Target("dm", user.id, guild_id=None), f"mp {user.name}")
            for user in world.users
        ]

        # a game's DM names its server (its fallback is a post there): it follows that server
        game_channel = world.channels[1][0]
        assert game_channel.guild is not None
        target = Target("dm", world.users[0].id, game_channel.id, guild_id=game_channel.guild.id)
        items[await queue(first, target, "ta main")] = 1

        sent = await asyncio.gather(first.deliverer.flush(), second.deliverer.flush())

        assert sum(sent) == len(items) + len(dms)
        assert sent[0] >= 6
        assert sent[1] >= 6
        states = await senders(first)
        for item, shard in items.items():
            assert states[item] == ("sent", by_shard[shard].name), item
        assert {states[item][0] for item in dms} == {"sent"}
        for channels in world.channels.values():
            for channel in channels:
                assert texts(world, channel) == [f"{channel.id}:{n}" for n in range(3)]
        for user in world.users:
            hand = ["ta main"] if user is world.users[0] else []
            assert sorted(m.content for m in world.emu.dm_messages(user)) == sorted(
                [f"mp {user.name}", *hand]
            )
        # the idle pass of each process finds nothing, neither its own nor the other's
        assert await first.services.outbox.due() == []
        assert await second.services.outbox.due() == []
        world.emu.assert_no_errors()


async def test_a_dead_process_servers_posts_go_to_the_survivor_until_it_restarts(world: World) -> None:
    gone = world.channels[1]
    async with running(world, 0) as survivor:
        async with running(world, 1) as dying:
            pass_over = [await post(survivor, channel, "avant") for channel in gone]
            assert await survivor.deliverer.flush() == 0  # not its shard: the holder is alive
            await die(dying)
            dead = dying.name
        await survivor.services.heartbeat.beat()
        assert await survivor.deliverer.flush() == 0  # gone, but not silent for long yet: nothing moves
        world.clock.advance(DEAD_AFTER * PERIOD + timedelta(seconds=1))
        await survivor.services.heartbeat.beat()  # silent, connection gone: dead, its shard released

        assert await survivor.deliverer.flush() == len(gone)
        states = await senders(survivor)
        assert {states[item] for item in pass_over} == {("sent", survivor.name)}
        assert dead != survivor.name
        for channel in gone:
            assert texts(world, channel) == ["avant"]

        async with running(world, 1) as restarted:  # the supervisor starts it again: its first beat
            after = [await post(survivor, channel, "après") for channel in gone]
            assert await survivor.deliverer.flush() == 0
            assert await restarted.deliverer.flush() == len(gone)
            states = await senders(survivor)
            assert {states[item] for item in after} == {("sent", restarted.name)}
        world.emu.assert_no_errors()


async def test_a_clean_shutdown_hands_its_servers_to_the_others_at_once(world: World) -> None:
    async with running(world, 0) as staying:
        async with running(world, 1) as leaving:
            item = await post(leaving, world.channels[1][0], "bonjour")
            assert await staying.deliverer.flush() == 0
        # no wait for the dead-peer rule: the leaving process released its shard
        assert await staying.deliverer.flush() == 1
        assert (await senders(staying))[item] == ("sent", staying.name)
        world.emu.assert_no_errors()
