"""Packs: the rulebook's constraints (20 to 100 cards, at most 3 identical, a copy in one pack only), the
locks that hold each copy, dissolution, skills, and dozens of simultaneous edits."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Coroutine
from typing import Any

import pytest

from core.errors import NotAllowed, NotFound
from engine.dinocard import DinocardCatalog
from services.dinocard import DinocardServices
from services.dinocard.packs import lock_of, parse_cards
from services.shared.collecting import DeckInvalid
from store.db import Database
from tests.services.dinocard.conftest import ALICE, BOB, element_pack, fire_pack, locks


async def test_the_starter_collection_is_given_once(dino: DinocardServices, catalog: DinocardCatalog) -> None:
    first = await dino.collection.page(ALICE)
    again = await dino.collection.page(ALICE)
    commons = sum(1 for c in catalog.cards if c.rarity == "commune")
    assert first.starter == 2 * commons
    assert again.starter == 0
    assert again.copies == 2 * commons


async def test_a_pack_locks_one_copy_per_card_and_dissolving_frees_them(
    dino: DinocardServices, db: Database, catalog: DinocardCatalog
) -> None:
    cards = fire_pack(catalog)
    view = await dino.packs.create(ALICE, "Feu", cards)
    assert view.pack.level == 1
    assert view.pack.cards == tuple(cards)
    held = await locks(db)
    assert Counter(k for _, k, _ in held) == Counter(cards)
    assert {lock for _, _, lock in held} == {lock_of(view.pack.id)}
    # the same copies cannot go into a second pack
    with pytest.raises(DeckInvalid) as refused:
        await dino.packs.create(ALICE, "Encore", cards)
    assert {p.key for p in refused.value.problems} == {"dinocard.pack.problem.copies_free"}
    dissolved = await dino.packs.dissolve(ALICE, "feu")
    assert dissolved.id == view.pack.id
    assert await locks(db) == []
    again = await dino.packs.create(ALICE, "Feu", cards)  # rebuilt at once, at level 1
    assert again.pack.id != view.pack.id
    assert (await dino.collection.page(ALICE)).copies == 2 * sum(
        1 for c in catalog.cards if c.rarity == "commune"
    )


async def test_size_and_copies_are_checked_and_every_problem_listed(
    dino: DinocardServices, catalog: DinocardCatalog
) -> None:
    await dino.collection.page(ALICE)
    fire = fire_pack(catalog)
    with pytest.raises(DeckInvalid) as small:
        await dino.packs.create(ALICE, "Petit", fire[:19])
    assert [p.key for p in small.value.problems] == ["dinocard.pack.problem.too_small"]
    four = [fire[0]] * 4 + element_pack(catalog, "eau")
    with pytest.raises(DeckInvalid) as copies:
        await dino.packs.create(ALICE, "Quatre", four)
    keys = [p.key for p in copies.value.problems]
    assert "dinocard.pack.problem.copies" in keys  # 4 identical
    assert "dinocard.pack.problem.copies_free" in keys  # and she owns only 2
    too_large = element_pack(catalog, "eau") * 6
    with pytest.raises(DeckInvalid) as large:
        await dino.packs.create(ALICE, "Grand", too_large)
    assert "dinocard.pack.problem.too_large" in [p.key for p in large.value.problems]


async def test_another_players_pack_reads_as_unknown(
    dino: DinocardServices, catalog: DinocardCatalog
) -> None:
    view = await dino.packs.create(ALICE, "Feu", fire_pack(catalog))
    with pytest.raises(NotFound):
        await dino.packs.show(BOB, str(view.pack.id))
    with pytest.raises(NotFound):
        await dino.packs.dissolve(BOB, str(view.pack.id))


async def test_edits_add_and_remove_cards_with_their_copies(
    dino: DinocardServices, db: Database, catalog: DinocardCatalog
) -> None:
    view = await dino.packs.create(ALICE, "Feu", fire_pack(catalog))
    water = element_pack(catalog, "eau")[:4]
    grown = await dino.packs.edit(ALICE, "Feu", add=water)
    assert len(grown.pack.cards) == 24
    shrunk = await dino.packs.edit(ALICE, "Feu", remove=water[:2])
    assert len(shrunk.pack.cards) == 22
    held = await locks(db)
    assert Counter(k for _, k, _ in held) == Counter(shrunk.pack.cards)
    with pytest.raises(DeckInvalid):
        await dino.packs.edit(ALICE, "Feu", remove=list(shrunk.pack.cards[:3]))  # below 20
    assert (await dino.packs.show(ALICE, str(view.pack.id))).pack.cards == shrunk.pack.cards


async def test_skill_points_one_per_level(dino: DinocardServices, catalog: DinocardCatalog) -> None:
    await dino.packs.create(ALICE, "Feu", fire_pack(catalog))
    spent = await dino.packs.spend(ALICE, "Feu", "life", 1)
    assert spent.pack.skills.life == 1
    assert spent.pack.points_left == 0
    with pytest.raises(NotAllowed):
        await dino.packs.spend(ALICE, "Feu", "daily", 1)


async def test_typed_cards_read_names_and_counts(catalog: DinocardCatalog) -> None:
    cards = {c.id: c for c in catalog.cards}
    assert parse_cards("Moueffe x3, nuage_burger", cards) == ["moueffe"] * 3 + ["nuage_burger"]


async def test_dozens_of_simultaneous_edits_never_put_a_copy_in_two_packs(
    dino: DinocardServices, db: Database, catalog: DinocardCatalog
) -> None:
    await dino.collection.page(ALICE)
    elements = ["feu", "bois", "eau", "foudre", "ciel"]
    tries = []
    for round_ in range(8):
        for element in elements:
            tries.append(dino.packs.create(ALICE, f"{element}{round_}", element_pack(catalog, element)))
            tries.append(dino.packs.create(ALICE, f"auto{element}{round_}", None, element))
    results = await asyncio.gather(*tries, return_exceptions=True)
    made = [r for r in results if not isinstance(r, BaseException)]
    assert all(isinstance(r, DeckInvalid) for r in results if isinstance(r, BaseException))
    assert 1 <= len(made) <= 5
    packs = await dino.packs.mine(ALICE)
    edits: list[Coroutine[Any, Any, object]] = []
    for view in packs:
        other = next(e for e in elements if e != catalog.card(view.pack.cards[0]).element)  # type: ignore[union-attr]
        edits.append(dino.packs.edit(ALICE, str(view.pack.id), add=element_pack(catalog, other)[:2]))
        edits.append(dino.packs.dissolve(ALICE, str(view.pack.id)))
    await asyncio.gather(*edits, return_exceptions=True)
    held = await locks(db)
    final = await dino.packs.mine(ALICE)
    expected: Counter[str] = Counter()
    for view in final:
        expected.update(view.pack.cards)
    assert Counter(k for _, k, _ in held) == expected
    by_lock = Counter(lock for _, _, lock in held)
    assert by_lock == Counter({lock_of(v.pack.id): len(v.pack.cards) for v in final})
