"""The preparation page shows the collection: « La page de préparation du combat vous montre aussi les
cartes disponibles dans votre collection. Vous pouvez cliquer sur une de vos cartes pour l'ajouter en tant
que cartes bonus pour ce combat. » It lists the free cards that may still be added (free copies not yet
chosen, at most 3 identical with the pack), by element and type, a page at a time."""

from __future__ import annotations

from datetime import timedelta

from core.clock import ManualClock
from engine.dinocard import DinocardCatalog
from services.dinocard import DinocardServices
from services.dinocard.economy import GAME_KEY
from services.infra import ledger
from store.connection import Connection
from store.db import Database
from tests.services.dinocard.conftest import ALICE, BOB, element_pack, fire_pack


async def packs(dino: DinocardServices, catalog: DinocardCatalog) -> int:
    await dino.packs.create(ALICE, "Feu", fire_pack(catalog))
    theirs = await dino.packs.create(BOB, "Eau", element_pack(catalog, "eau"))
    return theirs.pack.id


async def test_the_page_lists_the_free_cards_that_may_be_added(
    dino: DinocardServices, db: Database, clock: ManualClock, catalog: DinocardCatalog
) -> None:
    theirs = await packs(dino, catalog)
    prep = await dino.battles.prepare(ALICE, "Feu", theirs, ())
    listed = {o.card.id: o.count for o in prep.choices.items}
    assert prep.choices.cards == len(
        [c for c in catalog.cards if c.rarity == "commune" and c.element != "feu"]
    )
    assert len(prep.choices.items) == 10  # a page
    assert prep.choices.pages == -(-prep.choices.cards // 10)
    assert all(n == 2 for n in listed.values())  # the starter's two copies, both free
    fire = [c.id for c in catalog.cards if c.rarity == "commune" and c.element == "feu"]
    assert not set(fire) & set(listed)  # every copy is in the pack

    water = await dino.battles.prepare(ALICE, "Feu", theirs, (), element="eau")
    assert {o.card.element for o in water.choices.items} == {"eau"}
    dinoz = await dino.battles.prepare(ALICE, "Feu", theirs, (), element="eau", kind="dinoz")
    assert {(o.card.element, o.card.type) for o in dinoz.choices.items} == {("eau", "dinoz")}
    last = await dino.battles.prepare(ALICE, "Feu", theirs, (), page=99)
    assert last.choices.page == last.choices.pages

    # A third fire copy is free, and the pack holds two: one more may be added, then none.
    third = fire[0]
    await db.write(
        lambda conn: ledger.mint_card(
            conn, clock.now(), ALICE, GAME_KEY, third, ledger.Movement("test.grant")
        )
    )
    await dino.packs.spend(ALICE, "Feu", "bonus", 1)
    fires = await dino.battles.prepare(ALICE, "Feu", theirs, (), element="feu")
    assert [(o.card.id, o.count) for o in fires.choices.items] == [(third, 1)]
    taken = await dino.battles.prepare(ALICE, "Feu", theirs, (third,), element="feu")
    assert taken.bonus == (third,)
    assert taken.choices.items == ()


async def test_a_chosen_bonus_card_leaves_the_list_once_its_free_copies_are_taken(
    dino: DinocardServices, db: Database, clock: ManualClock, catalog: DinocardCatalog
) -> None:
    theirs = await packs(dino, catalog)
    await dino.packs.spend(ALICE, "Feu", "bonus", 1)
    clock.advance(timedelta(days=1))
    water = next(c.id for c in catalog.cards if c.rarity == "commune" and c.element == "eau")
    one = await dino.battles.prepare(ALICE, "Feu", theirs, (water,), element="eau")
    assert dict((o.card.id, o.count) for o in one.choices.items)[water] == 1

    def free(conn: Connection) -> int:
        row = conn.execute(
            "SELECT COUNT(*) FROM cards WHERE owner_id = ? AND card_key = ? AND locked_by IS NULL",
            (ALICE, water),
        ).fetchone()
        return int(row[0])

    assert await db.read(free) == 2  # the page locks nothing: the bonus is checked again at launch
