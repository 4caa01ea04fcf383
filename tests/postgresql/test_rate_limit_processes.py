"""Two bot processes of one bot, one shard each, sharing Discord's global rate limit (docs/deployment.md,
"The global rate limit"): a burst of 100 posts asked for at once in each process never puts more than 50
requests in any second at the emulator, which counts them per bot token over both connections; and a
global 429 answered to one process stops both until its `retry_after` has passed.

The other process learns of the pause through the database: the first process's limiter pauses when the
429's headers arrive, writes the pause, and the commit's NOTIFY makes the other read it. Until then the
other may still send: `SHARING_DELAY` allows for it (a few milliseconds on a quiet machine; the bound is
generous for a loaded one), and requests already on their way when the 429 was answered arrive within it.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from emulator import DiscordEmulator
from emulator.core import Fault
from services.infra.rate_limits import GLOBAL_PER_SECOND
from tests.fixtures.postgres import Cluster
from tests.services.conftest import open_postgres

ROOT = Path(__file__).resolve().parents[2]
POSTS = 100  # per process
RETRY_AFTER = 1.0  # seconds the injected global 429 asks for
LIMIT_AFTER = 60  # the 429 answers the first post of process 0 after this many requests arrived
SHARING_DELAY = 0.25  # seconds in which the other process may not know of the pause yet
START = 30.0  # seconds a process may take to import and log in (about 1 on a quiet machine)


@pytest.fixture
async def database(pg_cluster: Cluster) -> AsyncIterator[str]:
    url = pg_cluster.create()
    try:
        await (await open_postgres(url)).close()  # migrated before the processes open it
        yield url
    finally:
        pg_cluster.drop(url)


async def start(spec: dict[str, object]) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "tests" / "postgresql" / "rate_limit_worker.py"),
        json.dumps(spec),
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT)},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )


async def expect(process: asyncio.subprocess.Process, line: str, seconds: float) -> None:
    assert process.stdout is not None
    got = await asyncio.wait_for(process.stdout.readline(), seconds)
    assert got.decode().strip() == line, got


class LimitLater(Fault):
    """A global 429, answered once `LIMIT_AFTER` requests of the burst have arrived (the two logins first)."""

    def __init__(self, emu: DiscordEmulator, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.emu = emu

    def matches(self, method: str, path: str) -> bool:
        return len(self.emu.requests) > LIMIT_AFTER + 2 and super().matches(method, path)


def busiest_second(times: list[float]) -> int:
    return max(sum(1 for t in times if start <= t < start + 1.0) for start in times)


async def test_two_processes_share_fifty_a_second_and_honour_one_global_429(database: str) -> None:
    emu = DiscordEmulator()
    guild = emu.add_guild("Serveur")
    channels = [emu.add_channel(guild, f"salon-{shard}") for shard in range(2)]
    await emu.start()
    processes = []
    try:
        for shard, channel in enumerate(channels):
            spec = {
                "rest_base": emu.rest_base,
                "token": emu.bot_token,
                "url": database,
                "shard": shard,
                "count": 2,
                "channel": channel.id,
                "posts": POSTS,
            }
            processes.append(await start(spec))
        for process in processes:
            await expect(process, "ready", START)
        for process in processes:  # the burst: both at once
            assert process.stdin is not None
            process.stdin.write(b"go\n")
            await process.stdin.drain()
        limited = re.compile(re.escape(f"/channels/{channels[0].id}/messages"))
        emu.faults.append(LimitLater(emu, "POST", limited, 429, 0, "", 1, RETRY_AFTER, global_limit=True))
        for process in processes:
            await expect(process, "done", 15.0)
    finally:
        for process in processes:
            if process.returncode is None:
                process.kill()
            await process.wait()
        await emu.stop()

    posts = [r for r in emu.requests if r.method == "POST"]
    refusals = [r for r in posts if r.status == 429]
    assert len(refusals) == 1, refusals  # the injected one: the emulator's own limit never refused any
    assert emu.global_limit is not None
    assert emu.global_limit.refused == 0
    assert sum(r.status == 200 for r in posts) == 2 * POSTS
    assert busiest_second([r.at for r in posts]) <= GLOBAL_PER_SECOND
    paused_at = refusals[0].at
    during = [
        (r.path, round(r.at - paused_at, 3))
        for r in posts
        if paused_at + SHARING_DELAY < r.at < paused_at + RETRY_AFTER
    ]
    assert during == []  # neither process sent during the pause
    emu.assert_no_errors()
