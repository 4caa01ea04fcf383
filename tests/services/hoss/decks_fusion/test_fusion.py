"""FusionService: one write unit per request, the sacrificed copy through the ledger, the survivor's star
as an attribute, idempotent on the interaction id, refusals that change nothing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from core.clock import ManualClock
from core.errors import BadInput, CardUnavailable, NotAllowed
from engine.hoss.catalog import HossCatalog
from engine.hoss.fusion import FusionError, FusionNeedsConfirmation
from services.hoss.collection import HossCollection
from services.hoss.decks import DeckService
from services.hoss.fusion import FUSION_REASON, FusionService
from store.connection import Connection
from store.db import Database
from tests.services.hoss.decks_fusion.conftest import BUFFS, LINES, Cards, scripted_fusion

WIN, LOSE = 0.0, 0.999
Conservation = Callable[[Connection], None]


def card_rows(db: Database) -> Any:
    return db.read(lambda conn: [tuple(r) for r in conn.execute("SELECT id, owner_id, attrs FROM cards")])


def ledger_rows(db: Database) -> Any:
    return db.read(lambda conn: [tuple(r) for r in conn.execute("SELECT * FROM ledger ORDER BY id")])


async def test_a_successful_fusion_adds_a_star_and_destroys_the_sacrificed_copy(
    db: Database, clock: ManualClock, catalog: HossCatalog, cards: Cards, conservation: Conservation
) -> None:
    await cards.player(1)
    keep = await cards.give(1, "orc_guerrier_1", "or", 0)
    lose = await cards.give(1, "orc_guerrier_1", "basique", 0)
    result = await scripted_fusion(db, clock, catalog, [WIN]).fuse(1, [lose, keep], key=100)
    (outcome,) = result.outcomes
    assert (outcome.survivor_id, outcome.sacrificed_id, outcome.success) == (keep, lose, True)
    assert (outcome.stars_before, outcome.stars_after, outcome.chance_pct) == (0, 1, 80)
    assert not result.replayed
    assert result.successes == 1
    assert await cards.stars(keep) == 1
    assert await cards.owner(keep) == 1
    assert await cards.owner(lose) is None
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT card_id, delta, reason FROM ledger WHERE reason = ?", (FUSION_REASON,)
        ).fetchall()
    )
    assert [tuple(r) for r in rows] == [(lose, -1, "hoss.fusion")]  # the star itself writes no row
    await db.read(conservation)


async def test_a_failed_fusion_still_sacrifices_the_less_rare_copy(
    db: Database, clock: ManualClock, catalog: HossCatalog, cards: Cards
) -> None:
    await cards.player(1)
    keep = await cards.give(1, "orc_guerrier_1", "diamant", 3)
    lose = await cards.give(1, "orc_guerrier_1", "or", 3)
    result = await scripted_fusion(db, clock, catalog, [LOSE]).fuse(1, [keep, lose], key=1)
    (outcome,) = result.outcomes
    assert (outcome.success, outcome.stars_after, outcome.chance_pct) == (False, 3, 25 + 4)
    assert await cards.stars(keep) == 3
    assert await cards.owner(lose) is None


async def test_the_chance_decides_by_the_roll(
    db: Database, clock: ManualClock, catalog: HossCatalog, cards: Cards
) -> None:
    """A roll just under the chance succeeds, one at the chance fails (45 % for a 3★, +0 for Basique)."""
    await cards.player(1)
    a, b, c, d = [await cards.give(1, "sq_mage_1", "basique", 2) for _ in range(4)]
    service = scripted_fusion(db, clock, catalog, [0.4499, 0.45])
    first = await service.fuse(1, [a, b], key=1)
    second = await service.fuse(1, [c, d], key=2)
    assert (first.outcomes[0].success, second.outcomes[0].success) == (True, False)


async def test_a_double_click_runs_once_and_returns_the_same_result(
    fusion: FusionService, db: Database, cards: Cards, conservation: Conservation
) -> None:
    await cards.player(1)
    ids = [await cards.give(1, "hum_archer_1", "argent", 1) for _ in range(4)]
    first = await fusion.fuse(1, ids, key=777)
    before = (await card_rows(db), await ledger_rows(db))
    second = await fusion.fuse(1, ids, key=777)
    assert second.outcomes == first.outcomes
    assert (first.replayed, second.replayed) == (False, True)
    assert (await card_rows(db), await ledger_rows(db)) == before
    await db.read(conservation)


async def test_holo_and_rarer_partner_needs_confirmation(
    fusion: FusionService, db: Database, cards: Cards
) -> None:
    await cards.player(1)
    holo = await cards.give(1, "syl_mage_1", "basique", 2, holo=True)
    rarer = await cards.give(1, "syl_mage_1", "platine", 2)
    before = await card_rows(db)
    with pytest.raises(FusionNeedsConfirmation) as caught:
        await fusion.fuse(1, [holo, rarer], key=1)
    assert caught.value.key == "hoss.error.fusion.confirm_rarer_sacrificed"
    assert caught.value.params == {"copy": rarer}
    assert await card_rows(db) == before
    result = await fusion.fuse(1, [holo, rarer], key=2, confirm=True)
    assert (result.outcomes[0].survivor_id, result.outcomes[0].chance_pct) == (holo, 45 + 6)
    assert await cards.owner(rarer) is None
    assert await cards.owner(holo) == 1


async def test_two_holos_are_refused(fusion: FusionService, db: Database, cards: Cards) -> None:
    await cards.player(1)
    ids = [await cards.give(1, "syl_mage_1", "or", 1, holo=True) for _ in range(2)]
    before = await card_rows(db)
    with pytest.raises(FusionError) as caught:
        await fusion.fuse(1, ids, key=1, confirm=True)
    assert caught.value.key == "hoss.error.fusion.holo"
    assert await card_rows(db) == before


async def test_five_star_as_four_star_needs_explicit_confirmation(
    db: Database, clock: ManualClock, catalog: HossCatalog, cards: Cards
) -> None:
    await cards.player(1)
    five = await cards.give(1, "orc_mage_1", "argent", 5)
    four = await cards.give(1, "orc_mage_1", "or", 4)
    service = scripted_fusion(db, clock, catalog, [LOSE, WIN])
    before = await card_rows(db)
    with pytest.raises(FusionNeedsConfirmation) as caught:
        await service.fuse(1, [five, four], key=1)
    assert caught.value.key == "hoss.error.fusion.confirm_five_as_four"
    assert caught.value.params == {"copy": five, "chance": 14}
    assert await card_rows(db) == before
    failed = await service.fuse(1, [five, four], key=2, confirm=True)
    assert (failed.outcomes[0].success, failed.outcomes[0].stars_after) == (False, 4)
    assert await cards.owner(five) is None  # lost even on failure
    five_again = await cards.give(1, "orc_mage_1", "basique", 5)
    won = await service.fuse(1, [four, five_again], key=3, confirm=True)
    assert (won.outcomes[0].stars_before, won.outcomes[0].stars_after, won.outcomes[0].chance_pct) == (
        4,
        5,
        12,
    )
    assert await cards.stars(four) == 5


async def test_five_star_must_be_less_rare(fusion: FusionService, cards: Cards) -> None:
    await cards.player(1)
    five = await cards.give(1, "orc_mage_1", "or", 5)
    four = await cards.give(1, "orc_mage_1", "or", 4)
    with pytest.raises(FusionError) as caught:
        await fusion.fuse(1, [five, four], key=1, confirm=True)
    assert caught.value.key == "hoss.error.fusion.five_not_less_rare"


async def test_chain_fusion_runs_every_pair_at_once_with_its_own_roll(
    db: Database, clock: ManualClock, catalog: HossCatalog, cards: Cards, conservation: Conservation
) -> None:
    await cards.player(1)
    zero = [await cards.give(1, "hum_mage_1", r, 0) for r in ("basique", "or", "argent", "basique")]
    one = [await cards.give(1, "hum_mage_1", r, 1) for r in ("argent", "argent")]
    buffs = [await cards.give(1, "buff_pv", "basique", 3) for _ in range(2)]
    service = scripted_fusion(db, clock, catalog, [WIN, WIN, LOSE, WIN])
    result = await service.fuse(1, [*zero, *one, *buffs], key=5)
    summary = [(o.card, o.survivor_id, o.sacrificed_id, o.stars_after, o.success) for o in result.outcomes]
    assert summary == [
        ("buff_pv", buffs[0], buffs[1], 4, True),  # buffs have stars too
        ("hum_mage_1", zero[1], zero[0], 1, True),  # the rarer half (Or, Argent) survives
        ("hum_mage_1", zero[2], zero[3], 0, False),  # ... each paired with a Basique
        ("hum_mage_1", one[0], one[1], 2, True),
    ]
    assert await cards.stars(zero[1]) == 1  # a survivor does not fuse again in the same chain
    await db.read(conservation)


async def test_refusals_change_nothing(fusion: FusionService, db: Database, cards: Cards) -> None:
    await cards.player(1)
    await cards.player(2)
    mine = [await cards.give(1, "sq_archer_1", "basique", s) for s in (0, 0, 0, 1)]
    theirs = await cards.give(2, "sq_archer_1")
    other_card = await cards.give(1, "sq_mage_1")
    face_down = await cards.give(1, "sq_archer_1")
    await cards.hide(1, face_down)
    before = (await card_rows(db), await ledger_rows(db))
    cases: list[tuple[list[int], type[Exception], str]] = [
        ([mine[0]], FusionError, "hoss.error.fusion.too_few"),
        ([mine[0], mine[1], mine[2]], FusionError, "hoss.error.fusion.odd_count"),
        ([mine[0], mine[3]], FusionError, "hoss.error.fusion.not_same_stars"),
        ([mine[0], other_card], FusionError, "hoss.error.fusion.not_same_card"),
        ([mine[0], mine[0]], FusionError, "hoss.error.fusion.duplicate"),
        ([mine[0], theirs], CardUnavailable, "error.card_unavailable"),
        ([mine[0], 999_999], CardUnavailable, "error.card_unavailable"),
        ([mine[0], face_down], NotAllowed, "hoss.error.card.face_down"),
    ]
    for index, (ids, error, key) in enumerate(cases):
        with pytest.raises(error) as caught:
            await fusion.fuse(1, ids, key=index)
        assert caught.value.key == key  # type: ignore[attr-defined]
    assert (await card_rows(db), await ledger_rows(db)) == before


async def test_a_refused_key_can_run_later(fusion: FusionService, cards: Cards) -> None:
    """A refusal stores nothing under the key: the same interaction can succeed once the selection is fixed."""
    await cards.player(1)
    a = await cards.give(1, "sq_archer_1")
    b = await cards.give(1, "sq_archer_1")
    with pytest.raises(FusionError):
        await fusion.fuse(1, [a], key=9)
    assert len((await fusion.fuse(1, [a, b], key=9)).outcomes) == 1


async def test_a_copy_in_a_locked_deck_cannot_be_sacrificed_but_can_be_improved(
    db: Database, clock: ManualClock, catalog: HossCatalog, cards: Cards, decks: DeckService
) -> None:
    await cards.player(1)
    owned = await cards.deck_collection(1, "argent", 1)
    await decks.save(1, 1, "arena", LINES, BUFFS)
    await decks.lock(1, 1, "arena:1")
    locked = owned["sq_guerrier_1"]
    rarer = await cards.give(1, "sq_guerrier_1", "or", 1)  # a better copy: the locked one would be sacrificed
    spare = await cards.give(1, "sq_guerrier_1", "basique", 1)
    service = scripted_fusion(db, clock, catalog, [WIN])
    with pytest.raises(FusionError) as caught:
        await service.fuse(1, [locked, rarer], key=1)
    assert (caught.value.key, caught.value.params) == ("hoss.error.fusion.locked", {"copy": locked})
    assert await cards.owner(locked) == 1
    result = await service.fuse(1, [locked, spare], key=2)
    assert result.outcomes[0].survivor_id == locked
    row = await cards.row(locked)
    assert (await cards.stars(locked), row["locked_by"]) == (2, "arena:1")
    assert await cards.owner(spare) is None


async def test_preview_shows_the_plan_and_changes_nothing(
    fusion: FusionService, db: Database, cards: Cards
) -> None:
    await cards.player(1)
    five = await cards.give(1, "orc_mage_1", "basique", 5)
    four = await cards.give(1, "orc_mage_1", "divin", 4)
    before = await card_rows(db)
    preview = await fusion.preview(1, [five, four])
    (planned,) = preview.fusions
    assert (planned.survivor_id, planned.sacrificed_id, planned.target_stars) == (four, five, 5)
    assert (planned.chance_pct, planned.five_as_four, preview.needs_confirmation) == (12, True, True)
    assert await card_rows(db) == before


async def test_selection_reads_the_cards_copies_and_applies_the_engine_rules(
    fusion: FusionService, db: Database, cards: Cards
) -> None:
    await cards.player(1)
    await cards.player(2)
    a = await cards.give(1, "orc_mage_1", "basique", 1)
    b = await cards.give(1, "orc_mage_1", "or", 1)
    c = await cards.give(1, "orc_mage_1", "argent", 1)
    await cards.give(1, "orc_guerrier_1", "basique", 1)  # another card
    await cards.give(2, "orc_mage_1", "basique", 1)  # another player's
    # one pair: the rarest survives, the least valuable (Basique) is sacrificed, the odd Argent stays out
    assert await fusion.selection(1, "orc_mage_1", "a") == [b, a]
    assert await fusion.selection(1, "orc_mage_1", "1") == [b, a]
    with pytest.raises(BadInput) as nothing:
        await fusion.selection(1, "orc_mage_1", "2")
    assert nothing.value.key == "hoss.error.fuse.nothing"
    with pytest.raises(BadInput) as no_five:
        await fusion.selection(1, "orc_mage_1", "f")
    assert no_five.value.key == "hoss.error.fuse.no_five_as_four"
    assert await fusion.selection(1, "orc_mage_1", "f", required=False) == []
    before = await card_rows(db)
    proposal = await fusion.propose(1, "orc_mage_1", "a")
    assert proposal.ids == (b, a)
    assert [c.copy_id for c in proposal.copies] == [a, b, c]
    (planned,) = proposal.preview.fusions
    assert (planned.survivor_id, planned.sacrificed_id, planned.target_stars) == (b, a, 2)
    assert await card_rows(db) == before


async def test_collection_reads_for_fusion_and_autocomplete(
    db: Database, catalog: HossCatalog, cards: Cards
) -> None:
    collection = HossCollection(db, catalog)
    await cards.player(1)
    m1 = await cards.give(1, "orc_mage_1", "basique", 1)
    m2 = await cards.give(1, "orc_mage_1", "or", 1)
    g1 = await cards.give(1, "orc_guerrier_1", "basique", 5)
    g2 = await cards.give(1, "orc_guerrier_1", "basique", 3)
    s1 = await cards.give(1, "sq_mage_1", "basique", 4)
    s2 = await cards.give(1, "sq_mage_1", "basique", 5)
    assert [c.copy_id for c in await collection.copies_of(1, "orc_mage_1")] == [m1, m2]
    assert await collection.copies_of(1, "buff_soins") == []
    assert await collection.fusable_cards(1) == {
        "orc_mage_1": Counter({1: 2}),
        "sq_mage_1": Counter({4: 1, 5: 1}),
    }
    assert await collection.fusable_cards(1, ["sq_mage_1", "orc_guerrier_1"]) == {
        "sq_mage_1": Counter({4: 1, 5: 1})
    }
    newest = await collection.search_copies(1, limit=3)
    assert [c.copy_id for c in newest] == [s2, s1, g2]
    found = await collection.search_copies(1, ["orc_guerrier_1", "orc_mage_1"], limit=3)
    assert [c.copy_id for c in found] == [g1, g2, m1]
