"""Fixtures for the Pillz economy services: a small catalog built in code, the game registered (so a new
player gets 300 coins, as in production), seeded services, and helpers that go through the ledger."""

from __future__ import annotations

from core.clock import ManualClock
from services.infra import ledger
from services.infra.games import GameContext
from services.infra.players import ensure_player
from services.pillz import GAME, PillzEconomy
from services.pillz.economy import PILLZ_GOLD
from store.connection import Connection
from store.db import Database
from tests.services.pillz.small_catalog import small_catalog
from tests.support.game_fixtures import GRANT, balance, game_fixtures, service_fixture, set_balance

SEED = 20261130


catalog, pillz_registered, rng = game_fixtures(GAME, small_catalog, seed=SEED)
economy = service_fixture(
    "economy", lambda db, clock, catalog, rng: PillzEconomy.build(GameContext(db, clock, catalog, None, rng))
)


async def give(db: Database, clock: ManualClock, player_id: int, cards: list[str]) -> None:
    """Mint copies through the ledger (as the shop does), creating the player if needed."""

    def unit(conn: Connection) -> None:
        ensure_player(conn, player_id, clock.now())
        for card in cards:
            ledger.mint_card(conn, clock.now(), player_id, "pillz", card, GRANT)

    await db.write(unit)


async def set_gold(db: Database, clock: ManualClock, player_id: int, amount: int) -> None:
    await set_balance(db, clock, player_id, PILLZ_GOLD, amount)


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
