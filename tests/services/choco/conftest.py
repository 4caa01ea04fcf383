"""Fixtures for the Chocobataille economy services: the real catalog, a registry of the game alone (so a new player
gets 1,500 galleons, as in production), seeded services, and helpers that set a player up through the
ledger."""

from __future__ import annotations

import pytest

from core.clock import ManualClock, to_db
from engine.choco.catalog import ChocoCard, ChocoCatalog, Rarity
from services.choco import GAME
from services.choco.collection import ChocoCollection
from services.choco.decks import ChocoDecks
from services.choco.economy import CHOCO_GOLD
from services.choco.leagues import LeagueService
from services.choco.shop import ChocoShop
from services.infra import ledger
from services.infra.catalogs import DATA_DIR, load_catalog
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from store.connection import Connection
from store.db import Database
from tests.support.game_fixtures import GRANT, balance, game_fixtures, service_fixture, set_balance

SEED = 20261130
GUILD = 555


catalog, registry, rng = game_fixtures(
    GAME, lambda: load_catalog(DATA_DIR / "choco.json", ChocoCatalog), seed=SEED
)
shop = service_fixture(
    "shop", lambda db, clock, catalog, rng, registry: ChocoShop(db, clock, catalog, rng, registry=registry)
)


@pytest.fixture
def collection(db: Database, catalog: ChocoCatalog) -> ChocoCollection:
    return ChocoCollection(db, catalog)


@pytest.fixture
def decks(db: Database, clock: ManualClock, catalog: ChocoCatalog, registry: GameRegistry) -> ChocoDecks:
    return ChocoDecks(db, clock, catalog, registry=registry)


@pytest.fixture
def leagues(db: Database, clock: ManualClock, catalog: ChocoCatalog, registry: GameRegistry) -> LeagueService:
    return LeagueService(db, clock, catalog, registry=registry)


def of_rarity(catalog: ChocoCatalog, *rarities: Rarity, wizards: bool | None = None) -> list[ChocoCard]:
    """Cards of these rarities, by id; `wizards` True keeps wizards only, False pure effects only."""
    return sorted(
        (
            c
            for c in catalog.cards
            if c.rarity in rarities and (wizards is None or (c.type != "pure") == wizards)
        ),
        key=lambda c: c.id,
    )


async def new_player(
    db: Database, clock: ManualClock, player_id: int, registry: GameRegistry, *, gold: int | None = None
) -> None:
    """A player as on first use (1,500 galleons); `gold` sets another balance through the ledger."""
    await set_balance(db, clock, registry, player_id, CHOCO_GOLD, gold)


async def give(
    db: Database, clock: ManualClock, player_id: int, cards: dict[str, int], registry: GameRegistry
) -> None:
    """Mint copies through the ledger (as the shop does), creating the player if needed."""

    def unit(conn: Connection) -> None:
        ensure_player(conn, player_id, clock.now(), registry)
        for card, count in cards.items():
            for _ in range(count):
                ledger.mint_card(conn, clock.now(), player_id, "choco", card, GRANT)

    await db.write(unit)


async def gold(db: Database, player_id: int) -> int:
    return await balance(db, player_id, CHOCO_GOLD)


async def age(db: Database, player_id: int, clock: ManualClock, days: int) -> None:
    """Make the player known to the bot for `days` days."""
    from datetime import timedelta

    when = to_db(clock.now() - timedelta(days=days))
    await db.write(
        lambda conn: conn.execute("UPDATE players SET created_at = ? WHERE id = ?", (when, player_id))
    )
