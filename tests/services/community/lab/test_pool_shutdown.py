"""The lab's workers end with their bot: after its shutdown, which waits for them, and when the bot's
process is killed without one."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from services.community.lab.pool import LabPool
from tests.services.community.lab.test_pool import job, spawned

ROOT = Path(__file__).resolve().parents[4]


def alive(pid: int) -> bool:
    """The process runs (a zombie, ended and not yet reaped, does not count)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def ended(pids: list[int], within: float) -> bool:
    deadline = time.monotonic() + within
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


async def test_the_bots_shutdown_waits_until_the_workers_have_ended() -> None:
    pool = LabPool(size=2)
    batch = asyncio.create_task(pool.play(job(tuple(range(1, 10))), [list(range(200))] * 9))
    pids = await spawned(pool)  # the workers spawned, the first chunks sent
    assert len(pids) == 2
    await pool.aclose()
    assert not [pid for pid in pids if alive(pid)]
    with pytest.raises(asyncio.CancelledError):
        await batch
    with pytest.raises(RuntimeError, match="shut down"):
        await pool.play(job((1,)), [[1]])


KILLED = """
import asyncio, os, signal, sys, time
from services.community.lab.pool import LabPool
from tests.services.community.lab.test_pool import job

async def main() -> None:
    pool = LabPool(size=2)
    await pool.play(job((1, 2)), [list(range(8)), list(range(8))])
    pids = pool.pids
    deadline = time.monotonic() + 20  # until each worker's initializer has run (its second thread)
    while time.monotonic() < deadline and any(len(os.listdir(f"/proc/{p}/task")) < 2 for p in pids):
        await asyncio.sleep(0.05)
    print(*pids, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)

if __name__ == "__main__":
    asyncio.run(main())
"""


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_the_workers_end_when_their_bot_is_killed(tmp_path: Path) -> None:
    """A bot killed without its shutdown (SIGKILL, the OOM killer) leaves no worker behind: each ends
    within a second or two, instead of waiting for ever for a chunk."""
    script = tmp_path / "killed_bot.py"
    script.write_text(KILLED)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(script)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    pids = [int(p) for p in done.stdout.split()]
    assert len(pids) == 2
    try:
        assert ended(pids, within=10)
    finally:
        for pid in pids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
