"""Selling: the rulebook's prices, the six different Rang 1 floor, locks and face-down cards, one card or a
quoted bulk sale, each one idempotent unit with its ledger rows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from core.clock import ManualClock
from core.errors import BadInput, CardUnavailable, NotAllowed
from engine.hoss.catalog import HossCatalog
from engine.hoss.economy import Selling, floor_refusals, sale_price
from services.hoss.collection import CollectionFilter
from services.hoss.sale import HossSale, Refusal
from services.hoss.shop import HossShop
from services.infra import ledger
from services.infra.games import GameRegistry
from store.connection import Connection
from store.db import Database
from tests.services.hoss.conftest import assert_localized, gold, mint, new_player, rank1_ids, snapshot

Conservation = Callable[[Connection], None]

R1 = [
    "sq_guerrier_1",
    "sq_cavalier_1",
    "sq_lancier_1",
    "sq_assassin_1",
    "sq_archer_1",
    "sq_mage_1",
    "sq_defenseur_1",
    "orc_guerrier_1",
]


@pytest.fixture(autouse=True)
def _known_ids(catalog: HossCatalog) -> None:
    assert set(R1) <= set(rank1_ids(catalog))


# --- pure ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rarity", "rank", "holo", "price"),
    [
        ("basique", 1, False, 2),
        ("argent", 1, False, 20),
        ("or", 1, False, 200),
        ("platine", 1, False, 1_500),
        ("diamant", 1, False, 8_000),
        ("divin", 1, False, 25_000),
        ("or", 3, False, 800),  # the rulebook's example: an Or Maître sells for 800
        ("divin", 2, False, 50_000),
        ("argent", None, False, 20),  # a buff is priced as a Rang 1
        ("basique", None, True, 50_002),
        ("diamant", 3, True, 82_000),
    ],
)
def test_sale_prices(rarity: str, rank: int | None, holo: bool, price: int) -> None:
    assert sale_price(rarity, rank, holo) == price  # type: ignore[arg-type]


def _floor(owned: list[Selling], ids: list[int]) -> set[int]:
    """The pure check as the service calls it: counts of every Rang 1 owned, the copies offered."""
    held = Counter(c.card for c in owned if c.rank1)
    return floor_refusals(held, [c for c in owned if c.copy_id in ids])


def test_floor_keeps_the_cheapest_of_the_cards_that_would_vanish() -> None:
    owned = [Selling(i, f"r1_{i}", True, 2 if i != 3 else 200) for i in range(1, 9)]
    owned.append(Selling(9, "r1_1", True, 20))
    # 8 different Rang 1: 2 may vanish. Selling 2..5 would make 4 vanish: keep the 2 cheapest (2 and 4).
    assert _floor(owned, [2, 3, 4, 5]) == {2, 4}
    assert _floor(owned, [2, 3]) == set()
    # r1_1, r1_2 and r1_3 would vanish: r1_1 and r1_2 tie on price (2), the card id decides.
    assert _floor(owned, [1, 9, 2, 3]) == {1}
    assert _floor(owned, [9]) == set()  # a duplicate never hurts


def test_floor_below_six_refuses_only_what_would_vanish() -> None:
    owned = [
        Selling(1, "a", True, 2),
        Selling(2, "a", True, 2),
        Selling(3, "b", True, 2),
        Selling(4, "r2", False, 4),
        Selling(5, "buff", False, 2),
    ]
    assert _floor(owned, [2, 4, 5]) == set()
    assert _floor(owned, [3]) == {3}
    assert _floor(owned, [1, 2]) == {1}


# --- one card --------------------------------------------------------------------------------------------


async def _starter(
    db: Database, clock: ManualClock, player: int, registry: GameRegistry, n: int = 7
) -> list[int]:
    await new_player(db, clock, player, gold=0, registry=registry)
    return [await mint(db, clock, player, card) for card in R1[:n]]


async def test_selling_a_card_destroys_it_credits_gold_and_writes_the_ledger(
    db: Database, clock: ManualClock, sale: HossSale, conservation: Conservation, registry: GameRegistry
) -> None:
    await _starter(db, clock, 1, registry=registry)
    maitre = await mint(db, clock, 1, "sq_guerrier_3a", "or")
    result = await sale.sell(1, maitre, key=42)
    assert (result.copy_ids, result.total, result.balance, result.replayed) == ((maitre,), 800, 800, False)
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT currency, card_id, delta, reason, ref FROM ledger WHERE reason = 'hoss.sale' ORDER BY id"
        ).fetchall()
    )
    assert [tuple(r) for r in rows] == [
        (None, maitre, -1, "hoss.sale", "42"),
        ("hoss_gold", None, 800, "hoss.sale", "42"),
    ]
    owner = await db.read(
        lambda conn: conn.execute("SELECT owner_id FROM cards WHERE id = ?", (maitre,)).fetchone()[0]
    )
    assert owner is None
    assert (await sale.sell(1, maitre, key=42)).replayed  # a double click: same answer, nothing more
    with pytest.raises(CardUnavailable) as caught:
        await sale.sell(1, maitre, key=43)  # a sold card never comes back
    assert caught.value.key == "hoss.error.card.not_yours"
    assert_localized(caught.value)
    assert await gold(db, 1) == 800
    await db.read(conservation)


async def test_a_card_that_is_not_yours_is_refused(
    db: Database, clock: ManualClock, sale: HossSale, registry: GameRegistry
) -> None:
    await _starter(db, clock, 1, registry=registry)
    theirs = (await _starter(db, clock, 2, registry, 8))[7]
    before = await db.read(snapshot)
    for copy_id in (theirs, 999_999):
        with pytest.raises(CardUnavailable) as caught:
            await sale.sell(1, copy_id, key=f"k{copy_id}")
        assert caught.value.key == "hoss.error.card.not_yours"
        assert_localized(caught.value)
    assert await db.read(snapshot) == before


async def test_a_locked_card_is_refused(
    db: Database, clock: ManualClock, sale: HossSale, registry: GameRegistry
) -> None:
    copies = await _starter(db, clock, 1, registry, 8)
    await db.write(lambda conn: ledger.set_card_lock(conn, [copies[7]], 1, "arena:1"))
    before = await db.read(snapshot)
    with pytest.raises(CardUnavailable) as caught:
        await sale.sell(1, copies[7], key="k")
    assert caught.value.key == "hoss.error.card.locked"
    assert_localized(caught.value)
    assert await db.read(snapshot) == before


async def test_a_face_down_card_is_refused(
    db: Database, clock: ManualClock, sale: HossSale, shop: HossShop, registry: GameRegistry
) -> None:
    await _starter(db, clock, 1, registry, 8)
    await new_player(db, clock, 1, gold=100, registry=registry)
    opening = (await shop.buy(1, 1, key="b")).openings[0]
    hidden = await db.read(
        lambda conn: conn.execute(
            "SELECT card_id FROM hoss_opening_cards WHERE opening_id = ?", (opening.id,)
        ).fetchall()
    )
    before = await db.read(snapshot)
    with pytest.raises(NotAllowed) as caught:
        await sale.sell(1, hidden[0][0], key="k")
    assert caught.value.key == "hoss.error.card.face_down"
    assert_localized(caught.value)
    quote = await sale.quote(1, [row[0] for row in hidden])
    assert quote.copy_ids == ()
    assert {r.reason for r in quote.refused} == {"hoss.sale.refused.face_down"}
    assert await db.read(snapshot) == before


async def test_the_six_different_rank1_floor(
    db: Database, clock: ManualClock, sale: HossSale, registry: GameRegistry
) -> None:
    copies = await _starter(db, clock, 1, registry, 6)
    duplicate = await mint(db, clock, 1, R1[0], "argent")
    buff = await mint(db, clock, 1, "buff_soins")
    before = await db.read(snapshot)
    with pytest.raises(BadInput) as caught:
        await sale.sell(1, copies[1], key="k")
    assert caught.value.key == "hoss.error.sale.floor"
    assert caught.value.params == {"minimum": 6}
    assert_localized(caught.value)
    assert await db.read(snapshot) == before
    assert (await sale.sell(1, duplicate, key="dup")).total == 20  # another copy of R1[0] remains
    assert (await sale.sell(1, buff, key="buff")).total == 2
    with pytest.raises(BadInput):
        await sale.sell(1, copies[0], key="last")  # now the last copy of R1[0]


# --- bulk: quote, then confirm ---------------------------------------------------------------------------


async def test_a_quote_says_what_sells_and_what_is_refused_and_changes_nothing(
    db: Database, clock: ManualClock, sale: HossSale, registry: GameRegistry
) -> None:
    copies = await _starter(db, clock, 1, registry, 7)  # one Rang 1 may go
    extra = [
        await mint(db, clock, 1, "sq_guerrier_2a", "argent"),
        await mint(db, clock, 1, "buff_pv", "or", holo=True),
    ]
    locked = await mint(db, clock, 1, "buff_soins")
    await db.write(lambda conn: ledger.set_card_lock(conn, [locked], 1, "arena:1"))
    theirs = (await _starter(db, clock, 2, registry, 1))[0]
    before = await db.read(snapshot)
    quote = await sale.quote(1, [copies[0], copies[1], *extra, locked, theirs, copies[0]])
    assert await db.read(snapshot) == before
    assert quote.copy_ids == (copies[0], *extra)
    assert quote.count == 3
    assert quote.total == 2 + 40 + 50_200
    assert quote.refused == (
        # copies[0] (sq_guerrier_1) and copies[1] (sq_cavalier_1) both cost 2: the lower card id stays
        Refusal(copies[1], "hoss.sale.refused.floor"),
        Refusal(locked, "hoss.sale.refused.locked"),
        Refusal(theirs, "hoss.sale.refused.not_yours"),
    )


async def test_a_confirmed_quote_sells_exactly_the_quoted_cards(
    db: Database, clock: ManualClock, sale: HossSale, conservation: Conservation, registry: GameRegistry
) -> None:
    await _starter(db, clock, 1, registry, 6)
    dups = [await mint(db, clock, 1, R1[i % 6], "basique") for i in range(5)]
    quote = await sale.quote(1, dups)
    result = await sale.sell_quoted(1, list(quote.copy_ids), quote.total, key="q")
    assert (result.copy_ids, result.total, result.balance) == (tuple(dups), 10, 10)
    assert (await sale.sell_quoted(1, list(quote.copy_ids), quote.total, key="q")).replayed
    await db.read(conservation)


async def test_a_stale_quote_sells_nothing(
    db: Database, clock: ManualClock, sale: HossSale, registry: GameRegistry
) -> None:
    await _starter(db, clock, 1, registry, 6)
    dups = [await mint(db, clock, 1, R1[i], "argent") for i in range(3)]
    quote = await sale.quote(1, dups)
    await sale.sell(1, dups[1], key="meanwhile")
    before = await db.read(snapshot)
    for ids, total in ((list(quote.copy_ids), quote.total), ([dups[0], dups[2]], 999)):
        with pytest.raises(NotAllowed) as caught:
            await sale.sell_quoted(1, ids, total, key=f"confirm{total}")
        assert caught.value.key == "hoss.error.sale.stale"
        assert_localized(caught.value)
    assert await db.read(snapshot) == before
    with pytest.raises(BadInput) as empty:
        await sale.sell_quoted(1, [], 0, key="none")
    assert empty.value.key == "hoss.error.sale.empty"
    assert_localized(empty.value)


async def test_quote_matching_sells_duplicates_and_keeps_the_best(
    db: Database, clock: ManualClock, sale: HossSale, registry: GameRegistry
) -> None:
    copies = await _starter(db, clock, 1, registry, 6)
    best = await mint(db, clock, 1, R1[0], "or", stars=1)  # +6.5 %: better than a Basique 2* (+4 %)
    worse = [await mint(db, clock, 1, R1[0], "basique", stars=2), await mint(db, clock, 1, R1[1], "basique")]
    quote = await sale.quote_matching(1, CollectionFilter(rarity="basique"), keep_per_card=1)
    # R1[0]: the Or is kept, so both Basiques go; R1[1]: the two Basique 0* copies, the older one is kept.
    assert set(quote.copy_ids) == {copies[0], worse[0], worse[1]}
    assert best not in quote.copy_ids
    assert quote.refused == ()
    assert quote.total == 6
    everything = await sale.quote_matching(1, CollectionFilter())
    assert len(everything.refused) == 6  # selling all would leave no Rang 1: six kept, one per card
    with pytest.raises(BadInput):
        await sale.quote_matching(1, CollectionFilter(), keep_per_card=-1)
