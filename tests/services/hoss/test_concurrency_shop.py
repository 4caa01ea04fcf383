"""50 concurrent purchases, sales and flips for one player (asyncio.gather through the real single writer):
gold and cards always match the ledger, nobody goes negative, purchases stop exactly when the gold does,
a sold card never comes back, double clicks count once."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from core.clock import ManualClock
from core.errors import BadInput, CardUnavailable, DomainError, InsufficientFunds
from engine.hoss.catalog import HossCatalog
from services.hoss.collection import HossCollection
from services.hoss.sale import HossSale, SaleResult
from services.hoss.shop import HossShop, Purchase
from services.infra.games import GameRegistry
from store.connection import Connection
from store.db import Database
from tests.services.hoss.conftest import gold, mint, new_player, rank1_ids, set_wins

Conservation = Callable[[Connection], None]


def _outcomes(results: list[Any]) -> Counter[str]:
    return Counter(type(r).__name__ if isinstance(r, BaseException) else "ok" for r in results)


def _unexpected(results: list[Any]) -> list[BaseException]:
    return [r for r in results if isinstance(r, BaseException) and not isinstance(r, DomainError)]


@pytest.mark.parametrize(
    ("start", "wins", "price"),
    [(300, {}, 100), (1_000, {1: 10, 2: 10}, 300), (2_050, {}, 100)],
    ids=["starting-gold", "tier-3", "twenty"],
)
async def test_only_purchases_race_exactly_gold_div_price_succeed(
    db: Database,
    clock: ManualClock,
    shop: HossShop,
    conservation: Conservation,
    start: int,
    wins: dict[int, int],
    price: int,
    registry: GameRegistry,
) -> None:
    await new_player(db, clock, 1, gold=start, registry=registry)
    await set_wins(db, 1, wins)
    results = await asyncio.gather(
        *(shop.buy(1, 1, key=f"buy-{i}") for i in range(50)), return_exceptions=True
    )
    assert _unexpected(results) == []
    bought = start // price
    assert _outcomes(results) == {"ok": bought, "InsufficientFunds": 50 - bought}
    assert await gold(db, 1) == start - bought * price
    cards = await db.read(
        lambda conn: conn.execute("SELECT COUNT(*) FROM cards WHERE owner_id = 1").fetchone()[0]
    )
    assert cards == 6 * bought
    await db.read(conservation)


async def test_double_clicks_under_concurrency_buy_once_per_interaction(
    db: Database, clock: ManualClock, shop: HossShop, conservation: Conservation, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, gold=10_000, registry=registry)
    results = await asyncio.gather(*(shop.buy(1, 2, key=f"click-{i % 10}") for i in range(50)))
    by_key: dict[int, set[tuple[int, ...]]] = {}
    for i, purchase in enumerate(results):
        by_key.setdefault(i % 10, set()).add(tuple(o.id for o in purchase.openings))
    assert all(len(seen) == 1 for seen in by_key.values())  # every click of one interaction: same openings
    assert sum(not p.replayed for p in results) == 10
    assert await gold(db, 1) == 10_000 - 10 * 200
    debits = await db.read(
        lambda conn: conn.execute(
            "SELECT COUNT(*) FROM ledger WHERE currency IS NOT NULL AND delta < 0"
        ).fetchone()[0]
    )
    assert debits == 10
    await db.read(conservation)


async def test_purchases_and_sales_race_for_one_player(
    db: Database,
    clock: ManualClock,
    shop: HossShop,
    sale: HossSale,
    collection: HossCollection,
    conservation: Conservation,
    catalog: HossCatalog,
    registry: GameRegistry,
) -> None:
    """25 purchases (550 gold: sales add at most 16, so exactly 5 succeed) and 25 sales aimed at 8
    duplicates, each card by 3 different clicks plus a repeated click: each card sells exactly once."""
    await new_player(db, clock, 1, gold=550, registry=registry)
    singles = rank1_ids(catalog)[:8]
    for card in singles:
        await mint(db, clock, 1, card)
    targets = [await mint(db, clock, 1, card) for card in singles]  # duplicates: the floor never interferes
    sells = [sale.sell(1, targets[i % 8], key=f"sell-{i}") for i in range(24)]
    sells.append(sale.sell(1, targets[0], key="sell-0"))  # a double click of the first sale
    buys = [shop.buy(1, 1, key=f"buy-{i}") for i in range(25)]
    tasks: list[Any] = [x for pair in zip(buys, sells, strict=True) for x in pair]  # interleaved
    results = await asyncio.gather(*tasks, return_exceptions=True)
    assert _unexpected(results) == []
    purchases = [r for r in results if isinstance(r, Purchase)]
    sales = [r for r in results if isinstance(r, SaleResult)]
    assert len(purchases) == 5
    fresh_sales = [s for s in sales if not s.replayed]
    assert sorted(s.copy_ids[0] for s in fresh_sales) == sorted(targets)  # each exactly once
    # SQLite runs the units in the order they came: "sell-0" sells its card and its double click replays it.
    # PostgreSQL may serialise them otherwise: when another click sold that card first, both clicks of
    # "sell-0" are refused (a refusal stores no answer under its key).
    first_click, double_click = results[1], results[-1]
    refused_twice = isinstance(first_click, CardUnavailable)
    assert refused_twice == isinstance(double_click, CardUnavailable)
    assert sum(isinstance(r, CardUnavailable) for r in results) == 24 - 8 + refused_twice
    assert sum(isinstance(r, InsufficientFunds) for r in results) == 20
    assert await gold(db, 1) == 550 - 5 * 100 + 8 * 2
    owners = await db.read(
        lambda conn: conn.execute(
            f"SELECT DISTINCT owner_id FROM cards WHERE id IN ({','.join('?' * len(targets))})", targets
        ).fetchall()
    )
    assert [tuple(o) for o in owners] == [(None,)]  # a sold card never comes back
    for copy_id in targets:
        with pytest.raises(CardUnavailable):
            await sale.sell(1, copy_id, key=f"again-{copy_id}")
    listed = {c.copy_id for c in (await collection.list_copies(1, page=1)).items}
    assert not listed & set(targets)
    await db.read(conservation)


async def test_concurrent_sales_never_break_the_floor(
    db: Database,
    clock: ManualClock,
    sale: HossSale,
    conservation: Conservation,
    catalog: HossCatalog,
    registry: GameRegistry,
) -> None:
    await new_player(db, clock, 1, gold=0, registry=registry)
    uniques = [await mint(db, clock, 1, card) for card in rank1_ids(catalog)[:7]]
    results = await asyncio.gather(
        *(sale.sell(1, uniques[i % 7], key=f"s{i}") for i in range(50)), return_exceptions=True
    )
    assert _unexpected(results) == []
    assert _outcomes(results)["ok"] == 1  # 7 different Rang 1: exactly one may go
    assert all(isinstance(r, SaleResult | BadInput | CardUnavailable) for r in results)
    left = await db.read(
        lambda conn: conn.execute("SELECT COUNT(DISTINCT card_key) FROM cards WHERE owner_id = 1").fetchone()[
            0
        ]
    )
    assert left == 6
    assert await gold(db, 1) == 2
    await db.read(conservation)


async def test_concurrent_flips_turn_each_card_once(db: Database, clock: ManualClock, shop: HossShop) -> None:
    opening = (await shop.buy(1, 1, key="b")).openings[0]
    clicks = [shop.flip(1, opening.id, p) for p in range(6) for _ in range(8)] + [
        shop.flip_all(1, opening.id) for _ in range(2)
    ]
    results = await asyncio.gather(*clicks, return_exceptions=True)
    assert _unexpected(results) == []
    turned = [p for r in results if not isinstance(r, BaseException) for p in r.flipped]
    assert sorted(turned) == list(range(6))  # out-of-order clicks are refused, nothing flips twice
    assert (await shop.opening(1, opening.id)).next_position is None
