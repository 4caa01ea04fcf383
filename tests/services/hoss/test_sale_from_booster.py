"""Selling from a booster: an Argent-or-rarer card is sold only once confirmed (the first pick in the
« Vendre … » select changes nothing and says what would be sold), a Basique sells at once, and the
confirmation sells once however many times it is clicked at the same time."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

import pytest

from core.clock import ManualClock
from core.errors import NotFound
from services.hoss.sale import SaleResult
from services.hoss.shop import HossShop, Opening, SaleToConfirm, needs_confirmation
from services.infra.games import GameRegistry
from store.connection import Connection
from store.db import Database
from tests.services.hoss.conftest import gold, new_player

Conservation = Callable[[Connection], None]
CLICKS = 20


async def flipped_with(
    db: Database, clock: ManualClock, shop: HossShop, rarities: dict[int, str], registry: GameRegistry
) -> Opening:
    """Player 1's first booster, face up, its cards at the given positions set to the given rarities."""
    await new_player(db, clock, 1, gold=300, registry=registry)
    opening, *others = (await shop.buy(1, 3, key="b")).openings  # 15 creatures: well above the Rang 1 floor
    for other in others:  # opened, so their copies are the player's
        await shop.flip_all(1, other.id)
    await shop.flip_all(1, opening.id)
    opening = await shop.opening(1, opening.id)

    def unit(conn: Connection) -> None:
        for slot in opening.cards:
            if slot.position in rarities:
                attrs = {"rarity": rarities[slot.position], "stars": 0, "holo": False}
                conn.execute("UPDATE cards SET attrs = ? WHERE id = ?", (json.dumps(attrs), slot.copy_id))

    await db.write(unit)
    return await shop.opening(1, opening.id)


def test_argent_and_rarer_need_a_confirmation() -> None:
    assert [needs_confirmation(r) for r in ("basique", "argent", "or", "platine", "diamant", "divin")] == [
        False,
        True,
        True,
        True,
        True,
        True,
    ]


async def test_an_or_card_asks_first_and_sells_once_confirmed(
    db: Database, clock: ManualClock, shop: HossShop, conservation: Conservation, registry: GameRegistry
) -> None:
    opening = await flipped_with(db, clock, shop, {0: "or"}, registry=registry)
    before = await gold(db, 1)
    asked = await shop.sell_from_opening(1, opening.id, 0, key="pick")
    assert isinstance(asked, SaleToConfirm)
    assert (asked.position, asked.rarity, asked.card) == (0, "or", opening.cards[0].card)
    assert asked.price > 0
    assert await gold(db, 1) == before  # nothing sold yet
    assert (await shop.opening(1, opening.id)).cards[0].owned
    asked_again = await shop.sell_from_opening(1, opening.id, 0, key="pick")
    assert isinstance(asked_again, SaleToConfirm)  # the pick's key stored nothing: it asks again

    sold = await shop.sell_from_opening(1, opening.id, 0, key="ok", confirmed=True)
    assert isinstance(sold, SaleResult)
    assert sold.total == asked.price
    assert await gold(db, 1) == before + asked.price
    assert (await shop.opening(1, opening.id)).cards[0].owned is False
    await db.read(conservation)


async def test_a_basique_card_sells_at_once(
    db: Database, clock: ManualClock, shop: HossShop, registry: GameRegistry
) -> None:
    opening = await flipped_with(db, clock, shop, {1: "basique"}, registry=registry)
    before = await gold(db, 1)
    sold = await shop.sell_from_opening(1, opening.id, 1, key="pick")
    assert isinstance(sold, SaleResult)
    assert await gold(db, 1) == before + sold.total


async def test_a_double_click_on_the_confirmation_sells_once(
    db: Database, clock: ManualClock, shop: HossShop, conservation: Conservation, registry: GameRegistry
) -> None:
    opening = await flipped_with(db, clock, shop, {2: "divin"}, registry=registry)
    before = await gold(db, 1)
    results = await asyncio.gather(
        *(shop.sell_from_opening(1, opening.id, 2, key="msg:2", confirmed=True) for _ in range(CLICKS))
    )
    assert all(isinstance(r, SaleResult) for r in results)
    sold = [r for r in results if isinstance(r, SaleResult)]
    assert sum(not r.replayed for r in sold) == 1
    assert {(r.copy_ids, r.total, r.balance) for r in sold} == {
        (sold[0].copy_ids, sold[0].total, sold[0].balance)
    }
    assert await gold(db, 1) == before + sold[0].total
    await db.read(conservation)


async def test_another_players_opening_is_refused_before_any_question(
    db: Database, clock: ManualClock, shop: HossShop, registry: GameRegistry
) -> None:
    opening = await flipped_with(db, clock, shop, {0: "or"}, registry=registry)
    await new_player(db, clock, 2, registry=registry)
    with pytest.raises(NotFound):
        await shop.sell_from_opening(2, opening.id, 0, key="x")
