"""Fixtures for the Pillz economy services: a small catalog built in code, a registry of the game alone (so a new
player gets 300 coins, as in production), seeded services, and helpers that go through the ledger."""

from __future__ import annotations

from core.clock import ManualClock
from services.infra import ledger
from services.infra.games import GameContext, GameRegistry
from services.infra.players import ensure_player
from services.pillz import GAME, PillzEconomy
from services.pillz.economy import PILLZ_GOLD
from store.connection import Connection
from store.db import Database
from tests.services.pillz.small_catalog import small_catalog
from tests.support.game_fixtures import GRANT, balance, game_fixtures, service_fixture, set_balance

SEED = 20261130


catalog, registry, rng = game_fixtures(GAME, small_catalog, seed=SEED)
economy = service_fixture(
    "economy",
    lambda db, clock, catalog, rng, registry: PillzEconomy.build(
        GameContext(db, clock, catalog, None, rng, registry)
    ),
)


async def give(
    db: Database, clock: ManualClock, player_id: int, cards: list[str], registry: GameRegistry
) -> None:
    """Mint copies through the ledger (as the shop does), creating the player if needed."""

    def unit(conn: Connection) -> None:
        ensure_player(conn, player_id, clock.now(), registry)
        for card in cards:
            ledger.mint_card(conn, clock.now(), player_id, "pillz", card, GRANT)

    await db.write(unit)


async def set_gold(
    db: Database, clock: ManualClock, player_id: int, amount: int, registry: GameRegistry
) -> None:
    await set_balance(db, clock, registry, player_id, PILLZ_GOLD, amount)


async def gold(db: Database, player_id: int) -> int:
    return await balance(db, player_id, PILLZ_GOLD)


async def owned(db: Database, player_id: int) -> int:
    return await db.read(
        lambda conn: int(
            conn.execute(
                "SELECT COUNT(*) FROM cards WHERE owner_id = ? AND game = 'pillz'", (player_id,)
            ).fetchone()[0]
        )
    )
