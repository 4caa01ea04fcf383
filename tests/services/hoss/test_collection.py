"""The collection: filters, every sort order (names in the reader's language), pages, hidden face-down
cards, and a copy's effective stats as the battle engine computes them."""

from __future__ import annotations

import pytest

from core.clock import ManualClock
from core.errors import BadInput, CardUnavailable, NotAllowed
from services.hoss.collection import CollectionFilter, HossCollection
from services.hoss.shop import HossShop
from services.infra.games import GameRegistry
from services.shared.collection import PAGE_SIZE
from store.db import Database
from tests.services.hoss.conftest import assert_localized, mint, new_player

# name: (card, rarity, stars, holo). French names: Acolyte (F) < Archer (I) < Centurion (C) < Cogneur (E)
# < Gourde (H) < Légionnaire (A, B) < Rosée (G) < Seigneur (D).
COPIES = {
    "A": ("sq_guerrier_1", "basique", 0, False),
    "B": ("sq_guerrier_1", "or", 3, False),
    "C": ("sq_guerrier_2a", "argent", 1, False),
    "D": ("sq_guerrier_3a", "divin", 0, True),
    "E": ("orc_guerrier_1", "platine", 5, False),
    "F": ("sq_mage_1", "basique", 2, False),
    "G": ("buff_soins", "diamant", 0, False),
    "H": ("buff_pv", "basique", 0, True),
    "I": ("orc_archer_1", "argent", 1, False),
}


@pytest.fixture
async def owned(db: Database, clock: ManualClock, registry: GameRegistry) -> dict[int, str]:
    """Copy id -> letter, for player 1; player 2 owns one card too."""
    await new_player(db, clock, 1, registry=registry)
    await new_player(db, clock, 2, registry=registry)
    ids = {}
    for letter, (card, rarity, stars, holo) in COPIES.items():
        ids[await mint(db, clock, 1, card, rarity, stars, holo)] = letter
    await mint(db, clock, 2, "sq_guerrier_1")
    return ids


async def _letters(
    collection: HossCollection,
    owned: dict[int, str],
    criteria: CollectionFilter | None = None,
    **kwargs: object,
) -> list[str]:
    page = await collection.list_copies(1, criteria, **kwargs)  # type: ignore[arg-type]
    return [owned[c.copy_id] for c in page.items]


@pytest.mark.parametrize(
    ("criteria", "expected"),
    [
        (CollectionFilter(race="squelette"), "ABCDF"),
        (CollectionFilter(cls="guerrier"), "ABCDE"),
        (CollectionFilter(rank=1), "ABEFI"),
        (CollectionFilter(rarity="basique"), "AFH"),
        (CollectionFilter(stars=1), "CI"),
        (CollectionFilter(holo=True), "DH"),
        (CollectionFilter(kind="buff"), "GH"),
        (CollectionFilter(kind="creature", race="orc", rank=1), "EI"),
        (CollectionFilter(race="humain"), ""),
    ],
)
async def test_filters(
    collection: HossCollection, owned: dict[int, str], criteria: CollectionFilter, expected: str
) -> None:
    assert sorted(await _letters(collection, owned, criteria, sort="newest")) == list(expected)


@pytest.mark.parametrize(
    ("sort", "locale", "expected"),
    [
        ("rarity", None, "DGEBCIHFA"),
        ("rank", "fr", "DCEBIFAGH"),
        ("name", "fr", "FICEHBAGD"),
        ("name", "en", "FIEBAGHDC"),
        ("stars", "fr", "EBFICDGHA"),
        ("price", "fr", "DHGEBCIFA"),
        ("newest", None, "IHGFEDCBA"),
    ],
)
async def test_sort_orders(
    collection: HossCollection, owned: dict[int, str], sort: str, locale: str | None, expected: str
) -> None:
    page = await collection.list_copies(1, sort=sort, locale=locale)
    assert "".join(owned[c.copy_id] for c in page.items) == expected
    assert (page.total, page.pages, page.page) == (9, 1, 1)


async def test_pages(
    db: Database, clock: ManualClock, collection: HossCollection, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, registry=registry)
    empty = await collection.list_copies(1)
    assert (empty.items, empty.total, empty.pages, empty.page) == ((), 0, 1, 1)
    ids = [await mint(db, clock, 1, "sq_guerrier_1", stars=i % 6) for i in range(23)]
    pages = [await collection.list_copies(1, sort="newest", page=p) for p in (1, 2, 3)]
    assert [len(p.items) for p in pages] == [PAGE_SIZE, PAGE_SIZE, 3] == [10, 10, 3]
    assert [c.copy_id for p in pages for c in p.items] == ids[::-1]
    assert {(p.total, p.pages) for p in pages} == {(23, 3)}
    assert (await collection.list_copies(1, sort="newest", page=99)).items == pages[2].items  # past the end
    assert (await collection.list_copies(1, sort="newest", page=0)).page == 1


async def test_face_down_cards_are_not_listed(
    db: Database, clock: ManualClock, collection: HossCollection, shop: HossShop, owned: dict[int, str]
) -> None:
    opening = (await shop.buy(1, 1, key="b")).openings[0]
    page = await collection.list_copies(1)
    assert (page.total, page.face_down) == (9, 6)
    await shop.flip(1, opening.id)
    page = await collection.list_copies(1)
    assert (page.total, page.face_down) == (10, 5)


@pytest.mark.parametrize(
    ("criteria", "key"),
    [
        (CollectionFilter(race="elfe"), "hoss.error.collection.race"),
        (CollectionFilter(cls="pirate"), "hoss.error.collection.class"),
        (CollectionFilter(rarity="mythique"), "hoss.error.collection.rarity"),
        (CollectionFilter(rank=4), "hoss.error.collection.filter"),
        (CollectionFilter(stars=6), "hoss.error.collection.filter"),
        (CollectionFilter(kind="land"), "hoss.error.collection.filter"),
    ],
)
async def test_bad_filters_are_refused(
    collection: HossCollection, criteria: CollectionFilter, key: str
) -> None:
    with pytest.raises(BadInput) as caught:
        await collection.list_copies(1, criteria)
    assert caught.value.key == key
    assert_localized(caught.value)


async def test_unknown_sort(collection: HossCollection) -> None:
    with pytest.raises(BadInput) as caught:
        await collection.list_copies(1, sort="colour")
    assert caught.value.key == "hoss.error.collection.sort"
    assert_localized(caught.value)


# --- a copy's effective stats ----------------------------------------------------------------------------


def _id(owned: dict[int, str], letter: str) -> int:
    return next(i for i, x in owned.items() if x == letter)


async def test_a_basique_0_star_copy_has_the_catalogs_stats(
    collection: HossCollection, owned: dict[int, str]
) -> None:
    detail = await collection.detail(1, _id(owned, "A"))  # Légionnaire: 92 PV, 13 ATK, 2 s, crit 10 % +10 %
    stats = detail.creature
    assert stats is not None
    assert detail.bonus == 0
    assert detail.evolution_chance == 0
    assert (stats.pv, stats.atk, stats.interval_s, stats.crit_chance) == (92, 13, 2.0, 0.1)
    assert stats.crit_multiplier == pytest.approx(1.6)
    assert stats.dodge["guerrier"] == pytest.approx(0.05 + 0.04)  # class table + the card's dodge bonus
    assert detail.copy.price == 2
    assert detail.copy.rank == 1


async def test_bonuses_scale_every_stat(collection: HossCollection, owned: dict[int, str]) -> None:
    detail = await collection.detail(1, _id(owned, "B"))  # Or 3 stars: +19.5 %
    stats = detail.creature
    assert stats is not None
    assert detail.bonus == pytest.approx(0.195)
    assert detail.evolution_chance == pytest.approx(0.195)
    assert stats.pv == 92 * 11950 // 100 / 100 == 109.94
    assert stats.atk == pytest.approx(13 * 1.195)
    assert stats.crit_chance == pytest.approx(0.1 * 1.195)
    assert stats.interval_s == 2.0 * (1 - 0.195 / 2)  # the bonus joins the attack-speed total
    mage = (await collection.detail(1, _id(owned, "F"))).creature  # Basique 2 stars: +4 %, Gel 23 %
    assert mage is not None
    assert mage.statuses == {"gel": pytest.approx(0.23 * 1.04)}
    master = await collection.detail(1, _id(owned, "D"))  # Divin 0 star holo: +20 %, a Maître never evolves
    assert master.bonus == pytest.approx(0.2)
    assert master.evolution_chance is None


async def test_a_buff_copy_shows_its_strength(collection: HossCollection, owned: dict[int, str]) -> None:
    detail = await collection.detail(1, _id(owned, "H"))  # PV 10 %, holo +20 %
    assert detail.creature is None
    assert detail.evolution_chance is None
    assert detail.buff_strength == pytest.approx(0.12)
    assert detail.copy.price == 50_002


async def test_detail_of_someone_elses_or_a_face_down_copy(
    db: Database, collection: HossCollection, shop: HossShop, owned: dict[int, str]
) -> None:
    theirs = await db.read(lambda conn: conn.execute("SELECT id FROM cards WHERE owner_id = 2").fetchone()[0])
    with pytest.raises(CardUnavailable) as caught:
        await collection.detail(1, theirs)
    assert caught.value.key == "hoss.error.card.not_yours"
    assert_localized(caught.value)
    opening = (await shop.buy(1, 1, key="b")).openings[0]
    hidden = await db.read(
        lambda conn: conn.execute(
            "SELECT card_id FROM hoss_opening_cards WHERE opening_id = ? AND position = 0", (opening.id,)
        ).fetchone()[0]
    )
    with pytest.raises(NotAllowed) as down:
        await collection.detail(1, hidden)
    assert down.value.key == "hoss.error.card.face_down"
    assert_localized(down.value)
