"""The issue's safety test: 50 concurrent purchases, sales and fusions for one player at once.

Afterwards gold and card counts match the ledger, no balance is negative, exactly ⌊gold ÷ price⌋
purchases succeed (sales credit gold only after the purchases were decided: see the setup), and a fused
or sold card never comes back."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from core.clock import ManualClock
from core.errors import DomainError
from engine.hoss.catalog import HossCatalog
from services.hoss.fusion import FusionService
from services.hoss.sale import HossSale
from services.hoss.shop import HossShop
from services.infra.games import GameRegistry
from store.connection import Connection
from store.db import Database
from tests.services.hoss.conftest import gold, mint, new_player, rank1_ids

Conservation = Callable[[Connection], None]


async def test_fifty_concurrent_purchases_sales_and_fusions(
    db: Database,
    clock: ManualClock,
    catalog: HossCatalog,
    shop: HossShop,
    sale: HossSale,
    conservation: Conservation,
    registry: GameRegistry,
) -> None:
    fusion = FusionService(db, clock, catalog, random.Random(7))
    player = 1
    await new_player(db, clock, player, gold=1_050, registry=registry)  # 10 boosters of 100, 50 left over
    floor = [await mint(db, clock, player, card) for card in rank1_ids(catalog)[:6]]  # the 6-card floor
    for_sale = [await mint(db, clock, player, "orc_guerrier_1", "argent") for _ in range(10)]  # 20 gold each
    pairs = [
        [await mint(db, clock, player, "sq_mage_1"), await mint(db, clock, player, "sq_mage_1")]
        for _ in range(10)
    ]

    purchases = [shop.buy(player, 1, key=f"buy-{i}") for i in range(20)]
    # Each sold card is sold by two concurrent clicks with different keys: only one may succeed.
    sales = [
        sale.sell(player, card, key=f"sell-{i}-{n}") for i, card in enumerate(for_sale[:10]) for n in (0, 1)
    ]
    fusions = [fusion.fuse(player, pair, key=f"fuse-{i}") for i, pair in enumerate(pairs)]
    jobs: list[Any] = [*purchases, *sales[:20], *fusions]
    assert len(jobs) == 50
    order = list(range(50))
    random.Random(3).shuffle(order)
    results = await asyncio.gather(*(jobs[i] for i in order), return_exceptions=True)
    by_job: list[Any] = [None] * 50
    for position, index in enumerate(order):
        by_job[index] = results[position]

    unexpected = [r for r in results if isinstance(r, BaseException) and not isinstance(r, DomainError)]
    assert unexpected == []
    bought = sum(1 for r in by_job[:20] if not isinstance(r, BaseException))
    sold = sum(1 for r in by_job[20:40] if not isinstance(r, BaseException))
    fused = sum(1 for r in by_job[40:] if not isinstance(r, BaseException))
    # Sales may land before purchases and add gold, so between 10 and (1,050 + 200) // 100 = 12 purchases.
    assert 10 <= bought <= 12
    assert sold == 10  # each of the 10 cards sold exactly once out of its two clicks
    assert fused == 10

    def check(conn: Connection) -> None:
        conservation(conn)
        sold_owners = conn.execute(
            f"SELECT COUNT(*) FROM cards WHERE id IN ({','.join('?' * len(for_sale))}) AND owner_id IS NOT NULL",
            for_sale,
        ).fetchone()[0]
        assert sold_owners == 0  # a sold card never comes back
        sacrificed = conn.execute(
            "SELECT COUNT(*) FROM cards WHERE card_key = 'sq_mage_1' AND owner_id IS NULL"
        ).fetchone()[0]
        assert sacrificed == 10  # one of each pair, gone for good
        kept = conn.execute(
            f"SELECT COUNT(*) FROM cards WHERE id IN ({','.join('?' * len(floor))}) AND owner_id = ?",
            [*floor, player],
        ).fetchone()[0]
        assert kept == 6
        negative = conn.execute("SELECT COUNT(*) FROM wallets WHERE balance < 0").fetchone()[0]
        assert negative == 0

    await db.read(check)
    assert await gold(db, player) == 1_050 - bought * 100 + sold * 20
