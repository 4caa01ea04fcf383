"""Fixtures for the daily loop: a registry of HOSS and Pillz, as production declares them (their daily
rewards, timers and starting wallets), the Paris zone, a scheduler on the manual clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock
from services.community.daily import DailyService
from services.community.reminders import Reminders
from services.hoss import GAME as HOSS
from services.infra import ledger
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from services.infra.scheduler import Scheduler
from services.pillz import GAME as PILLZ
from store.connection import Connection
from store.db import Database

PARIS = ZoneInfo("Europe/Paris")


@pytest.fixture
def registry() -> GameRegistry:
    return GameRegistry((HOSS, PILLZ))


@pytest.fixture
def daily(db: Database, clock: ManualClock, registry: GameRegistry) -> DailyService:
    return DailyService(db, clock, registry, PARIS)


@pytest.fixture
async def sched(db: Database, clock: ManualClock) -> AsyncIterator[Scheduler]:
    instance = Scheduler(db, clock, PARIS)
    yield instance
    await instance.stop()


@pytest.fixture
def reminders(db: Database, clock: ManualClock, sched: Scheduler, registry: GameRegistry) -> Reminders:
    return Reminders(db, clock, registry, sched)


def paris(year: int, month: int, day: int, hour: int, minute: int = 0) -> datetime:
    """A Paris wall-clock time (the fold=0 reading), as an aware datetime."""
    return datetime(year, month, day, hour, minute, tzinfo=PARIS)


async def balance(db: Database, player_id: int, currency: str) -> int:
    return await db.read(lambda conn: ledger.balance(conn, player_id, currency))


async def new_player(db: Database, clock: ManualClock, player_id: int, registry: GameRegistry) -> None:
    def unit(conn: Connection) -> None:
        ensure_player(conn, player_id, clock.now(), registry)

    await db.write(unit)


async def dms(db: Database, player_id: int) -> list[str]:
    """The reminders queued for the player by DM, as stored (JSON payloads); other DMs (a raffle's
    winners') are left out: a reminder ends with the reminders' footer."""
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT payload FROM outbox WHERE target_kind = 'dm' AND target_id = ? ORDER BY id", (player_id,)
        ).fetchall()
    )
    return [str(r[0]) for r in rows if '"reminders.footer"' in str(r[0])]
