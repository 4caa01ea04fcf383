"""Boosters bought sealed (services/hoss/sealed.py), on a real SQLite file: a purchase of ten mints the
first booster's six copies and stores the nine others with their cards drawn; each is minted by the unit
that opens it, once however many clicks race; what a sealed booster holds is fixed at the purchase; sealed
boosters survive a restart, count in the collection, and end with an erasure or an admin's reset."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from core.clock import ManualClock
from core.errors import NotAllowed
from engine.hoss import BoosterPool, HossCatalog, draw_booster
from services.community.privacy import erase
from services.hoss import shop as shop_module
from services.hoss.collection import HossCard, HossCollection
from services.hoss.reset import reset
from services.hoss.shop import HossShop, Opening
from services.infra.games import GameRegistry
from store.connection import Connection
from store.db import Database
from tests.services.conftest import open_database
from tests.services.hoss.conftest import gold, new_player, set_wins, snapshot
from tests.support.statements import trace_writes

Conservation = Callable[[Connection], None]
CLICKS = 40


async def count(db: Database, sql: str, *params: object) -> int:
    return int((await db.read(lambda conn: conn.execute(sql, params).fetchone()))[0])


async def test_a_purchase_of_ten_mints_only_the_booster_it_shows(
    db: Database, clock: ManualClock, shop: HossShop, conservation: Conservation, registry: GameRegistry
) -> None:
    await new_player(db, clock, 1, gold=1000, registry=registry)
    purchase = await shop.buy(1, 10, key="ten")
    assert purchase.total == 1000
    assert await gold(db, 1) == 0
    assert [o.sealed for o in purchase.openings] == [False] + [True] * 9
    assert all(len(o.cards) == 6 and o.next_position == 0 for o in purchase.openings)
    assert await count(db, "SELECT COUNT(*) FROM cards") == 6
    assert await count(db, "SELECT COUNT(*) FROM ledger WHERE card_id IS NOT NULL") == 6
    assert await count(db, "SELECT COUNT(*) FROM hoss_openings WHERE sealed IS NOT NULL") == 9
    assert [o.id for o in await shop.unopened(1)] == [o.id for o in purchase.openings]
    await db.read(conservation)


async def test_what_a_sealed_booster_holds_is_drawn_at_the_purchase(
    db: Database, clock: ManualClock, catalog: HossCatalog, registry: GameRegistry
) -> None:
    """No reroll: opening later, after other purchases drew from the same randomness, gives the cards the
    purchase drew, in its order (the same seed as when every copy was minted at once)."""
    shop = HossShop(db, clock, catalog, random.Random(42), registry=registry)
    await new_player(db, clock, 1, gold=10_000, registry=registry)
    await set_wins(db, 1, {1: 10, 2: 10, 3: 10})  # tier 4: ranks 2 and 3 drawn too
    first = await shop.buy(1, 3, key="a")
    await shop.buy(1, 5, key="b")  # draws more from the same randomness before the first lot is opened
    reference = random.Random(42)
    expected = [draw_booster(BoosterPool.of(catalog), reference, 4) for _ in first.openings]
    for opening, drawn in zip(first.openings, expected, strict=True):
        shown = (await shop.flip_all(1, opening.id)).opening
        got = [(s.card.id if s.card else None, s.rarity, s.holo) for s in shown.cards]
        assert got == [(d.card, d.rarity, d.holo) for d in drawn]


async def test_dozens_of_simultaneous_clicks_open_the_next_booster_once(
    db: Database, clock: ManualClock, shop: HossShop, conservation: Conservation, registry: GameRegistry
) -> None:
    purchase = await shop.buy(1, 3, key="three")  # the first use: 300 gold, three boosters
    first, second, _ = purchase.openings
    await shop.flip_all(1, first.id)
    clicks = await asyncio.gather(*(shop.open_next(1, after=first.id) for _ in range(CLICKS)))
    assert {o.id for o in clicks if o is not None} == {second.id}
    assert all(o is not None and not o.sealed and o.next_position == 0 for o in clicks)
    assert await count(db, "SELECT COUNT(*) FROM cards") == 12
    ledger_rows = (
        "SELECT COUNT(*) FROM ledger WHERE reason = 'hoss.booster' AND ref = ? AND card_id IS NOT NULL"
    )
    assert await count(db, ledger_rows, str(second.id)) == 6
    flips = await asyncio.gather(*(shop.flip(1, purchase.openings[2].id, 0) for _ in range(CLICKS)))
    assert sum(1 for f in flips if f.flipped == (0,)) == 1  # a flip opens a sealed booster too, once
    assert await count(db, "SELECT COUNT(*) FROM cards") == 18
    await db.read(conservation)


async def test_a_sealed_booster_sells_nothing_and_changes_nothing(
    db: Database, clock: ManualClock, shop: HossShop
) -> None:
    purchase = await shop.buy(1, 2, key="two")
    before = await db.read(snapshot)
    with pytest.raises(NotAllowed) as caught:
        await shop.sell_from_opening(1, purchase.openings[1].id, 0, key="sell", confirmed=True)
    assert caught.value.key == "hoss.error.card.face_down"
    assert await db.read(snapshot) == before
    assert (await shop.opening(1, purchase.openings[1].id)).sealed


async def test_sealed_boosters_survive_a_restart_and_count_in_the_collection(
    tmp_path: Path, clock: ManualClock, catalog: HossCatalog, registry: GameRegistry
) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await open_database(path)
    try:
        bought = await HossShop(db, clock, catalog, random.Random(1), registry=registry).buy(1, 3, key="k")
    finally:
        await db.close()
    db = await open_database(path)
    try:
        shop = HossShop(db, clock, catalog, random.Random(2), registry=registry)
        assert [o.id for o in await shop.unopened(1)] == [o.id for o in bought.openings]
        page = await HossCollection(db, catalog).list_copies(1)
        assert (page.total, page.face_down) == (0, 18)  # six face down, twelve in two sealed boosters
        opened = await shop.open_next(1, after=bought.openings[0].id)
        assert opened is not None
        assert opened.id == bought.openings[1].id
        assert await count(db, "SELECT COUNT(*) FROM cards") == 12
    finally:
        await db.close()


async def test_an_erasure_or_a_reset_ends_sealed_boosters_without_a_copy(
    db: Database, clock: ManualClock, shop: HossShop, conservation: Conservation, registry: GameRegistry
) -> None:
    await shop.buy(1, 3, key="alice")
    await shop.buy(2, 3, key="bob")
    anonymous = await db.write(lambda conn: erase(conn, clock.now(), registry, 1))
    assert anonymous is not None
    await db.write(lambda conn: reset(conn, clock.now(), 2))
    assert await count(db, "SELECT COUNT(*) FROM hoss_openings WHERE sealed IS NOT NULL") == 0
    assert await count(db, "SELECT COUNT(*) FROM cards WHERE owner_id IS NOT NULL") == 0
    assert await count(db, "SELECT COUNT(*) FROM cards") == 12  # the two shown boosters, destroyed
    assert not any(o.sealed for o in await shop.unopened(2))
    await db.read(conservation)


async def test_a_purchase_answers_without_reading_its_openings_back(
    db: Database, clock: ManualClock, shop: HossShop, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The purchase's unit knows what it wrote (every slot face down, the first booster minted, the nine
    others sealed): the reply is built without loading the ten openings (issue 39), and is what loading
    them gives. A repeated click loads them, since they may have been opened since."""
    loads: list[list[int]] = []
    load = shop_module.load_openings

    def counted(conn: Connection, cards: dict[str, HossCard], ids: list[int]) -> list[Opening]:
        loads.append(list(ids))
        return load(conn, cards, ids)

    monkeypatch.setattr(shop_module, "load_openings", counted)
    await new_player(db, clock, 1, gold=20_000, registry=registry)
    await set_wins(db, 1, {1: 10})
    for key, race in (("ten", None), ("race", "orc")):
        purchase = await shop.buy(1, 10, key=key, race=race)
        assert loads == []
        assert list(purchase.openings) == [await shop.opening(1, o.id) for o in purchase.openings]
        loads.clear()
    await shop.flip(1, purchase.openings[0].id, 0)
    loads.clear()
    again = await shop.buy(1, 10, key="race", race="orc")
    assert again.replayed
    assert len(loads) == 1
    assert again.openings[0].cards[0].flipped


@pytest.mark.sqlite_only("the unit's statements seen by SQLite's trace callback")
async def test_one_booster_bought_reads_only_the_key_and_the_rank_progress(
    db: Database, clock: ManualClock, shop: HossShop, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A purchase of one booster (the commonest) writes its opening row, six copies with their ledger lines
    and slots, and reads only what decides the purchase: the idempotency key and the rank progress
    (issue 39: nothing read back for the reply, nothing about sealed boosters)."""
    await new_player(db, clock, 1, gold=1000, registry=registry)
    statements = trace_writes(db, monkeypatch)
    purchase = await shop.buy(1, 1, key="one")
    reads = [s.split(" WHERE")[0] for s in statements if s.startswith("SELECT")]
    assert reads == ["SELECT result FROM idempotency", "SELECT rank, wins FROM hoss_rank_progress"]
    assert {s.split(" (")[0] for s in statements if s.startswith("INSERT")} == {
        "INSERT INTO players",
        "INSERT INTO ledger",
        "INSERT INTO hoss_openings",
        "INSERT INTO cards",
        "INSERT INTO hoss_opening_cards",
        "INSERT INTO idempotency",
    }
    assert [o.sealed for o in purchase.openings] == [False]
    assert list(purchase.openings) == [await shop.opening(1, purchase.openings[0].id)]
