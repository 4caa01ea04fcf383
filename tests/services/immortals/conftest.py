"""Fixtures for the Immortal's War services: the real catalog, the game registered (starting gold), the
services on a real SQLite file with a scheduler, and a function that mints copies at a given XP."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock
from engine.immortals import ImmortalsCatalog
from services.immortals import GAME, ImmortalsServices
from services.platform import ledger
from services.platform.catalogs import DATA_DIR, load_catalog
from services.platform.games import GameContext
from services.platform.players import ensure_player
from services.platform.scheduler import Scheduler
from store.db import Database
from tests.fixtures.registration import registered


@pytest.fixture(scope="session")
def catalog() -> ImmortalsCatalog:
    return load_catalog(DATA_DIR / "immortals.json", ImmortalsCatalog)


@pytest.fixture(autouse=True)
def immortals_registered() -> Iterator[None]:
    with registered(GAME):
        yield


@pytest.fixture
def scheduler(db: Database, clock: ManualClock) -> Scheduler:
    return Scheduler(db, clock, ZoneInfo("Europe/Paris"))


@pytest.fixture
def services(
    db: Database, clock: ManualClock, catalog: ImmortalsCatalog, scheduler: Scheduler
) -> ImmortalsServices:
    return ImmortalsServices.build(GameContext(db, clock, catalog, scheduler, random.Random(7)))


async def mint(db: Database, clock: ManualClock, player: int, card: str, xp: int = 0) -> int:
    def unit(conn: sqlite3.Connection) -> int:
        ensure_player(conn, player, clock.now())
        copy = ledger.mint_card(conn, clock.now(), player, "immortals", card, ledger.Movement("test.grant"))
        if xp:
            conn.execute("INSERT INTO immortals_card_xp (card_id, xp) VALUES (?, ?)", (copy, xp))
        return copy

    return await db.write(unit)
