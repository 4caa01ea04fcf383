"""DeckService: slots, validation with precise reasons, best copies, the engine setup, and deck locks."""

from __future__ import annotations

import json
from typing import Any

import pytest

from core.clock import ManualClock
from core.errors import CardUnavailable, DomainError, NotAllowed
from engine.hoss import ENGINE
from engine.hoss.catalog import CreatureCard, HossCatalog
from engine.hoss.deck import parse_setup
from engine.protocol import CATALOG_OPTION
from services.hoss.decks import DeckService
from services.infra.messages import Text, render_text
from services.shared.collecting import DeckInvalid, Problem
from store.connection import Connection
from store.db import Database
from tests.services.hoss.decks_fusion.conftest import BUFFS, LINES, Cards


def stored(db: Database) -> Any:
    return db.read(lambda conn: [tuple(r) for r in conn.execute("SELECT * FROM hoss_decks ORDER BY slot")])


async def invalid(decks: DeckService, lines: list[str], buffs: list[str], slot: int = 1) -> DeckInvalid:
    with pytest.raises(DeckInvalid) as caught:
        await decks.save(1, slot, "deck", lines, buffs)
    return caught.value


async def test_a_valid_deck_is_saved_and_shown(
    decks: DeckService, cards: Cards, catalog: HossCatalog
) -> None:
    await cards.player(1)
    owned = await cards.deck_collection(1, "or", 3)
    view = await decks.save(1, 2, "  Mon   deck ", LINES, BUFFS)
    # the player's only deck is the one they play: saved without an active deck, it becomes active
    assert (view.slot, view.name, view.valid, view.problems, view.active) == (2, "Mon deck", True, (), True)
    assert [line.line for line in view.lines] == LINES
    first = view.lines[0].ranks[0]
    assert (first.copy.id, first.copy.bonus_pm, first.rank) == (owned["sq_guerrier_1"], 195, 1)
    card = catalog.card("sq_guerrier_1")
    assert isinstance(card, CreatureCard)
    # the engine's "all stats" (through the collection's effective stats): PV and ATK x (1 + 19.5 %),
    # the rhythm faster by half the bonus
    assert first.stats.pv == card.pv * 11950 // 100 / 100
    assert first.stats.atk == card.atk * 11950 / 100 / 100
    assert first.stats.interval_s == round(card.interval * 1000) * (20000 - 1950) // 20000 / 1000
    assert [b.copy.card for b in view.buffs] == BUFFS
    assert view.buffs[0].strength_bp == 500 * 1195 // 1000  # Soins 5 % x (1 + 19.5 %)
    assert (await decks.show(1, 2)) == view


async def test_each_line_takes_the_best_copy_of_each_card_and_stops_at_the_last_rank_owned(
    decks: DeckService, cards: Cards
) -> None:
    await cards.player(1)
    await cards.deck_collection(1)
    best = await cards.give(1, "sq_guerrier_1", "argent", 2)  # 8 % beats Basique 1★ (2 %)
    await cards.give(1, "sq_guerrier_2a", "basique", 0)
    tie_old = await cards.give(1, "orc_mage_2a", "basique", 2)  # 4 %
    await cards.give(1, "orc_mage_2a", "basique", 2)  # same bonus, newer: not taken
    argent = await cards.give(1, "orc_mage_2b", "argent", 1)  # 4 %: ties with Basique 2★, rarer wins
    await cards.give(1, "orc_mage_2b", "basique", 2)
    holo = await cards.give(1, "orc_mage_3a", "basique", 0, holo=True)  # 20 %
    await cards.give(1, "orc_mage_3a", "or", 3)  # 19.5 %
    await cards.give(1, "syl_archer_3a", "divin", 5)  # a Maître without its Rang 2: unreachable
    view = await decks.save(1, 1, "d", LINES, BUFFS)
    by_line = {line.line: line for line in view.lines}
    assert by_line["sq_guerrier"].ranks[0].copy.id == best
    assert by_line["sq_guerrier"].stops_at == 2  # no Maître owned
    orc_mage = by_line["orc_mage"]
    assert [(r.copy.card, r.copy.id) for r in orc_mage.ranks][1:] == [
        ("orc_mage_2a", tie_old),
        ("orc_mage_2b", argent),
        ("orc_mage_3a", holo),
    ]
    assert by_line["syl_archer"].stops_at == 1
    assert by_line["syl_archer"].unreachable == ("syl_archer_3a",)
    setup = await decks.deck_setup(1, 1)
    syl = setup.extra["lines"][2]["copies"]
    assert [c["card"] for c in syl] == ["syl_archer_1"]  # the unreachable Maître is not sent


async def test_deck_setup_is_what_the_engine_expects(
    decks: DeckService, cards: Cards, catalog: HossCatalog
) -> None:
    for player in (1, 2):
        await cards.player(player)
        await cards.deck_collection(player, "argent", 2)
        await cards.give(player, "hum_cavalier_2b", "or", 1)
        await cards.give(player, "hum_cavalier_3b", "basique", 5)
        await decks.save(player, 3, "d", LINES, BUFFS)
        await decks.set_active(player, 3)
    setups = [await decks.deck_setup(1, seat=0), await decks.deck_setup(2, seat=1)]
    spec = parse_setup(setups[0], catalog)
    hum = spec.lines[3]
    assert (hum.r1.card, [c.card for c in hum.r2], [c.card for c in hum.r3]) == (
        "hum_cavalier_1",
        ["hum_cavalier_2b"],
        ["hum_cavalier_3b"],
    )
    assert sorted(setups[0].deck) == sorted(
        [c["card"] for line in setups[0].extra["lines"] for c in line["copies"]] + BUFFS
    )
    state = ENGINE.new_game(setups, seed=1, options={CATALOG_OPTION: catalog})
    assert ENGINE.outcome(state) is None


@pytest.mark.parametrize(
    ("lines", "buffs", "problem"),
    [
        ([*LINES, "hum_archer"], BUFFS, Problem("hoss.error.deck.line_count", {"expected": 6, "count": 7})),
        (LINES[:5], BUFFS, Problem("hoss.error.deck.line_count", {"expected": 6, "count": 5})),
        (
            ["hum_defenseur", *LINES[1:]],
            BUFFS,
            Problem("hoss.error.deck.too_many_defenders", {"maximum": 2, "count": 3}),
        ),
        ([*LINES[:5], LINES[0]], BUFFS, Problem("hoss.error.deck.duplicate_line", {"line": "sq_guerrier"})),
        ([*LINES[:5], "hum_mage"], BUFFS, Problem("hoss.error.deck.missing_rank1", {"line": "hum_mage"})),
        ([*LINES[:5], "hum_mage_1"], BUFFS, Problem("hoss.error.deck.unknown_line", {"line": "hum_mage_1"})),
        (LINES, BUFFS[:1], Problem("hoss.error.deck.buff_count", {"expected": 2, "count": 1})),
        (LINES, [*BUFFS, "buff_pv"], Problem("hoss.error.deck.buff_count", {"expected": 2, "count": 3})),
        (LINES, [BUFFS[0], BUFFS[0]], Problem("hoss.error.deck.duplicate_buff", {"buff": "buff_soins"})),
        (
            LINES,
            [BUFFS[0], "buff_revive"],
            Problem("hoss.error.deck.buff_not_owned", {"buff": "buff_revive"}),
        ),
        (
            LINES,
            [BUFFS[0], "sq_guerrier_1"],
            Problem("hoss.error.deck.unknown_buff", {"buff": "sq_guerrier_1"}),
        ),
    ],
)
async def test_an_invalid_deck_is_refused_with_its_reason_and_changes_nothing(
    decks: DeckService, cards: Cards, db: Database, lines: list[str], buffs: list[str], problem: Problem
) -> None:
    await cards.player(1)
    await cards.deck_collection(1)
    for extra in ("hum_defenseur_1", "hum_archer_1", "buff_pv"):
        await cards.give(1, extra)
    await decks.save(1, 1, "kept", LINES, BUFFS)
    before = await stored(db)
    error = await invalid(decks, lines, buffs, slot=1)
    assert error.problems == (problem,)
    assert (error.key, error.params) == (problem.key, problem.params)
    assert await stored(db) == before
    await invalid(decks, lines, buffs, slot=2)
    assert await stored(db) == before


async def test_every_reason_is_listed(decks: DeckService, cards: Cards) -> None:
    await cards.player(1)
    error = await invalid(decks, ["sq_defenseur", "sq_defenseur", "nope"], ["buff_pv"])
    assert [p.key for p in error.problems] == [
        "hoss.error.deck.line_count",
        "hoss.error.deck.duplicate_line",
        "hoss.error.deck.missing_rank1",
        "hoss.error.deck.unknown_line",
        "hoss.error.deck.buff_count",
        "hoss.error.deck.buff_not_owned",
    ]


async def test_slot_and_name_are_checked(decks: DeckService, cards: Cards) -> None:
    await cards.player(1)
    await cards.deck_collection(1)
    for slot in (0, 5):
        with pytest.raises(DomainError) as caught:
            await decks.save(1, slot, "d", LINES, BUFFS)
        assert (caught.value.key, caught.value.params) == ("hoss.error.deck.slot", {"maximum": 4})
    for name in ("   ", "x" * 33):
        with pytest.raises(DomainError) as caught:
            await decks.save(1, 1, name, LINES, BUFFS)
        assert (caught.value.key, caught.value.params) == ("hoss.error.deck.name", {"maximum": 32})
    for slot in (1, 2, 3, 4):
        await decks.save(1, slot, f"deck {slot}", LINES, BUFFS)
    assert [d.slot for d in await decks.decks(1)] == [1, 2, 3, 4]


async def test_active_deck_and_empty_slots(decks: DeckService, cards: Cards) -> None:
    await cards.player(1)
    await cards.deck_collection(1)
    with pytest.raises(DomainError) as caught:
        await decks.deck_setup(1)
    assert caught.value.key == "hoss.error.deck.no_active"
    with pytest.raises(DomainError) as caught:
        await decks.set_active(1, 2)
    assert (caught.value.key, caught.value.params) == ("hoss.error.deck.empty_slot", {"slot": 2})
    await decks.save(1, 2, "two", LINES, BUFFS)
    await decks.save(1, 4, "four", list(reversed(LINES)), BUFFS)
    await decks.set_active(1, 4)
    assert [(d.slot, d.active) for d in await decks.decks(1)] == [(2, False), (4, True)]
    setup = await decks.deck_setup(1)
    assert setup.extra["lines"][0]["copies"][0]["card"] == "orc_defenseur_1"
    assert await decks.delete(1, 4) is True
    assert await decks.delete(1, 4) is False
    with pytest.raises(DomainError) as caught:
        await decks.deck_setup(1)
    assert caught.value.key == "hoss.error.deck.no_active"
    with pytest.raises(DomainError):
        await decks.show(1, 4)


async def test_a_card_sold_since_saving_invalidates_the_deck(decks: DeckService, cards: Cards) -> None:
    await cards.player(1)
    owned = await cards.deck_collection(1)
    rank2 = await cards.give(1, "orc_mage_2a")
    await decks.save(1, 1, "d", LINES, BUFFS)
    await decks.set_active(1, 1)
    await cards.destroy(1, rank2)  # a missing Rang 2 only shortens the line
    view = await decks.show(1, 1)
    assert view.valid
    assert view.lines[1].stops_at == 1
    await cards.destroy(1, owned["orc_mage_1"])
    await cards.destroy(1, owned["buff_vitesse"])
    view = await decks.show(1, 1)
    assert not view.valid
    assert view.problems == (  # a saved deck: missing from its slot, with the commands that complete it
        Problem("hoss.deck.problem.lost_rank1", {"line": "orc_mage", "slot": 1}),
        Problem("hoss.deck.problem.lost_buff", {"buff": "buff_vitesse", "slot": 1}),
    )
    with pytest.raises(NotAllowed) as caught:
        await decks.deck_setup(1)
    assert caught.value.key == "hoss.error.deck.unplayable"
    shown = render_text(Text(caught.value.key, caught.value.params), "en")
    for card in ("orc_mage_1", "buff_vitesse"):  # every reason, each card by its name, never its id
        assert decks.catalog.card(card).name.en in shown  # type: ignore[union-attr]
    assert "orc_mage" not in shown
    assert "buff_vitesse" not in shown
    assert shown.count("`/hoss deck auto slot:1`") == 2
    assert [(d.slot, d.valid) for d in await decks.decks(1)] == [(1, False)]


async def test_deck_setup_follows_the_current_best_copies(decks: DeckService, cards: Cards) -> None:
    await cards.player(1)
    await cards.deck_collection(1)
    await decks.save(1, 1, "d", LINES, BUFFS)
    hidden = await cards.give(1, "sq_guerrier_1", "divin", 5, holo=True)
    await cards.hide(1, hidden)  # still face down in an opening: not used until flipped
    better = await cards.give(1, "sq_guerrier_1", "divin", 5)
    setup = await decks.deck_setup(1, 1)
    assert setup.extra["lines"][0]["copies"][0] == {
        "card": "sq_guerrier_1",
        "rarity": "divin",
        "stars": 5,
        "holo": False,
    }
    assert (await decks.show(1, 1)).lines[0].ranks[0].copy.id == better


async def locks(db: Database) -> dict[int, str | None]:
    return await db.read(lambda conn: dict(conn.execute("SELECT id, locked_by FROM cards").fetchall()))


async def test_lock_follows_the_deck_and_unlock_releases(
    decks: DeckService, cards: Cards, db: Database
) -> None:
    await cards.player(1)
    owned = await cards.deck_collection(1)
    rank2 = await cards.give(1, "sq_guerrier_2a")
    spare = await cards.give(1, "hum_mage_1")
    await decks.save(1, 1, "d", LINES, BUFFS)
    result = await decks.lock(1, 1, "arena:1")
    expected = sorted([*owned.values(), rank2])
    assert (list(result.locked), result.released) == (expected, ())
    assert {i for i, lock in (await locks(db)).items() if lock == "arena:1"} == set(expected)
    assert (await locks(db))[spare] is None
    assert (await decks.show(1, 1)).locks == ("arena:1",)
    again = await decks.lock(1, 1, "arena:1")  # locking again is harmless
    assert list(again.locked) == expected
    better = await cards.give(1, "sq_guerrier_1", "or", 5)
    moved = await decks.lock(1, 1, "arena:1")
    assert better in moved.locked
    assert moved.released == (owned["sq_guerrier_1"],)
    with pytest.raises(DomainError) as caught:
        await decks.lock(1, 1, "arena:2")
    assert caught.value.key == "hoss.error.deck.locked_elsewhere"
    released = await decks.unlock(1, "arena:1")
    assert set(released) == set(moved.locked)
    assert all(lock is None for lock in (await locks(db)).values())


async def test_a_locked_copy_cannot_leave_the_collection(
    decks: DeckService, cards: Cards, db: Database
) -> None:
    await cards.player(1)
    owned = await cards.deck_collection(1)
    await decks.save(1, 1, "d", LINES, BUFFS)
    await decks.lock(1, 1, "arena:1")
    with pytest.raises(CardUnavailable):
        await cards.destroy(1, owned["buff_soins"])  # what a sale would do
    assert await cards.owner(owned["buff_soins"]) == 1


async def test_an_invalid_deck_cannot_be_locked(decks: DeckService, cards: Cards, db: Database) -> None:
    await cards.player(1)
    owned = await cards.deck_collection(1)
    await decks.save(1, 1, "d", LINES, BUFFS)
    await cards.destroy(1, owned["sq_guerrier_1"])
    with pytest.raises(DeckInvalid):
        await decks.lock(1, 1, "arena:1")
    assert all(lock is None for lock in (await locks(db)).values())


async def test_decks_are_per_player(
    decks: DeckService, cards: Cards, db: Database, clock: ManualClock
) -> None:
    await cards.player(1)
    await cards.player(2)
    await cards.deck_collection(1)
    await decks.save(1, 1, "mine", LINES, BUFFS)
    with pytest.raises(DomainError):
        await decks.show(2, 1)
    error = await invalid_for(decks, 2)
    assert error.problems[0] == Problem("hoss.error.deck.missing_rank1", {"line": "sq_guerrier"})

    def rows(conn: Connection) -> list[Any]:
        return [json.loads(r[0]) for r in conn.execute("SELECT lines FROM hoss_decks")]

    assert await db.read(rows) == [LINES]


async def invalid_for(decks: DeckService, player: int) -> DeckInvalid:
    with pytest.raises(DeckInvalid) as caught:
        await decks.save(player, 1, "theirs", LINES, BUFFS)
    return caught.value
