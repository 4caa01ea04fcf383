"""40 concurrent frog purchases for one player through the real single writer, with a dozen keys clicked
twice or more: the ledger explains every galleon and card, nobody goes negative, double clicks count
once, and buying one at a time stops exactly when the galleons do."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any

from core.clock import ManualClock
from core.errors import DomainError
from services.choco.shop import ChocoShop
from services.infra.games import GameRegistry
from services.shared.shop import Purchase as FrogPurchase
from store.connection import Connection
from store.db import Database
from tests.services.choco.conftest import gold, new_player

Conservation = Callable[[Connection], None]


def _cards(conn: Connection) -> int:
    return int(conn.execute("SELECT COUNT(*) FROM cards WHERE owner_id = 1").fetchone()[0])


async def test_one_at_a_time_buys_exactly_gold_div_price(
    db: Database, clock: ManualClock, shop: ChocoShop, conservation: Conservation, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, gold=260, registry=registry)  # 10 frogs and 10 galleons left
    results = await asyncio.gather(
        *(shop.buy(1, 1, key=f"one-{i}") for i in range(40)), return_exceptions=True
    )
    assert [r for r in results if isinstance(r, BaseException) and not isinstance(r, DomainError)] == []
    outcomes = Counter(type(r).__name__ if isinstance(r, BaseException) else "ok" for r in results)
    assert outcomes == {"ok": 260 // 25, "InsufficientFunds": 40 - 260 // 25}
    assert await gold(db, 1) == 10
    assert await db.read(_cards) == 10
    await db.read(conservation)


async def test_double_clicks_under_concurrency_count_once(
    db: Database, clock: ManualClock, shop: ChocoShop, conservation: Conservation, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, gold=1_000, registry=registry)
    # 40 calls: keys 0..11 are clicked several times (a dozen double clicks), each buying 2 frogs.
    keys = [f"click-{i % 12}" for i in range(40)]
    results: list[Any] = await asyncio.gather(*(shop.buy(1, 2, key=k) for k in keys), return_exceptions=True)
    assert all(isinstance(r, FrogPurchase) for r in results)
    by_key: dict[str, set[tuple[int, ...]]] = {}
    for key, purchase in zip(keys, results, strict=True):
        by_key.setdefault(key, set()).add(tuple(c.copy_id for c in purchase.cards))
    assert len(by_key) == 12
    assert all(len(seen) == 1 for seen in by_key.values())
    assert sum(not p.replayed for p in results) == 12
    assert await gold(db, 1) == 1_000 - 12 * 50
    assert await db.read(_cards) == 24
    await db.read(conservation)


async def test_mixed_counts_never_overspend(
    db: Database, clock: ManualClock, shop: ChocoShop, conservation: Conservation, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, gold=500, registry=registry)
    results = await asyncio.gather(
        *(shop.buy(1, 1 + i % 10, key=f"mix-{i % 30}") for i in range(40)), return_exceptions=True
    )
    assert [r for r in results if isinstance(r, BaseException) and not isinstance(r, DomainError)] == []
    left = await gold(db, 1)
    bought = await db.read(_cards)
    assert left >= 0
    assert left + 25 * bought == 500
    await db.read(conservation)
