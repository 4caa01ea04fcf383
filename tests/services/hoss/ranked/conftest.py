"""Fixtures for the ranked-battle service tests: a scheduler on the test's clock (deadlines, rounds)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock
from services.infra.scheduler import Scheduler
from store.db import Database

PARIS = ZoneInfo("Europe/Paris")


@pytest.fixture
async def sched(db: Database, clock: ManualClock) -> AsyncIterator[Scheduler]:
    instance = Scheduler(db, clock, PARIS)
    yield instance
    await instance.stop()
