"""A player's visible copies are read once and kept until one of them changes (services/hoss/collection.py
`HossCollection.revealed`): every ledger change of a copy, and a flip, makes the next page read again.
Each case compares the kept collection with a fresh one that has never kept anything."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.clock import ManualClock
from engine.hoss.catalog import HossCatalog
from services.hoss.collection import CollectionFilter, HossCollection
from services.hoss.shop import HossShop
from services.infra import ledger
from services.infra.games import GameRegistry
from store.connection import Connection
from store.db import Database
from tests.services.hoss.conftest import mint, new_player
from tests.support.game_fixtures import GRANT

Change = Callable[[Connection, ManualClock, list[int]], object]


def _view(page_items: tuple[object, ...]) -> list[tuple[object, ...]]:
    return [(c.copy_id, c.card.id, c.rarity, c.stars, c.holo, c.locked) for c in page_items]  # type: ignore[attr-defined]


async def _both(collection: HossCollection, fresh: HossCollection, player: int) -> None:
    kept = await collection.list_copies(player)
    read = await fresh.list_copies(player)
    assert (_view(kept.items), kept.total, kept.face_down) == (_view(read.items), read.total, read.face_down)


@pytest.fixture
async def copies(db: Database, clock: ManualClock, registry: GameRegistry) -> list[int]:
    await new_player(db, clock, 1, registry=registry)
    await new_player(db, clock, 2, registry=registry)
    return [await mint(db, clock, 1, "sq_guerrier_1", "argent", 1) for _ in range(3)]


async def test_a_page_turn_reads_nothing_until_a_copy_changes(
    db: Database, clock: ManualClock, collection: HossCollection, copies: list[int]
) -> None:
    first = await collection.list_copies(1)
    reads = db.reads
    second = await collection.list_copies(1, sort="newest")
    found = await collection.search_copies(1)
    assert db.reads == reads
    assert sorted(c.copy_id for c in first.items) == sorted(c.copy_id for c in second.items) == copies
    assert [c.copy_id for c in found] == sorted(copies, reverse=True)
    await mint(db, clock, 1, "sq_guerrier_2a")
    assert (await collection.list_copies(1)).total == 4
    assert db.reads == reads + 1


CHANGES: dict[str, Change] = {
    "mint": lambda conn, clock, ids: ledger.mint_card(conn, clock.now(), 1, "hoss", "orc_guerrier_1", GRANT),
    "transfer": lambda conn, clock, ids: ledger.transfer_card(conn, clock.now(), ids[0], 1, 2, GRANT),
    "destroy": lambda conn, clock, ids: ledger.destroy_card(conn, clock.now(), ids[1], 1, GRANT),
    "lock": lambda conn, clock, ids: ledger.set_card_lock(conn, ids[:2], 1, "deck:1"),
    "properties": lambda conn, clock, ids: ledger.update_card_attrs(
        conn, ids[2], 1, {"rarity": "or", "stars": 4, "holo": True}
    ),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
async def test_each_ledger_change_of_a_copy_shows_on_the_next_page_of_both_owners(
    db: Database,
    clock: ManualClock,
    catalog: HossCatalog,
    collection: HossCollection,
    copies: list[int],
    change: str,
) -> None:
    await collection.list_copies(1)
    await collection.list_copies(2)
    await db.write(lambda conn: CHANGES[change](conn, clock, copies))
    fresh = HossCollection(db, catalog)
    await _both(collection, fresh, 1)
    await _both(collection, fresh, 2)


async def test_a_lock_released_or_moved_with_its_copy_shows_on_the_next_page(
    db: Database, clock: ManualClock, catalog: HossCatalog, collection: HossCollection, copies: list[int]
) -> None:
    """A trade's lock: released for one copy's owner, moved with the copy to the other player."""
    await db.write(lambda conn: ledger.set_card_lock(conn, copies, 1, "trade:7"))
    await collection.list_copies(1)
    await collection.list_copies(2)
    await db.write(
        lambda conn: ledger.transfer_locked_card(conn, clock.now(), copies[0], 1, 2, "trade:7", GRANT)
    )
    fresh = HossCollection(db, catalog)
    await _both(collection, fresh, 1)
    await _both(collection, fresh, 2)
    await db.write(lambda conn: ledger.release_lock(conn, "trade:7"))
    await _both(collection, fresh, 1)
    assert not any(c.locked for c in (await collection.list_copies(1)).items)


async def test_a_flip_shows_the_copy_it_turns(
    db: Database,
    clock: ManualClock,
    catalog: HossCatalog,
    collection: HossCollection,
    shop: HossShop,
    registry: GameRegistry,
) -> None:
    await new_player(db, clock, 3, gold=10_000, registry=registry)
    purchase = await shop.buy(3, 1, key="buy:1")
    opening = purchase.openings[0].id
    before = await collection.list_copies(3)
    await shop.flip(3, opening)
    after = await collection.list_copies(3)
    assert (after.total, after.face_down) == (before.total + 1, before.face_down - 1)
    await shop.flip_all(3, opening)
    fresh = HossCollection(db, catalog)
    await _both(collection, fresh, 3)
    assert (await collection.list_copies(3)).face_down == 0


async def test_a_change_that_fails_keeps_what_was_read(
    db: Database, clock: ManualClock, collection: HossCollection, copies: list[int]
) -> None:
    """A refused unit takes its announcement back: nothing changed, so nothing is read again."""
    await collection.list_copies(1)
    reads = db.reads

    def refused(conn: Connection) -> None:
        ledger.destroy_card(conn, clock.now(), copies[0], 1, GRANT)
        raise RuntimeError("refused after the change")

    with pytest.raises(RuntimeError, match="refused"):
        await db.write(refused)
    assert copies[0] in [c.copy_id for c in (await collection.list_copies(1)).items]
    assert db.reads == reads


async def test_each_order_is_sorted_once_and_a_filter_or_page_reuses_it(
    db: Database, clock: ManualClock, collection: HossCollection, copies: list[int]
) -> None:
    await collection.list_copies(1, sort="name", locale="fr")
    kept = await collection.revealed(1)
    first = kept.orders[("name", "fr")]
    await collection.list_copies(1, CollectionFilter(rarity="argent"), sort="name", locale="fr", page=2)
    await collection.list_copies(1, sort="name", locale="en")
    assert kept.orders[("name", "fr")] is first
    assert set(kept.orders) == {("name", "fr"), ("name", "en")}
    await mint(db, clock, 1, "sq_guerrier_2a")
    assert len((await collection.revealed(1)).orders) == 0  # forgotten with the player's copies
    assert (await collection.list_copies(1, sort="name", locale="fr")).total == 4
