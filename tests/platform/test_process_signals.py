"""SIGINT and SIGTERM stop the real bot process within seconds, even with deadlines pending.

The process runs bot.py against the in-repo Discord emulator (emulator/launch.py); the
emulator stays in this test's process.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from core.clock import SystemClock, from_db
from core.settings import load_settings
from emulator import DiscordEmulator
from services.community.recap.service import RECAP_JOB
from services.infra import container
from services.infra.heartbeat import PERIOD
from services.infra.scheduler import Scheduler, schedule
from services.pillz.duels import TIMEOUT_JOB
from tests.platform.bot_process import assert_threads_back_to
from tests.services.conftest import open_database

ROOT = Path(__file__).resolve().parents[2]
EXIT_WITHIN = 5.0  # seconds from the signal to the process's end


async def test_a_sleeper_woken_and_cancelled_at_once_is_cancelled() -> None:
    """The race of every shutdown: the last heartbeat's commit wakes the scheduler, which is then cancelled."""
    clock = SystemClock()
    wake = asyncio.Event()
    sleeper = asyncio.create_task(clock.sleep_until(clock.now() + timedelta(hours=1), wake))
    await asyncio.sleep(0)
    wake.set()
    sleeper.cancel()
    with pytest.raises(asyncio.CancelledError):
        await sleeper
    assert sleeper.cancelled()


async def test_system_clock_sleeps_until_the_time_or_the_wake() -> None:
    clock = SystemClock()
    wake = asyncio.Event()
    started = time.monotonic()
    await clock.sleep_until(clock.now() + timedelta(milliseconds=50), wake)
    assert 0.04 <= time.monotonic() - started < 2
    asyncio.get_running_loop().call_later(0.05, wake.set)
    started = time.monotonic()
    await clock.sleep_until(clock.now() + timedelta(hours=1), wake)
    assert time.monotonic() - started < 2


async def test_the_scheduler_stops_right_after_a_commit_woke_it(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "bot.sqlite3")
    clock = SystemClock()
    scheduler = Scheduler(db, clock, ZoneInfo("Europe/Paris"))
    scheduler.on("later", lambda conn, job, now: None)
    try:
        await db.write(
            lambda conn: schedule(conn, clock.now(), "later", clock.now() + timedelta(hours=1), {})
        )
        await scheduler.start()
        await asyncio.sleep(0.05)  # the dispatcher now sleeps until the job
        await db.write(lambda conn: conn.execute("SELECT 1"))  # its commit wakes the dispatcher
        started = time.monotonic()
        async with asyncio.timeout(EXIT_WITHIN):  # cuts a hang short, so that the test fails instead
            await scheduler.stop()
        assert time.monotonic() - started < 1
        assert [t for t in asyncio.all_tasks() if t.get_name() == "scheduler" and not t.done()] == []
    finally:
        await db.close()


async def test_a_signal_during_the_database_checks_leaves_no_thread_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A signal cancels start-up wherever it is; an open connection's thread would keep the process alive."""
    checking = asyncio.Event()

    async def endless_migration(conn: object) -> list[int]:
        checking.set()
        await asyncio.Event().wait()
        return []

    monkeypatch.setattr(container, "migrate_database", endless_migration)
    settings = load_settings(require_token=False, env_file=None).model_copy(
        update={"database_path": tmp_path / "bot.sqlite3"}
    )
    before = set(threading.enumerate())
    start_up = asyncio.create_task(container.build_services(settings, SystemClock()))
    await checking.wait()
    start_up.cancel()
    with pytest.raises(asyncio.CancelledError):
        await start_up
    await assert_threads_back_to(before)


async def _seed_pending_job(path: Path) -> None:
    db = await open_database(path)
    try:
        now = datetime.now(UTC)
        await db.write(lambda conn: schedule(conn, now, TIMEOUT_JOB, now + timedelta(hours=1), {"duel": 1}))
    finally:
        await db.close()


async def _read(path: Path, sql: str) -> list[tuple[object, ...]]:
    db = await open_database(path)
    try:
        return await db.read(lambda conn: [tuple(row) for row in conn.execute(sql)])
    finally:
        await db.close()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_the_real_process_closes_gracefully_on_a_signal(tmp_path: Path, sig: signal.Signals) -> None:
    database = tmp_path / "bot.sqlite3"
    await _seed_pending_job(database)
    emu = DiscordEmulator(app_name="Cartes & Duels")
    emu.add_guild("Club des cartes", locale="fr")
    await emu.start()
    log = tmp_path / "bot.log"
    try:
        with log.open("wb") as output:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "emulator.launch",
                cwd=tmp_path,  # no .env there
                env={
                    "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                    "PYTHONPATH": str(ROOT),
                    "DISCORD_TOKEN": emu.bot_token,
                    "DATABASE_PATH": str(database),
                    "EMULATOR_REST_BASE": emu.rest_base,
                    "EMULATOR_GATEWAY": str(emu.gateway_url),
                },
                stdout=output,
                stderr=output,
            )
            try:
                await emu.wait_ready(timeout=60)
                before_signal = datetime.now(UTC)
                await asyncio.sleep(0.2)  # the dispatcher is asleep until the pending job
                process.send_signal(sig)
                started = time.monotonic()
                code = await asyncio.wait_for(process.wait(), timeout=EXIT_WITHIN)
                took = time.monotonic() - started
            finally:
                if process.returncode is None:
                    process.kill()
                    await process.wait()
    finally:
        await emu.stop()
    text = log.read_text(encoding="utf-8", errors="replace")
    assert code == 0, text
    assert took < EXIT_WITHIN
    assert "Traceback" not in text
    assert f"{sig.name} received: closing" in text
    # The closing steps ran: the database closed (SQLite folds its WAL file back in), the last heartbeat.
    assert not database.with_name(database.name + "-wal").exists()
    [(last_seen,)] = await _read(database, "SELECT last_seen FROM heartbeats")
    assert before_signal <= from_db(str(last_seen)) < before_signal + PERIOD
    # the duel's timeout still due, and the weekly recap's next occurrence (a series every bot keeps)
    jobs = await _read(database, "SELECT kind, state FROM jobs ORDER BY kind")
    assert jobs == [(TIMEOUT_JOB, "due"), (RECAP_JOB, "due")]
