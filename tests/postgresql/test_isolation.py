"""What a unit kept above READ COMMITTED (docs/deployment.md, "Isolation") would lose without it, raced by
another process."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime

from core.clock import ManualClock, to_db
from engine.choco.catalog import ChocoCatalog
from services.choco import GAME
from services.choco.economy import CHOCO_GOLD, CURRENCY
from services.choco.shop import ChocoShop
from services.infra.catalogs import DATA_DIR, load_catalog
from services.infra.games import GameRegistry
from store.connection import Connection
from store.postgres import PostgresDatabase
from tests.services.conftest import check_conservation

START = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
PLAYERS = 20  # racing pairs: under READ COMMITTED, one race in them doubles a grant


async def test_two_processes_asking_for_an_older_players_galleons_grant_them_once(
    processes: tuple[PostgresDatabase, PostgresDatabase],
) -> None:
    """A player created before Chocobataille declared its currency gets the starting galleons at their first
    use of the game: the unit reads the ledger for the grant and credits it when missing
    (`ensure_starting_grant`), a decision no guard re-checks. Both processes answering that player at once
    must grant once; under READ COMMITTED both read "missing" and both credit."""
    catalog = load_catalog(DATA_DIR / "choco.json", ChocoCatalog)
    registry, clock = GameRegistry((GAME,)), ManualClock(START)
    shops = [ChocoShop(db, clock, catalog, random.Random(7), registry=registry) for db in processes]

    def older_players(conn: Connection) -> None:
        for player in range(1, PLAYERS + 1):
            conn.execute("INSERT INTO players (id, created_at) VALUES (?, ?)", (player, to_db(START)))

    await processes[0].write(older_players)
    balances = set()
    for player in range(1, PLAYERS + 1):  # a pair at a time: two transactions that meet on one player
        balances.update(await asyncio.gather(*(shop.balance(player) for shop in shops)))
    assert balances == {CURRENCY.starting}
    grants = await processes[0].read(
        lambda c: c.execute(
            "SELECT COUNT(*) FROM ledger WHERE currency = ? AND reason = 'starting_grant'", (CHOCO_GOLD,)
        ).fetchone()[0]
    )
    assert grants == PLAYERS
    await processes[0].read(check_conservation)
