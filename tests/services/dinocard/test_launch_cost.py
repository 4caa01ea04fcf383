"""What a challenge's preparation and launch read (issue 39): the preparation page counts the free copies
once for its check and its page; the launch, which checks the bonus again in its own unit, counts none
when there is no bonus; each reads whole only the packs it names, the opposing one once. A welcomed
player's preparation is a read; a launch writes the battle's state once, with its creation."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest

from core.clock import ManualClock
from core.errors import NotFound
from core.i18n import t
from engine.dinocard import DinocardCatalog
from services.dinocard import DinocardServices, names, packs, preparation
from services.dinocard.render.preparation import prepare_spec
from services.dinocard.results import MATCHES
from services.infra import messages
from services.infra.catalogs import fold
from services.infra.messages import render_text
from services.shared.collecting import DeckInvalid
from store.connection import Connection
from tests.services.dinocard.conftest import ALICE, BOB, element_pack, fire_pack
from tests.services.dinocard.test_battles import launch
from tests.support.statements import trace_writes


def counting(monkeypatch: pytest.MonkeyPatch, calls: Counter[str]) -> None:
    def counted(module: Any, name: str) -> None:
        original = getattr(module, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)

    counted(packs, "_row")  # a pack read whole: its cards and skills parsed
    counted(preparation, "free_counts")
    counted(preparation, "traded_counts")


async def test_a_launch_after_its_preparation_counts_the_free_copies_once(
    dino: DinocardServices, clock: ManualClock, catalog: DinocardCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    await dino.packs.create(ALICE, "Bois", element_pack(catalog, "bois"))
    mine = (await dino.packs.create(ALICE, "Feu", fire_pack(catalog))).pack.id
    theirs = (await dino.packs.create(BOB, "Eau", element_pack(catalog, "eau"))).pack.id
    await dino.packs.spend(ALICE, "Feu", "bonus", 1)
    clock.advance(timedelta(days=1))
    calls: Counter[str] = Counter()
    counting(monkeypatch, calls)

    prep = await dino.battles.prepare(ALICE, "Feu", theirs, ())
    assert prep.daily_left == 2
    assert prep.choices.items
    assert calls == {"_row": 2, "free_counts": 1}  # the pack named and the opposing one
    match = await launch(dino, mine, theirs)
    assert match.number == 1
    assert calls == {"_row": 4, "free_counts": 1}

    # with a bonus the launch counts them (its own check), and a shortage says whether a trade holds some
    calls.clear()
    in_a_pack = element_pack(catalog, "bois")[0]
    with pytest.raises(DeckInvalid) as refused:
        await launch(dino, mine, theirs, key="k2", bonus=(in_a_pack,))
    assert [p.key for p in refused.value.problems] == ["dinocard.pack.problem.copies_free"]
    assert calls == {"_row": 2, "free_counts": 1, "traded_counts": 1}


@pytest.mark.sqlite_only("the unit's statements seen by SQLite's trace callback")
async def test_a_welcomed_players_preparation_writes_nothing_and_a_launch_writes_the_battle_once(
    dino: DinocardServices, clock: ManualClock, catalog: DinocardCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = (await dino.packs.create(ALICE, "Feu", fire_pack(catalog))).pack.id
    theirs = (await dino.packs.create(BOB, "Eau", element_pack(catalog, "eau"))).pack.id
    clock.advance(timedelta(days=1))
    db = dino.battles.db
    batches = db.batches
    prep = await dino.battles.prepare(ALICE, "Feu", theirs, ())
    assert db.batches == batches  # welcomed already: the page is a read, no transaction committed
    assert (prep.pack.id, prep.opponent_id, prep.daily_left) == (mine, theirs, 2)
    assert prep.choices.items

    statements = trace_writes(db, monkeypatch)
    match = await launch(dino, mine, theirs)
    saves = [s for s in statements if s.startswith("UPDATE matches SET") and "state" in s]
    assert saves == []  # the battle's state written by its creation only, not by a save naming its post
    written = list(dict.fromkeys(statements))  # SQLite's trace reports a statement again per trigger run
    assert not [s for s in written if s.startswith("SELECT COALESCE(MAX(number)")]  # the insert's sub-query
    assert sum(s.startswith("INSERT INTO match_seats") for s in written) == 1  # both seats at once
    assert len(written) == 11, written
    assert match.message_item is not None
    stored = await db.read(lambda conn: MATCHES.load_trusted(conn, match.id))
    assert stored == match
    assert stored.message_item == match.message_item
    assert (stored.number, stored.seats) == (1, (ALICE, BOB))  # the number and both seats, as read back


async def test_a_player_still_to_welcome_is_welcomed_by_the_preparation(
    dino: DinocardServices, catalog: DinocardCatalog
) -> None:
    await dino.packs.create(ALICE, "Feu", fire_pack(catalog))
    theirs = (await dino.packs.create(BOB, "Eau", element_pack(catalog, "eau"))).pack.id

    def forget_starter(conn: Connection) -> None:
        conn.execute("UPDATE dinocard_profiles SET starter_given = 0 WHERE player_id = ?", (ALICE,))

    await dino.battles.db.write(forget_starter)
    batches = dino.battles.db.batches
    await dino.battles.prepare(ALICE, "Feu", theirs, ())
    assert dino.battles.db.batches == batches + 1  # the unit that gives the starter, as before
    given = await dino.battles.db.read(
        lambda conn: conn.execute(
            "SELECT starter_given FROM dinocard_profiles WHERE player_id = ?", (ALICE,)
        ).fetchone()[0]
    )
    assert given == 1


async def test_a_preparation_page_shown_again_writes_none_of_its_offered_cards_again(
    dino: DinocardServices, clock: ManualClock, catalog: DinocardCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    await dino.packs.create(ALICE, "Bois", element_pack(catalog, "bois"))
    await dino.packs.create(ALICE, "Feu", fire_pack(catalog))
    theirs = (await dino.packs.create(BOB, "Eau", element_pack(catalog, "eau"))).pack.id
    clock.advance(timedelta(days=1))
    prep = await dino.battles.prepare(ALICE, "Feu", theirs, ())
    assert prep.choices.items
    first = render_text(prepare_spec(prep, dino.battles.cards).embeds[0].fields[1].value, "fr")
    keys: Counter[str] = Counter()

    def counted(key: str, locale: str | None = None, /, **params: object) -> str:
        keys[key] += 1
        return t(key, locale, **params)

    monkeypatch.setattr(messages, "t", counted)
    again = render_text(prepare_spec(prep, dino.battles.cards).embeds[0].fields[1].value, "fr")
    assert again == first
    assert keys["dinocard.prepare.collection_line"] == 0  # ten offers a page, each a plural, before


@pytest.mark.sqlite_only("the unit's statements seen by SQLite's trace callback")
async def test_a_welcomed_players_launch_looks_once_whether_to_welcome_them(
    dino: DinocardServices, clock: ManualClock, catalog: DinocardCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = (await dino.packs.create(ALICE, "Feu", fire_pack(catalog))).pack.id
    theirs = (await dino.packs.create(BOB, "Eau", element_pack(catalog, "eau"))).pack.id
    clock.advance(timedelta(days=1))
    statements = trace_writes(dino.battles.db, monkeypatch)
    await launch(dino, mine, theirs)
    welcome = (
        "INSERT INTO players",
        "SELECT 1 FROM ledger",
        "INSERT INTO dinocard_profiles",
        "UPDATE dinocard_profiles",
    )
    welcoming = [s for s in statements if s.startswith((*welcome, "SELECT p.starter_given"))]
    assert len(welcoming) == 1, welcoming  # `welcomed`'s one look; four statements before
    assert welcoming[0].startswith("SELECT p.starter_given FROM dinocard_profiles")


@pytest.mark.sqlite_only("SQLite's query plan")
async def test_the_free_copies_are_counted_from_their_index_alone(
    dino: DinocardServices, catalog: DinocardCatalog
) -> None:
    await dino.packs.create(ALICE, "Feu", fire_pack(catalog))  # the starter's fire commons, locked
    await dino.packs.create(BOB, "Eau", element_pack(catalog, "eau"))

    def counted(conn: Connection) -> tuple[Counter[str], Counter[str], str]:
        grouped = conn.execute(
            "SELECT card_key, COUNT(*) FROM cards WHERE owner_id = ? AND game = 'dinocard'"
            " AND locked_by IS NULL GROUP BY card_key",
            (ALICE,),
        )
        expected = Counter({str(k): int(n) for k, n in grouped})
        plan = " ".join(
            str(row[-1])
            for row in conn.execute(
                "EXPLAIN QUERY PLAN SELECT card_key, COUNT(*) FROM cards WHERE owner_id = ?"
                " AND game = 'dinocard' AND locked_by IS NULL GROUP BY card_key",
                (ALICE,),
            )
        )
        return packs.free_counts(conn, ALICE), expected, plan

    free, expected, plan = await dino.battles.db.read(counted)
    assert free == expected
    assert free
    assert not set(fire_pack(catalog)) & set(free)  # every copy of them in the pack
    assert "COVERING INDEX cards_free_dinocard" in plan, plan  # no table look-up, no temporary tree
    assert "TEMP B-TREE" not in plan, plan


@pytest.mark.parametrize("locale", [None, "fr", "en-GB"])
async def test_a_preparation_page_sorts_its_cards_without_folding_their_names_again(
    dino: DinocardServices,
    clock: ManualClock,
    catalog: DinocardCatalog,
    monkeypatch: pytest.MonkeyPatch,
    locale: str | None,
) -> None:
    await dino.packs.create(ALICE, "Feu", fire_pack(catalog))
    theirs = (await dino.packs.create(BOB, "Eau", element_pack(catalog, "eau"))).pack.id
    clock.advance(timedelta(days=1))
    first = await dino.battles.prepare(ALICE, "Feu", theirs, (), page=2, locale=locale)
    order = names.collection_order(locale)
    offered = [o.card for o in first.choices.items]
    everything = sorted((dino.battles.cards[c] for c in await free_of(dino)), key=order)
    assert offered == everything[10:20]  # the collection's order, its second page
    folded: list[str] = []

    def counted(text: str) -> str:
        folded.append(text)
        return fold(text)

    monkeypatch.setattr(names, "fold", counted)
    again = await dino.battles.prepare(ALICE, "Feu", theirs, (), page=2, locale=locale)
    assert again.choices == first.choices
    assert folded == []  # every free card's name folded for every page before


async def free_of(dino: DinocardServices) -> list[str]:
    return list(await dino.battles.db.read(lambda conn: packs.free_counts(conn, ALICE)))


async def test_a_preparation_page_looks_the_catalog_over_for_perception_once_per_service(
    dino: DinocardServices, clock: ManualClock, catalog: DinocardCatalog
) -> None:
    """Perception counts the opposing pack's cards by element, type and rarity: each card's three were
    gathered from the whole catalog again for every page shown (issue 39)."""
    mine = (await dino.packs.create(ALICE, "Feu", fire_pack(catalog))).pack.id
    theirs = (await dino.packs.create(BOB, "Eau", element_pack(catalog, "eau"))).pack.id
    await dino.packs.spend(ALICE, "Feu", "perception", 1)  # the elements counted
    clock.advance(timedelta(days=1))
    battles = dino.battles
    read: list[str] = []

    class Watched:
        """The catalog, each look at its whole list of cards counted."""

        def __getattr__(self, name: str) -> Any:
            if name == "cards":
                read.append(name)
            return getattr(catalog, name)

    battles.catalog = Watched()  # type: ignore[assignment]
    prep = await battles.prepare(ALICE, "Feu", theirs, ())
    await battles.prepare(ALICE, "Feu", theirs, (), page=2)
    assert read == []  # once per page shown before
    assert prep.pack.id == mine
    assert prep.seen["size"] == 20
    assert prep.seen["elements"] == {"eau": 20}


async def test_a_pack_named_as_written_is_found_without_folding_each_packs_name(
    dino: DinocardServices, catalog: DinocardCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    bois = (await dino.packs.create(ALICE, "Bois", element_pack(catalog, "bois"))).pack.id
    feu = (await dino.packs.create(ALICE, "Feu Sacré", fire_pack(catalog))).pack.id
    await dino.packs.create(BOB, "Feu Sacré", element_pack(catalog, "eau"))
    folds: list[str] = []

    def counted(text: str) -> str:
        folds.append(text)
        return fold(text)

    monkeypatch.setattr(packs, "fold", counted)

    db = dino.battles.db
    assert await db.read(lambda conn: _found(conn, "Feu Sacré")) == (feu, ALICE)  # Bob's is not Alice's
    assert folds == []  # the unique index found it
    assert await db.read(lambda conn: _found(conn, " #Feu Sacré ")) == (feu, ALICE)
    assert folds == []
    # another spelling is still found, as before: case and accents ignored, each active name folded
    assert await db.read(lambda conn: _found(conn, "feu sacre")) == (feu, ALICE)
    assert folds == ["feu sacre", "Bois", "Feu Sacré"]
    folds.clear()
    assert await db.read(lambda conn: _found(conn, str(bois))) == (bois, ALICE)  # a number: the pack's id
    assert folds == [str(bois)]  # matched by its id before its name is folded
    await dino.packs.dissolve(ALICE, "Feu Sacré")
    with pytest.raises(NotFound):
        await db.read(lambda conn: _found(conn, "Feu Sacré"))  # a dissolved pack reads as unknown


def _found(conn: Connection, ref: str) -> tuple[int, int]:
    pack = packs.find_pack(conn, ALICE, ref)
    return pack.id, pack.owner_id
