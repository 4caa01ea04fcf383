"""What drops cost: the activity every slash command records in a server, and a drop's « Prendre » clicked
by 50 players at once.

- **Activity per command**: the after-command hook (`cogs/platform/drops/cog.py` `record_activity`) on the
  production clock, for players already written this minute (what nearly every command meets:
  `services/community/drops/activity.py`), in µs per command; and, for scale, the write a player's first
  command of the day makes.
- **Entries**: `DropService.enter` alone, 50 at once, its CPU per entry (the writer's thread included).
- **Clicks**: `bot.py` alone in its process on a SQLite file, the Discord emulator and the users in this
  one (benchmarks/bot_alone.py's arrangement), a drop open in the games channel, 50 users clicking
  « Prendre » at the same moment, each click timed from its send to the bot's answer (the entry written);
  `--drops` drops in a row, the figures over every click.

    python -m benchmarks.drops [--commands 200000] [--drops 10] [--clicks 50]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sqlite3
import statistics
import tempfile
import time
from datetime import timedelta
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from benchmarks.bot_alone import between_phases, fleet_on
from benchmarks.command_latency import thaw
from benchmarks.databases import load_average, target
from cogs.platform.drops.cog import record_activity
from core.clock import SystemClock, to_db
from core.settings import Settings
from engine import fair_draw
from services.community.drops.pool import DropPrize
from services.infra.container import build_services
from services.infra.players import ensure_player
from store.backend import sqlite_path
from store.connection import Connection

GUILD = 1
PLAYERS = 100


def interaction(services: Any, player: int) -> Any:
    """What the hook reads of an interaction: the server, the player, the bot's services."""
    return SimpleNamespace(
        guild_id=GUILD, user=SimpleNamespace(id=player), client=SimpleNamespace(services=services)
    )


async def activity(commands: int) -> tuple[float, float]:
    """(µs per command already written this minute, ms for a player's first command of the day)."""
    with tempfile.TemporaryDirectory() as scratch:
        settings = Settings(
            _env_file=None, discord_token="bench", database_path=Path(scratch) / "bench.sqlite3"
        )
        services = await build_services(settings, SystemClock())
        try:
            seen = [interaction(services, 10_000 + n) for n in range(PLAYERS)]
            started = time.perf_counter()
            for each in seen:
                await record_activity(each, None)
            first = (time.perf_counter() - started) / PLAYERS
            started = time.perf_counter()
            for n in range(commands):
                await record_activity(seen[n % PLAYERS], None)
            per_command = (time.perf_counter() - started) / commands
        finally:
            await services.close()
    return per_command * 1e6, first * 1e3


async def entries(drops: int, clickers: int) -> float:
    """CPU per entry of `DropService.enter` alone (its write unit, the writer's thread included), `clickers`
    entries at once per drop, on a SQLite file."""
    with tempfile.TemporaryDirectory() as scratch:
        settings = Settings(
            _env_file=None, discord_token="bench", database_path=Path(scratch) / "bench.sqlite3"
        )
        services = await build_services(settings, SystemClock())
        try:
            players = [10_000 + n for n in range(clickers)]
            now = services.clock.now()

            def create(conn: Connection) -> None:
                for player in players:
                    ensure_player(conn, player, now, services.registry)

            await services.db.write(create)
            spent = 0.0
            for _ in range(drops):
                opening = partial(
                    services.drops.open_drop,
                    now=services.clock.now(),
                    guild_id=GUILD,
                    channel=2,
                    game="immortals",
                )
                drop = await services.db.write(opening)
                began = time.process_time()
                await asyncio.gather(*(services.drops.enter(drop, GUILD, player) for player in players))
                spent += time.process_time() - began
        finally:
            await services.close()
    return spent / (drops * clickers)


def open_drop_row(path: Path, guild: int, channel: int) -> int:
    """A drop open for 10 s, written as `DropService.open_drop` writes it (Immortal's War gold: no picture),
    by this process: the bot process reads it at each click."""
    now = SystemClock().now()
    seed = f"{random.Random(now.timestamp()).getrandbits(256):064x}"
    prize = DropPrize(currency="immortals_gold", amount=10).to_json()
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        row = conn.execute(
            "INSERT INTO drops (guild_id, channel_id, game, prize, seed, commitment, day, opened_at, closes_at)"
            " VALUES (?, ?, 'immortals', ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                guild,
                channel,
                prize,
                seed,
                fair_draw.commitment(seed),
                now.date().isoformat(),
                to_db(now),
                to_db(now + timedelta(seconds=10)),
            ),
        ).fetchone()
        return int(row[0])


async def clicks(drops: int, clickers: int) -> tuple[list[float], float, float]:
    """Every click's time from its send to the bot's answer, in seconds, and the CPU per click of the bot
    process and of this one (the emulator and the users): `bot.py` alone in its process
    (benchmarks/bot_alone.py's fleet)."""
    with target("sqlite") as where:
        async with where.fresh() as url, fleet_on(url, 1, clickers) as (fleet, players, channel_of):
            emu, path = fleet.emu, sqlite_path(url)
            assert path is not None
            for user in players:  # a first command creates the player
                await emu.run_command(user, "profil", channel=channel_of[user.id])
            await between_phases(emu)
            timings: list[float] = []
            cpu = users = 0.0
            for _ in range(drops):
                channel = channel_of[players[0].id]
                assert channel.guild is not None
                drop = open_drop_row(path, channel.guild.id, channel.id)
                button = {"type": 2, "style": 3, "label": "Prendre", "custom_id": f"drops:take:{drop}"}
                payload = {"content": "drop", "components": [{"type": 1, "components": [button]}]}
                message = emu.create_message(channel, emu.world.bot, payload)

                async def click(user: Any, message: Any = message) -> float:
                    began = time.perf_counter()
                    result = await emu.click(user, "Prendre", message=message)
                    assert result.message is not None
                    assert "Vous participez" in result.message.render(), result.message.render()
                    return time.perf_counter() - began

                before, ours = fleet.cpu(), time.process_time()
                timings += await asyncio.gather(*(click(user) for user in players))
                cpu, users = cpu + fleet.cpu() - before, users + time.process_time() - ours
                await between_phases(emu)
            thaw()
    return timings, cpu / len(timings), users / len(timings)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--commands", type=int, default=200_000)
    parser.add_argument("--drops", type=int, default=10)
    parser.add_argument("--clicks", type=int, default=50)
    args = parser.parse_args()
    per_command, first = asyncio.run(activity(args.commands))
    print(
        f"activity per command (already written this minute): {per_command:.2f} µs over {args.commands:,} commands"
    )
    print(f"a player's first command of the day in a server (the write): {first:.2f} ms")
    per_entry = asyncio.run(entries(args.drops, args.clicks))
    print(f"an entry's unit alone ({args.clicks} at once): {per_entry * 1000:.3f} ms of CPU each")
    print(f"load average {load_average()}")
    timings, cpu, users = asyncio.run(clicks(args.drops, args.clicks))
    print(
        f"« Prendre », {args.clicks} players at once, {args.drops} drops: p50 {statistics.median(timings) * 1000:.1f} ms,"
        f" p99 {percentile(timings, 0.99) * 1000:.1f} ms, max {max(timings) * 1000:.1f} ms;"
        f" CPU per click: the bot {cpu * 1000:.2f} ms, the emulator and users {users * 1000:.2f} ms"
    )


if __name__ == "__main__":
    main()
