"""On SQLite the one process sends every server's posts, whatever shards it holds and whatever another
heartbeat row says (services/infra/shards.py: the rule is for several processes on PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

import discord

from core.clock import ManualClock, to_db
from core.settings import Settings
from discord_app.delivery import Deliverer
from emulator import DiscordEmulator
from emulator.world import Channel
from services.infra import outbox
from services.infra.container import build_services
from services.infra.messages import MessageSpec, Target, Text
from store.connection import Connection

COUNT = 2


async def test_one_process_sends_every_servers_posts(tmp_path: Path) -> None:
    emu = DiscordEmulator()
    channels: dict[int, Channel] = {}
    n = 0
    while len(channels) < COUNT:  # server ids follow their names: one server on each shard
        guild = emu.add_guild(f"Serveur {n}", locale="fr")
        channels.setdefault((guild.id >> 22) % COUNT, emu.add_channel(guild, "parties"))
        n += 1
    user = emu.add_user("joueur")
    settings = Settings(
        _env_file=None,
        discord_token=emu.bot_token,
        database_path=tmp_path / "bot.sqlite3",
        shard_count=COUNT,
        shard_ids=(0,),
    )
    services = await build_services(settings, ManualClock())
    client = discord.Client(intents=discord.Intents.none())
    try:
        async with emu:
            await client.login(emu.bot_token)
            await services.heartbeat.beat()
            now = services.clock.now()

            def unit(conn: Connection) -> None:
                # a row that says another process holds shard 1: there is no such process on SQLite
                conn.execute(
                    "INSERT INTO heartbeats (process, started_at, last_seen, shard_count, shard_ids)"
                    " VALUES ('other', ?, ?, 2, '1')",
                    (to_db(now), to_db(now)),
                )
                for channel in channels.values():
                    assert channel.guild is not None
                    target = Target("channel", channel.id, guild_id=channel.guild.id)
                    outbox.enqueue(conn, now, target, MessageSpec(content=Text.raw(f"{channel.id}")))
                dm = Target("dm", user.id, guild_id=None)
                outbox.enqueue(conn, now, dm, MessageSpec(content=Text.raw("mp")))

            await services.db.write(unit)
            mine = await services.db.read(
                lambda conn: tuple(
                    conn.execute(
                        "SELECT shard_count, shard_ids FROM heartbeats WHERE process = ?",
                        (services.db.process,),
                    ).fetchone()
                )
            )
            assert mine == (COUNT, "0")  # the beat says which shards the process holds

            assert await Deliverer(client, services).flush() == COUNT + 1

            for channel in channels.values():
                assert [m.content for m in emu.channel_messages(channel)] == [f"{channel.id}"]
            assert [m.content for m in emu.dm_messages(user)] == ["mp"]
            emu.assert_no_errors()
    finally:
        await client.close()
        await services.close()
