"""The collection: copies grouped by card with their count, filters, rarest first then by name in the
reader's language, pages of 10."""

from __future__ import annotations

import pytest

from core.clock import ManualClock
from core.errors import BadInput
from engine.choco.catalog import ChocoCatalog
from services.choco.collection import ChocoCollection
from services.infra.catalogs import fold
from services.infra.games import GameRegistry
from store.db import Database
from tests.services.choco.conftest import give, of_rarity


async def test_grouped_filtered_sorted_and_paged(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    collection: ChocoCollection,
    registry: GameRegistry,
) -> None:
    bronze = of_rarity(catalog, "bronze_1")[:12]
    gold = of_rarity(catalog, "or_2")[:2]
    await give(
        db,
        clock,
        1,
        {c.id: 1 for c in bronze} | {bronze[0].id: 3} | {c.id: 2 for c in gold},
        registry=registry,
    )
    first = await collection.page(1, locale="fr")
    assert (first.cards, first.copies, first.pages, first.page) == (14, 3 + 11 + 4, 2, 1)
    assert [o.card.rarity for o in first.items[:2]] == ["or_2", "or_2"]  # rarest first
    names = [o.card.name.get("fr") for o in first.items[2:]]
    assert names == sorted(names, key=fold)
    last = await collection.page(1, page=99, locale="fr")
    assert last.page == 2
    assert len(last.items) == 4
    only = await collection.page(1, rarity="or_2")
    assert [o.count for o in only.items] == [2, 2]
    counted = {o.card.id: o.count for o in (await collection.page(1, rarity="bronze_1", page=1)).items}
    counted |= {o.card.id: o.count for o in (await collection.page(1, rarity="bronze_1", page=2)).items}
    assert counted[bronze[0].id] == 3
    pures = await collection.page(1, card_type="pure")
    assert all(o.card.type == "pure" for o in pures.items)


async def test_empty_and_bad_filters(db: Database, collection: ChocoCollection) -> None:
    empty = await collection.page(7)
    assert (empty.items, empty.pages, empty.cards) == ((), 1, 0)
    with pytest.raises(BadInput):
        await collection.page(7, rarity="platine")
    with pytest.raises(BadInput):
        await collection.page(7, card_type="dragon")
