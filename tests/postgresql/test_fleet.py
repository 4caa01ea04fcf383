"""What several processes tell each other through PostgreSQL (here two `PostgresDatabase` handles in one
OS process; tests/postgresql/test_fleet_processes.py runs real processes): a commit's NOTIFY wakes the
other process, a silent peer's outbox claims are taken over, a clean shutdown hands its claims back."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from functools import partial

import pytest

from core.clock import ManualClock
from services.platform import outbox
from services.platform.heartbeat import DEAD_AFTER, PERIOD, Heartbeat
from services.platform.messages import MessageSpec, Target, Text
from services.platform.outbox import CLAIM, Outbox
from store.db import announce
from store.postgres import PostgresDatabase

START = datetime(2026, 3, 27, 12, 0, tzinfo=UTC)


def _post(conn: sqlite3.Connection, now: datetime, channel: int) -> int:
    return outbox.enqueue(conn, now, Target("channel", channel), MessageSpec(content=Text.raw(f"c{channel}")))


async def _woken(event: asyncio.Event, within: float) -> float | None:
    started = time.monotonic()
    try:
        await asyncio.wait_for(event.wait(), within)
    except TimeoutError:
        return None
    return time.monotonic() - started


async def test_a_commit_wakes_the_other_process_and_a_rollback_does_not(
    processes: tuple[PostgresDatabase, PostgresDatabase],
) -> None:
    first, second = processes
    clock = ManualClock(START)
    here, there = asyncio.Event(), asyncio.Event()
    calls: list[str] = []

    def heard(name: str, event: asyncio.Event) -> None:
        calls.append(name)
        event.set()

    first.subscribe(outbox.TOPIC, partial(heard, "first", here))
    second.subscribe(outbox.TOPIC, partial(heard, "second", there))

    def refused(conn: sqlite3.Connection) -> None:
        _post(conn, clock.now(), 1)
        raise ValueError("rolled back")

    with pytest.raises(ValueError, match="rolled back"):
        await first.write(refused)
    assert await _woken(there, 0.5) is None  # a NOTIFY is sent only by a commit

    await first.write(partial(_post, now=clock.now(), channel=1))
    took = await _woken(there, 5.0)
    assert took is not None
    assert took < 1.0, took
    await asyncio.sleep(0.2)  # the committing process hears its own NOTIFY too, and ignores it
    assert calls == ["first", "second"]

    other = asyncio.Event()  # any topic a unit announces travels: a cache's "forget" as well
    second.subscribe("cache", other.set)
    await first.write(lambda conn: announce(conn, "cache"))
    assert await _woken(other, 5.0) is not None


async def test_a_silent_peers_claims_are_taken_over_before_they_run_out(
    processes: tuple[PostgresDatabase, PostgresDatabase],
) -> None:
    """The first process claims ten items and goes silent. While it is still connected it is only slow
    (its beats queued behind other units): its claims stay. Once its connection is gone too (killed), the
    second one's next beat releases them, so its deliverer sends them without waiting out the 5-minute
    claims."""
    dead, alive = processes
    clock = ManualClock(START)
    for channel in range(1, 11):
        await dead.write(partial(_post, now=clock.now(), channel=channel))
    await Heartbeat(dead, clock).beat()
    await Heartbeat(alive, clock).beat()
    claimed = await Outbox(dead, clock).due()
    assert len(claimed) == 10
    survivor = Outbox(alive, clock)
    assert await survivor.due() == []

    clock.advance(DEAD_AFTER * PERIOD)
    await Heartbeat(alive, clock).beat()
    assert await survivor.due() == []  # three periods exactly: still alive as far as anyone knows
    clock.advance(timedelta(seconds=1))
    heart = Heartbeat(alive, clock)
    await heart.beat()
    assert await survivor.due() == []  # silent, but connected: slow, not dead
    assert heart.fleet == 2  # and still counted in the fleet that shares the rate limit
    await dead.close()
    await heart.beat()
    assert heart.fleet == 1
    assert clock.now() - START < CLAIM
    taken = await survivor.due()
    assert sorted(item.id for item in taken) == sorted(item.id for item in claimed)


async def test_a_clean_shutdown_hands_its_claims_back(
    processes: tuple[PostgresDatabase, PostgresDatabase],
) -> None:
    leaving, staying = processes
    clock = ManualClock(START)
    for channel in range(1, 4):
        await leaving.write(partial(_post, now=clock.now(), channel=channel))
    mine = Outbox(leaving, clock)
    assert len(await mine.due()) == 3
    assert await Outbox(staying, clock).due() == []
    assert await mine.release() == 3
    assert len(await Outbox(staying, clock).due()) == 3
