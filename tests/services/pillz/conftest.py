"""Fixtures for the Pillz economy services: a small catalog built in code, the game registered (so a new
player gets 300 coins, as in production), seeded services, and helpers that go through the ledger."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator

import pytest

from core.clock import ManualClock
from engine.pillz.catalog import PillzCatalog
from services.infra import ledger
from services.infra.games import GameContext
from services.infra.players import ensure_player
from services.pillz import GAME, PillzEconomy
from services.pillz.economy import PILLZ_GOLD
from store.db import Database
from tests.fixtures.registration import registered
from tests.services.pillz.small_catalog import small_catalog

GRANT = ledger.Movement("test.grant")
SEED = 20261130


@pytest.fixture(scope="session")
def catalog() -> PillzCatalog:
    return small_catalog()


@pytest.fixture(autouse=True)
def pillz_registered() -> Iterator[None]:
    with registered(GAME):
        yield


@pytest.fixture
def rng() -> random.Random:
    return random.Random(SEED)


@pytest.fixture
def economy(db: Database, clock: ManualClock, catalog: PillzCatalog, rng: random.Random) -> PillzEconomy:
    return PillzEconomy.build(GameContext(db, clock, catalog, None, rng))


async def give(db: Database, clock: ManualClock, player_id: int, cards: list[str]) -> None:
    """Mint copies through the ledger (as the shop does), creating the player if needed."""

    def unit(conn: sqlite3.Connection) -> None:
        ensure_player(conn, player_id, clock.now())
        for card in cards:
            ledger.mint_card(conn, clock.now(), player_id, "pillz", card, GRANT)

    await db.write(unit)


async def set_gold(db: Database, clock: ManualClock, player_id: int, amount: int) -> None:
    def unit(conn: sqlite3.Connection) -> None:
        ensure_player(conn, player_id, clock.now())
        have = ledger.balance(conn, player_id, PILLZ_GOLD)
        if amount > have:
            ledger.credit(conn, clock.now(), player_id, PILLZ_GOLD, amount - have, GRANT)
        elif amount < have:
            ledger.debit(conn, clock.now(), player_id, PILLZ_GOLD, have - amount, GRANT)

    await db.write(unit)


async def gold(db: Database, player_id: int) -> int:
    return await db.read(lambda conn: ledger.balance(conn, player_id, PILLZ_GOLD))


async def owned(db: Database, player_id: int) -> int:
    return await db.read(
        lambda conn: int(
            conn.execute(
                "SELECT COUNT(*) FROM cards WHERE owner_id = ? AND game = 'pillz'", (player_id,)
            ).fetchone()[0]
        )
    )
