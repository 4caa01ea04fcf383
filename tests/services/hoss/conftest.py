"""Fixtures for the HOSS economy services: the real catalog, a registry of HOSS alone (so a new player gets
its 300 gold), seeded services, and small helpers that set a player up through the ledger."""

from __future__ import annotations

from typing import Any

import pytest

from core.clock import ManualClock
from core.errors import DomainError
from core.i18n import catalogs
from engine.hoss.catalog import CreatureCard, HossCatalog
from services.hoss import GAME
from services.hoss.collection import HossCollection
from services.hoss.gold import GOLD
from services.hoss.sale import HossSale
from services.hoss.shop import HossShop
from services.infra import ledger
from services.infra.catalogs import DATA_DIR, load_catalog
from services.infra.games import GameRegistry
from services.infra.messages import Text, render_text
from store.connection import Connection
from store.db import Database
from tests.support.game_fixtures import GRANT, balance, game_fixtures, service_fixture, set_balance

SEED = 20260105


# Players created here get HOSS's starting gold, as in production (the container's registry holds HOSS).
catalog, registry, rng = game_fixtures(
    GAME, lambda: load_catalog(DATA_DIR / "hoss.json", HossCatalog), seed=SEED
)
shop = service_fixture(
    "shop", lambda db, clock, catalog, rng, registry: HossShop(db, clock, catalog, rng, registry=registry)
)


@pytest.fixture
def sale(db: Database, clock: ManualClock, catalog: HossCatalog) -> HossSale:
    return HossSale(db, clock, catalog)


@pytest.fixture
def collection(db: Database, catalog: HossCatalog) -> HossCollection:
    return HossCollection(db, catalog)


def rank1_ids(catalog: HossCatalog) -> list[str]:
    return sorted(c.id for c in catalog.cards if isinstance(c, CreatureCard) and c.rank == 1)


async def new_player(
    db: Database, clock: ManualClock, player_id: int, registry: GameRegistry, *, gold: int | None = None
) -> None:
    """A player as on first use (300 gold); `gold` sets another balance through the ledger."""
    await set_balance(db, clock, registry, player_id, GOLD, gold)


async def mint(
    db: Database,
    clock: ManualClock,
    player_id: int,
    card: str,
    rarity: str = "basique",
    stars: int = 0,
    holo: bool = False,
) -> int:
    attrs = {"rarity": rarity, "stars": stars, "holo": holo}
    return await db.write(
        lambda conn: ledger.mint_card(conn, clock.now(), player_id, "hoss", card, GRANT, attrs)
    )


async def set_wins(db: Database, player_id: int, wins: dict[int, int]) -> None:
    def unit(conn: Connection) -> None:
        for rank, count in wins.items():
            conn.execute(
                "INSERT INTO hoss_rank_progress (player_id, rank, wins) VALUES (?, ?, ?)"
                " ON CONFLICT (player_id, rank) DO UPDATE SET wins = excluded.wins",
                (player_id, rank, count),
            )

    await db.write(unit)


async def gold(db: Database, player_id: int) -> int:
    return await balance(db, player_id, GOLD)


def snapshot(conn: Connection) -> dict[str, Any]:
    """Everything an operation could change: used to prove a refused operation changed nothing."""
    tables = ("ledger", "wallets", "cards", "hoss_openings", "hoss_opening_cards", "idempotency", "players")
    return {t: [tuple(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2")] for t in tables}


def assert_localized(error: DomainError) -> None:
    """A refusal the player will read: its key exists in both languages and its parameters fill the text."""
    for lang, table in catalogs().items():
        assert error.key in table, (lang, error.key)
        params = {k: render_text(v, lang) if isinstance(v, Text) else v for k, v in error.params.items()}
        assert "{" not in table[error.key].format(**params), (lang, error.key)
