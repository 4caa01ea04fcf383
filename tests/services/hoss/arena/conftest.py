"""Fixtures of the Arena's service tests: a Paris scheduler, the deck, Arena and ranked services on one
database, on Tuesday noon of the week of 5 January 2026."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from core.clock import ManualClock
from engine.hoss import HossCatalog
from services.hoss.arena.seasons import ArenaService
from services.hoss.battle.ranked import RankedService
from services.hoss.decks import DeckService
from services.infra.games import GameRegistry
from services.infra.scheduler import Scheduler
from store.db import Database
from tests.services.hoss.arena import PARIS, TUESDAY_NOON, World


@pytest.fixture
async def sched(db: Database, clock: ManualClock) -> AsyncIterator[Scheduler]:
    instance = Scheduler(db, clock, PARIS)
    yield instance
    await instance.stop()


@pytest.fixture
def decks(db: Database, clock: ManualClock, catalog: HossCatalog, registry: GameRegistry) -> DeckService:
    return DeckService(db, clock, catalog, registry=registry)


@pytest.fixture
async def arena(
    db: Database, clock: ManualClock, sched: Scheduler, decks: DeckService, registry: GameRegistry
) -> ArenaService:
    clock.set(TUESDAY_NOON)
    service = ArenaService(db, clock, random.Random(5), sched, decks, registry=registry)
    assert await sched.run_due() == 0
    return service


@pytest.fixture
def ranked(
    db: Database,
    clock: ManualClock,
    catalog: HossCatalog,
    sched: Scheduler,
    decks: DeckService,
    registry: GameRegistry,
) -> RankedService:
    return RankedService(db, clock, catalog, random.Random(9), sched, decks, registry=registry)


@pytest.fixture
def world(
    db: Database,
    clock: ManualClock,
    catalog: HossCatalog,
    decks: DeckService,
    arena: ArenaService,
    sched: Scheduler,
    ranked: RankedService,
) -> World:
    return World(db, clock, catalog, decks, arena, sched, ranked)
