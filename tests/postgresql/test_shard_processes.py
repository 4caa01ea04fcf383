"""Two real bot processes (bot.py), one shard each of two, against one emulator and one PostgreSQL.

Each server's interactions reach only the process holding its shard, the commands are synced once, and a
storm of deadlines due at the same instant in every server (each server's raffle draws, 40 jobs), written
by a third handle on the database while both processes run, fires each job once and posts each result
once. The processes run on the system clock, which a test cannot move, and their schedulers sleep until
their next job (an hour away or more): the storm's commit wakes them by NOTIFY (store/postgres.py), so
the posts come within seconds.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from datetime import date, timedelta
from pathlib import Path

import pytest

from core.clock import SystemClock, to_db
from emulator import DiscordEmulator
from emulator.world import Guild
from engine import fair_draw
from services.hoss.raffle import DRAW_JOB
from services.infra.guild_settings import GuildSettingsService
from services.infra.scheduler import schedule
from store.connection import Connection
from store.postgres import PostgresDatabase
from tests.fixtures.postgres import Cluster
from tests.services.conftest import open_postgres

ROOT = Path(__file__).resolve().parents[2]
COUNT = 2
DAYS = 10  # raffles per server, all drawn at the same instant: 4 servers x 10 = 40 jobs
WAIT = 90.0  # seconds; starting two bot processes takes 5 s on a quiet machine, 20 s on a loaded one


def shard_of(guild: Guild) -> int:
    return (guild.id >> 22) % COUNT


def pick_guilds(emu: DiscordEmulator) -> list[Guild]:
    """Two servers on each shard: server ids are derived from their names."""
    chosen: dict[int, list[Guild]] = {0: [], 1: []}
    n = 0
    while min(len(found) for found in chosen.values()) < 2:
        guild = emu.add_guild(f"Serveur {n}", locale="fr")
        if len(chosen[shard_of(guild)]) < 2:
            chosen[shard_of(guild)].append(guild)
        n += 1
    return [*chosen[0], *chosen[1]]


async def configure(url: str, guilds: list[Guild], emu: DiscordEmulator) -> None:
    """Each server's announcements channel, where its raffle results are posted."""
    db: PostgresDatabase = await open_postgres(url)
    try:
        settings = GuildSettingsService(db, SystemClock())
        for guild in guilds:
            await settings.update(guild.id, "announce_channel_id", emu.channel("general", guild).id)
    finally:
        await db.close()


async def storm(db: PostgresDatabase, guilds: list[Guild]) -> None:
    """DAYS open raffles per server whose draws are all due now (the processes' system clock is the one
    read here), in one commit: its NOTIFY is what tells the processes."""
    now = SystemClock().now()
    first = date(2026, 11, 1)

    def unit(conn: Connection) -> None:
        for guild in guilds:
            for offset in range(DAYS):
                day = (first + timedelta(days=offset)).isoformat()
                seed_hex = f"{guild.id:032x}{offset:032x}"
                conn.execute(
                    "INSERT INTO hoss_raffles (guild_id, day, seed, commitment, opened_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (guild.id, day, seed_hex, fair_draw.commitment(seed_hex), to_db(now)),
                )
                payload = {"guild": guild.id, "day": day}
                schedule(conn, now, DRAW_JOB, now, payload, period_key=f"{guild.id}:{day}")

    await db.write(unit)


async def read(url: str, sql: str) -> list[tuple[object, ...]]:
    db = await open_postgres(url)
    try:
        return await db.read(lambda conn: [tuple(row) for row in conn.execute(sql)])
    finally:
        await db.close()


@pytest.fixture
async def database(pg_cluster: Cluster) -> AsyncIterator[str]:
    url = pg_cluster.create()
    try:
        yield url
    finally:
        pg_cluster.drop(url)


async def start_process(
    emu: DiscordEmulator, url: str, shard: int, dev_guild: Guild, owner: int, cwd: Path
) -> tuple[asyncio.subprocess.Process, Path]:
    log = cwd / f"shard-{shard}.log"
    with log.open("wb") as output:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "emulator.launch",
            cwd=cwd,  # no .env there
            env={
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "PYTHONPATH": str(ROOT),
                "DISCORD_TOKEN": emu.bot_token,
                "DATABASE_URL": url,
                "SHARD_COUNT": str(COUNT),
                "SHARD_IDS": str(shard),
                "DEV_GUILD_ID": str(dev_guild.id),
                "OWNER_IDS": str(owner),
                "EMULATOR_REST_BASE": emu.rest_base,
                "EMULATOR_GATEWAY": str(emu.gateway_url),
            },
            stdout=output,
            stderr=output,
        )
    return process, log


async def stop(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.terminate()
        try:
            await asyncio.wait_for(process.wait(), timeout=10)
        except TimeoutError:
            process.kill()
            await process.wait()


RESULTS_DAY = re.compile(r"Tirage du (\d{1,2})(?:er)?\xa0?\s?novembre 2026")


def result_posts(emu: DiscordEmulator, guild: Guild) -> list[date]:
    """The days of the raffle results posted in the server's announcements channel, one per post: the post
    names its draw by its day, written in French (« Tirage du 7 novembre 2026 »)."""
    days = []
    for message in emu.channel_messages(emu.channel("general", guild)):
        for embed in message.embeds:
            found = RESULTS_DAY.match(str(embed.get("description", "")))
            if found:
                days.append(date(2026, 11, int(found.group(1))))
    return days


async def test_two_processes_split_the_servers_sync_once_and_fire_a_storm_once(
    tmp_path: Path, database: str
) -> None:
    emu = DiscordEmulator(app_name="Cartes & Duels")
    guilds = pick_guilds(emu)
    boss = emu.add_user("boss", admin=True)
    dev_guild = guilds[-1]  # on shard 1: process B syncs
    await configure(database, guilds, emu)
    third = await open_postgres(database)  # a third process: it writes the storm
    await emu.start()
    processes: list[tuple[asyncio.subprocess.Process, Path]] = []
    try:
        processes = list(
            await asyncio.gather(
                *(start_process(emu, database, shard, dev_guild, boss.id, tmp_path) for shard in range(COUNT))
            )
        )
        await emu.wait_ready(timeout=WAIT, sessions=COUNT)
        # Commands: the dev guild's sync by the process holding its shard only; then the owner's global sync.
        dev_syncs = [
            r
            for r in emu.requests
            if r.method == "PUT" and r.path.endswith(f"/guilds/{dev_guild.id}/commands")
        ]
        assert len(dev_syncs) == 1
        await emu.run_command(boss, "admin sync", channel=emu.channel("general", dev_guild))
        global_syncs = [
            r
            for r in emu.requests
            if r.method == "PUT" and re.fullmatch(r"/applications/\d+/commands", r.path)
        ]
        assert len(global_syncs) == 1
        # Interactions: each server's go to its shard's connection only, and that process answers.
        sessions = {shard: emu.gateway.live[(shard, COUNT)].session_id for shard in range(COUNT)}
        for guild in guilds:
            reply = await emu.run_command(boss, "setup show", channel=emu.channel("general", guild))
            assert reply.interaction.shards == [(shard_of(guild), COUNT)]
            assert f"<#{emu.channel('general', guild).id}>" in " ".join(
                m.content or "" for m in reply.messages
            )
        # The storm, while both run: every draw fires once and posts once, whichever process claims it.
        expected = len(guilds) * DAYS
        assert sum(len(result_posts(emu, g)) for g in guilds) == 0
        await storm(third, guilds)
        committed = time.monotonic()
        first_post: float | None = None
        for _ in range(int(WAIT / 0.05)):
            count = sum(len(result_posts(emu, g)) for g in guilds)
            if count and first_post is None:
                first_post = time.monotonic() - committed
            if count >= expected:
                break
            await asyncio.sleep(0.05)
        took = time.monotonic() - committed
        await asyncio.sleep(1.5)  # a duplicate would come now
    finally:
        for process, _ in processes:
            await stop(process)
        await emu.stop()
        await third.close()
    logs = [log.read_text(encoding="utf-8", errors="replace") for _, log in processes]
    for shard, text in enumerate(logs):
        assert "Traceback" not in text, text
        assert f"Shard ID {shard} has connected to Gateway (Session ID: {sessions[shard]})" in text, text
        assert f"Shard ID {1 - shard} has connected" not in text
    assert re.search(rf"synced \d+ commands to guild {dev_guild.id}", logs[1])
    assert f"commands of guild {dev_guild.id} are synced by the process holding its shard" in logs[0]
    # Nothing of the storm was due at start-up: the running schedulers fired it, woken by its commit.
    assert not any("catch-up fired" in text for text in logs), logs
    assert took < 20.0, took  # without the NOTIFY: at their next job, an hour away
    for guild in guilds:
        posts = result_posts(emu, guild)
        assert len(posts) == DAYS, posts
        assert sorted(posts) == [date(2026, 11, 1) + timedelta(days=d) for d in range(DAYS)]
    jobs = await read(database, f"SELECT state, attempts FROM jobs WHERE kind = '{DRAW_JOB}'")
    assert Counter(jobs) == Counter({("done", 0): len(guilds) * DAYS})
    drawn = await read(database, "SELECT status, COUNT(*) FROM hoss_raffles GROUP BY status")
    assert drawn == [("drawn", len(guilds) * DAYS)]
    sent = await read(database, "SELECT state, COUNT(*) FROM outbox GROUP BY state")
    assert sent == [("sent", len(guilds) * DAYS)]
    print({"first_post_s": first_post and round(first_post, 2), "all_posts_s": round(took, 2)})
