"""What the Pillz duel service tests share: the catalog, the service on a real SQLite file, a friend duel."""

from __future__ import annotations

import random
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock
from engine.pillz.catalog import PillzCatalog
from services.infra.catalogs import DATA_DIR, load_catalog
from services.infra.games import GameRegistry
from services.infra.scheduler import Scheduler
from services.pillz.duels import PillzDuels
from store.db import Database


@pytest.fixture(scope="module")
def catalog() -> PillzCatalog:
    return load_catalog(DATA_DIR / "pillz.json", PillzCatalog)


@pytest.fixture
def scheduler(db: Database, clock: ManualClock) -> Scheduler:
    return Scheduler(db, clock, ZoneInfo("Europe/Paris"))


@pytest.fixture
def duels(
    db: Database, clock: ManualClock, catalog: PillzCatalog, scheduler: Scheduler, registry: GameRegistry
) -> PillzDuels:
    return PillzDuels(db, clock, catalog, random.Random(3), scheduler, registry=registry)
