"""Fixtures for the Dinocard services: the real catalog, a registry of the game alone (a new player gets its
starting coins, as in production), seeded services on a real database, and a clock in Paris's day."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.clock import ManualClock
from engine.dinocard import DinocardCatalog
from services.dinocard import GAME, DinocardServices
from services.infra.games import GameContext
from store.connection import Connection
from store.db import Database
from tests.support.game_fixtures import game_fixtures, service_fixture

ROOT = Path(__file__).resolve().parents[3]
SEED = 20261201
START = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
ALICE, BOB, CAROL = 101, 102, 103


catalog, registry, rng = game_fixtures(
    GAME,
    lambda: DinocardCatalog.model_validate_json(
        (ROOT / "data" / "dinocard.json").read_text(encoding="utf-8")
    ),
    seed=SEED,
)
dino = service_fixture(
    "dino",
    lambda db, clock, catalog, rng, registry: DinocardServices.build(
        GameContext(db, clock, catalog, None, rng, registry)
    ),
)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


def fire_pack(catalog: DinocardCatalog) -> list[str]:
    """The starter's 20 fire commons (two of each)."""
    return [c.id for c in catalog.cards if c.rarity == "commune" and c.element == "feu" for _ in range(2)]


def element_pack(catalog: DinocardCatalog, element: str) -> list[str]:
    return [c.id for c in catalog.cards if c.rarity == "commune" and c.element == element for _ in range(2)]


async def locks(db: Database) -> list[tuple[int, str, str]]:
    """(owner, card, lock) of every locked Dinocard copy."""
    return await db.read(
        lambda conn: [
            (int(o), str(k), str(lock))
            for o, k, lock in conn.execute(
                "SELECT owner_id, card_key, locked_by FROM cards WHERE game = 'dinocard' AND locked_by IS NOT NULL"
            )
        ]
    )


def sql(conn: Connection, query: str, *args: object) -> list[tuple[object, ...]]:
    return [tuple(r) for r in conn.execute(query, args).fetchall()]
