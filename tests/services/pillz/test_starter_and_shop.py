"""The starter deck (given once, even to 20 concurrent first calls) and pack purchases (40 concurrent with
double clicks: the ledger explains every coin and character, double clicks count once)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from core.clock import ManualClock
from core.errors import BadInput, DomainError
from engine.pillz.catalog import PillzCatalog
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from services.pillz import PillzEconomy
from services.pillz.decks import active_deck
from services.pillz.economy import PILLZ_GOLD, ensure_starter
from services.shared.shop import Purchase as PackPurchase
from store.connection import Connection
from store.db import Database
from tests.services.pillz.conftest import gold, owned, set_gold

Conservation = Callable[[Connection], None]


async def test_twenty_concurrent_first_calls_give_one_starter(
    db: Database, economy: PillzEconomy, catalog: PillzCatalog, conservation: Conservation
) -> None:
    calls: list[Any] = []
    for i in range(20):
        if i % 3 == 0:
            calls.append(economy.collection.page(7))
        elif i % 3 == 1:
            calls.append(economy.shop.balance(7))
        else:
            calls.append(economy.decks.show(7, 1))
    results = await asyncio.gather(*calls)
    assert await owned(db, 7) == 8
    starters = [r.starter for r in results[::3] if r.starter]
    assert len(starters) <= 1
    reasons = await db.read(
        lambda conn: Counter(
            r
            for (r,) in conn.execute(
                "SELECT reason FROM ledger WHERE player_id = 7 AND (currency IS NULL OR currency = 'pillz_gold')"
            )
        )
    )  # Pillz's rows only: a registry of more games grants their wallets too
    assert reasons["pillz.starter"] == 8
    assert reasons["starting_grant"] == 1
    deck = await db.read(lambda conn: active_deck(conn, 7, {c.id: c for c in catalog.cards}))
    assert deck is not None
    assert len(set(deck)) == 8
    by_id = {c.id: c for c in catalog.cards}
    assert all(by_id[c].stars in (1, 2) and not by_id[c].leader for c in deck)
    assert await gold(db, 7) == 300
    await db.read(conservation)


async def test_a_player_from_before_pillz_gets_coins_and_starter_once(
    db: Database, clock: ManualClock, economy: PillzEconomy, registry: GameRegistry
) -> None:
    before_pillz = GameRegistry()  # the player was created when no game declared Pillz's coins
    await db.write(lambda conn: ensure_player(conn, 9, clock.now(), before_pillz))
    assert await gold(db, 9) == 0
    assert await economy.shop.balance(9) == 300
    assert await economy.shop.balance(9) == 300
    again = await db.write(
        lambda conn: ensure_starter(conn, clock.now(), registry, 9, economy.shop.pool, economy.shop.rng)
    )
    assert again is None
    assert await owned(db, 9) == 8


async def test_buy_packs_and_replay_the_same_click(db: Database, economy: PillzEconomy) -> None:
    purchase = await economy.shop.buy(1, 2, key="k1")
    assert (purchase.count, purchase.price, purchase.total, purchase.balance) == (2, 100, 200, 100)
    assert [len(p) for p in purchase.packs] == [3, 3]
    assert not purchase.replayed
    again = await economy.shop.buy(1, 2, key="k1")
    assert again.replayed
    assert again.packs == purchase.packs
    assert await gold(db, 1) == 100
    assert await owned(db, 1) == 8 + 6
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT COUNT(*) FROM ledger WHERE reason = 'pillz.pack' AND ref = 'k1'"
        ).fetchone()
    )
    assert tuple(rows) == (7,)  # one debit and six characters


@pytest.mark.parametrize("count", [0, 6, True])
async def test_pack_count_is_checked(economy: PillzEconomy, count: int) -> None:
    with pytest.raises(BadInput):
        await economy.shop.buy(1, count, key="bad")


async def test_odds_show_the_table_and_the_wallet(economy: PillzEconomy) -> None:
    odds = await economy.shop.odds_for(3)
    assert [(s.tier, s.per_mille, s.cards) for s in odds.tiers] == [
        (1, 400, 6),
        (2, 300, 6),
        (3, 180, 5),
        (4, 90, 5),
        (5, 30, 2),
    ]
    assert (odds.price, odds.cards_per_pack, odds.max_count, odds.balance) == (100, 3, 5, 300)


async def test_double_clicks_under_concurrency_count_once(
    db: Database,
    clock: ManualClock,
    economy: PillzEconomy,
    conservation: Conservation,
    registry: GameRegistry,
) -> None:
    await economy.shop.balance(1)
    await set_gold(db, clock, 1, 2_000, registry=registry)
    keys = [f"click-{i % 12}" for i in range(40)]
    results: list[Any] = await asyncio.gather(*(economy.shop.buy(1, 1, key=k) for k in keys))
    assert all(isinstance(r, PackPurchase) for r in results)
    by_key: dict[str, set[tuple[int, ...]]] = {}
    for key, purchase in zip(keys, results, strict=True):
        by_key.setdefault(key, set()).add(tuple(c.copy_id for p in purchase.packs for c in p))
    assert len(by_key) == 12
    assert all(len(seen) == 1 for seen in by_key.values())
    assert sum(not p.replayed for p in results) == 12
    assert await gold(db, 1) == 2_000 - 12 * 100
    assert await owned(db, 1) == 8 + 12 * 3
    await db.read(conservation)


async def test_forty_concurrent_purchases_stop_exactly_when_the_coins_do(
    db: Database,
    clock: ManualClock,
    economy: PillzEconomy,
    conservation: Conservation,
    registry: GameRegistry,
) -> None:
    await economy.shop.balance(1)
    await set_gold(db, clock, 1, 350, registry=registry)
    results = await asyncio.gather(
        *(economy.shop.buy(1, 1, key=f"one-{i}") for i in range(40)), return_exceptions=True
    )
    assert [r for r in results if isinstance(r, BaseException) and not isinstance(r, DomainError)] == []
    outcomes = Counter(type(r).__name__ if isinstance(r, BaseException) else "ok" for r in results)
    assert outcomes == {"ok": 3, "InsufficientFunds": 37}
    assert await gold(db, 1) == 50
    assert await owned(db, 1) == 8 + 9
    total = await db.read(
        lambda conn: conn.execute(
            "SELECT SUM(delta) FROM ledger WHERE player_id = 1 AND currency = ?", (PILLZ_GOLD,)
        ).fetchone()[0]
    )
    assert total == 50
    await db.read(conservation)
