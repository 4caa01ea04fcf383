"""The production clock follows the wall clock, not only the event loop's monotonic one."""

from __future__ import annotations

import asyncio
import random
import time
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from core.clock import SystemClock, from_db, to_db


class SteppedClock(SystemClock):
    """A wall clock stepped forward by an hour a moment after the sleep began (an NTP correction, a resume)."""

    MAX_NAP = 0.05

    def __init__(self) -> None:
        self.step = timedelta(0)

    def now(self) -> datetime:
        return super().now() + self.step


async def test_a_wall_clock_stepped_forward_ends_the_sleep_at_the_wall_time() -> None:
    clock = SteppedClock()
    wake = asyncio.Event()
    deadline = clock.now() + timedelta(minutes=30)

    def step() -> None:
        clock.step = timedelta(hours=1)

    asyncio.get_running_loop().call_later(0.1, step)
    started = time.monotonic()
    await asyncio.wait_for(clock.sleep_until(deadline, wake), timeout=5)
    assert time.monotonic() - started < 2
    assert clock.now() >= deadline


async def test_a_set_wake_returns_at_once() -> None:
    clock = SystemClock()
    wake = asyncio.Event()
    wake.set()
    started = time.monotonic()
    await clock.sleep_until(clock.now() + timedelta(hours=1), wake)
    assert time.monotonic() - started < 0.5


def test_stored_timestamps_read_back_exactly() -> None:
    """`from_db` reads what `to_db` writes, to the microsecond, as UTC; a text without a zone is refused."""
    rng = random.Random(7)
    start = datetime(2000, 1, 1, tzinfo=UTC)
    for _ in range(20_000):
        when = start + timedelta(microseconds=rng.randrange(10**16))
        assert from_db(to_db(when)) == when
        assert from_db(to_db(when)).utcoffset() == timedelta(0)
    with pytest.raises(ValueError, match="not a stored timestamp"):
        from_db("2026-12-01T10:00:00.000000")
    with pytest.raises(ValueError, match="Invalid isoformat"):
        from_db("demain")


def test_stored_timestamps_keep_their_text_whatever_the_zone_given() -> None:
    """The stored text is the one `strftime("%Y-%m-%dT%H:%M:%S.%fZ")` wrote before, from any zone; the
    same instant asked again (a unit's `now`, in several rows) gives the same text."""
    rng = random.Random(11)
    paris = ZoneInfo("Europe/Paris")
    for _ in range(5_000):
        when = datetime(2000, 1, 1, tzinfo=UTC) + timedelta(microseconds=rng.randrange(10**16))
        expected = when.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        local = when.astimezone(paris)
        assert to_db(when) == to_db(when) == to_db(local) == expected
    assert to_db(datetime(2026, 12, 1, 10, 0, tzinfo=UTC)) == "2026-12-01T10:00:00.000000Z"
