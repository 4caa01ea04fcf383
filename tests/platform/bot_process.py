"""`python bot.py` started the way a person starts it, for the tests of what it says when it refuses to start."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def database_refusal(cwd: Path, database: Path) -> str:
    """Start the bot on `database` from `cwd` (a folder without .env, so only these settings count) and
    return the one line it printed; it must have exited with code 2 and printed nothing else."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=cwd,
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": "x",
            "DATABASE_PATH": str(database),
        },
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    [line] = result.stderr.splitlines()  # before any Discord client exists, hence before any log line
    assert line.startswith("Invalid setting DATABASE_PATH: ")
    return line


async def assert_threads_back_to(before: set[threading.Thread]) -> None:
    """aiosqlite's connection threads are not daemons: one left running keeps the process from exiting.
    A closed connection's thread ends a moment after answering its last call, hence the short wait. Only
    threads started since `before` count: other tests of the same process may still be ending theirs."""
    for _ in range(200):
        if not set(threading.enumerate()) - before:
            break
        await asyncio.sleep(0.01)
    assert set(threading.enumerate()) - before == set()
