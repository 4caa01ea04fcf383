"""Fixtures for the Immortal's War services: the real catalog, a registry of the game alone (starting gold), the
services on a real SQLite file with a scheduler, a function that mints copies at a given XP, and one that
reads how long a duel's pending timeout was armed for."""

from __future__ import annotations

import random
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock, from_db
from engine.immortals import ImmortalsCatalog
from services.immortals import GAME, ImmortalsServices
from services.immortals.duels import TIMEOUT_JOB
from services.infra import ledger
from services.infra.catalogs import DATA_DIR, load_catalog
from services.infra.games import GameContext, GameRegistry
from services.infra.players import ensure_player
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from tests.support.game_fixtures import game_fixtures

catalog, registry, rng = game_fixtures(
    GAME, lambda: load_catalog(DATA_DIR / "immortals.json", ImmortalsCatalog), seed=7
)


@pytest.fixture
def scheduler(db: Database, clock: ManualClock) -> Scheduler:
    return Scheduler(db, clock, ZoneInfo("Europe/Paris"))


@pytest.fixture
def services(
    db: Database,
    clock: ManualClock,
    catalog: ImmortalsCatalog,
    scheduler: Scheduler,
    rng: random.Random,
    registry: GameRegistry,
) -> ImmortalsServices:
    return ImmortalsServices.build(GameContext(db, clock, catalog, scheduler, rng, registry))


async def mint(
    db: Database, clock: ManualClock, player: int, card: str, registry: GameRegistry, xp: int = 0
) -> int:
    def unit(conn: Connection) -> int:
        ensure_player(conn, player, clock.now(), registry)
        copy = ledger.mint_card(conn, clock.now(), player, "immortals", card, ledger.Movement("test.grant"))
        if xp:
            conn.execute("INSERT INTO immortals_card_xp (card_id, xp) VALUES (?, ?)", (copy, xp))
        return copy

    return await db.write(unit)


async def deadline(db: Database, duel_id: int) -> timedelta:
    """How long after it was armed the duel's pending choice timeout falls due."""

    def read(conn: Connection) -> timedelta:
        row = conn.execute(
            "SELECT j.due_at, j.created_at FROM jobs j JOIN matches m ON m.deadline_job = j.id"
            " WHERE m.id = ? AND j.kind = ? AND j.state = 'due'",
            (duel_id, TIMEOUT_JOB),
        ).fetchone()
        assert row is not None
        return from_db(row[0]) - from_db(row[1])

    return await db.read(read)
