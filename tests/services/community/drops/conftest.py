"""Fixtures for the drops: every game, as production's registry holds them (their drop pools), their
loaded catalogs, a server with a games channel, a scheduler on the manual clock, and a drop service
drawing from a seeded stream."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock, from_db, to_db
from services.community.drops.service import DropService
from services.infra.catalogs import DATA_DIR, load_all
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from tests.support.registries import every_game

PARIS = ZoneInfo("Europe/Paris")
GUILD = 5_000
CHANNEL = 5_001
OTHER_GUILD = 6_000
PLAYERS = (1_001, 1_002, 1_003, 1_004, 1_005, 1_006)
START = datetime(2026, 3, 2, 14, 0, tzinfo=PARIS)  # a Monday afternoon in Paris


@pytest.fixture
def catalogs() -> dict[str, Any]:
    return dict(load_all(DATA_DIR, every_game().all_games()))


@pytest.fixture
async def sched(db: Database, clock: ManualClock) -> AsyncIterator[Scheduler]:
    instance = Scheduler(db, clock, PARIS)
    yield instance
    await instance.stop()


@pytest.fixture
async def drops(
    db: Database, clock: ManualClock, sched: Scheduler, catalogs: dict[str, Any], registry: GameRegistry
) -> DropService:
    clock.set(START)

    def unit(conn: Connection) -> None:
        conn.execute(
            "INSERT INTO guild_settings (guild_id, games_channel_id, updated_at) VALUES (?, ?, ?)",
            (GUILD, CHANNEL, to_db(clock.now())),
        )

    await db.write(unit)
    return DropService(db, clock, registry, sched, catalogs, random.Random(36))


async def active(drops: DropService, *players: int, guild: int = GUILD) -> None:
    for player in players:
        await drops.activity(guild, player)


async def open_drop(drops: DropService, clock: ManualClock, sched: Scheduler, *, players: int = 3) -> int:
    """Drops turned on ("frequent": one a day for every 3 active players), `players` players active, and
    the armed job run: the drop it opened."""
    await active(drops, *PLAYERS[:players])
    await drops.configure(GUILD, "frequent")
    await run_armed(drops, clock, sched)
    found = await drops.db.read(lambda conn: conn.execute("SELECT MAX(id) FROM drops").fetchone()[0])
    assert found is not None, "no drop was opened"
    return int(found)


async def armed_at(db: Database) -> datetime | None:
    """When the server's armed drop job is due (None: none is armed)."""
    due = await db.read(
        lambda conn: conn.execute(
            "SELECT MIN(due_at) FROM jobs WHERE kind = 'drops:next' AND state = 'due'"
        ).fetchone()[0]
    )
    return None if due is None else from_db(str(due))


async def run_armed(drops: DropService, clock: ManualClock, sched: Scheduler) -> None:
    """Move the clock to the armed job's time and fire it."""
    due = await armed_at(drops.db)
    assert due is not None, "no drop is armed"
    clock.set(max(clock.now(), due))
    await sched.run_due()


async def grant(db: Database, clock: ManualClock, registry: GameRegistry, *players: int) -> None:
    def unit(conn: Connection) -> None:
        for player in players:
            ensure_player(conn, player, clock.now(), registry)

    await db.write(unit)


def prize_rows(conn: Connection, drop_id: int) -> list[tuple[Any, ...]]:
    return conn.execute(
        "SELECT player_id, currency, card_id, delta FROM ledger WHERE reason = 'drop_prize' AND ref = ?",
        (f"drop:{drop_id}",),
    ).fetchall()
