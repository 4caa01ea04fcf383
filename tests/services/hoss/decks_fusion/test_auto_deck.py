"""A player's first HOSS deck: `/hoss deck auto` builds the strongest valid deck of their cards, and a new
player's first deck is built for them once the cards they turned over make one (docs/hoss/collection.md,
"First deck")."""

from __future__ import annotations

import pytest

from core.errors import DomainError
from services.hoss.decks import DeckService
from tests.services.hoss.decks_fusion.conftest import BUFFS, LINES, Cards


async def starter(decks: DeckService, player_id: int) -> int | None:
    now = decks.clock.now()
    return await decks.db.write(lambda conn: decks.starter_in(conn, now, player_id))


async def test_auto_builds_a_valid_active_deck_from_the_cards_owned(decks: DeckService, cards: Cards) -> None:
    await cards.player(1)
    await cards.deck_collection(1)
    view = await decks.auto(1, 3)
    assert (view.slot, view.valid, view.active) == (3, True, True)
    assert sorted(line.line for line in view.lines) == sorted(LINES)
    assert sorted(b.copy.card for b in view.buffs) == sorted(BUFFS)


async def test_auto_keeps_at_most_two_defenders_and_prefers_the_longer_lines(
    decks: DeckService, cards: Cards
) -> None:
    await cards.player(1)
    await cards.deck_collection(1)
    for extra in ("syl_defenseur_1", "hum_defenseur_1", "hum_mage_1"):  # two more Défenseurs, one more line
        await cards.give(1, extra)
    view = await decks.auto(1, 1)
    assert view.valid
    assert sum(line.cls == "defenseur" for line in view.lines) == 2
    assert len(view.lines) == 6


async def test_auto_refuses_naming_what_is_missing_and_writes_nothing(
    decks: DeckService, cards: Cards
) -> None:
    await cards.player(1)
    for line in LINES[:4]:
        await cards.give(1, f"{line}_1")
    await cards.give(1, BUFFS[0])
    with pytest.raises(DomainError) as caught:
        await decks.auto(1, 1)
    assert caught.value.key == "hoss.error.deck.auto_impossible"
    assert caught.value.params == {"lines": 4, "buffs": 1, "needed_lines": 6, "needed_buffs": 2}
    assert await decks.decks(1) == []


async def test_the_first_deck_is_built_once_the_cards_make_one_and_never_replaces_a_deck(
    decks: DeckService, cards: Cards
) -> None:
    await cards.player(1)
    for line in LINES[:5]:
        await cards.give(1, f"{line}_1")
    await cards.give(1, BUFFS[0])
    assert await starter(decks, 1) is None  # not enough cards yet: nothing written
    assert await decks.decks(1) == []
    await cards.give(1, f"{LINES[5]}_1")
    await cards.give(1, BUFFS[1])
    assert await starter(decks, 1) == 1
    (view,) = await decks.decks(1)
    assert (view.slot, view.name, view.valid, view.active) == (1, "Deck 1", True, True)
    await decks.save(1, 1, "Mine", LINES, BUFFS)
    assert await starter(decks, 1) is None  # the player's own deck stays
    assert (await decks.show(1, 1)).name == "Mine"


async def test_a_face_down_card_does_not_count_for_the_first_deck(decks: DeckService, cards: Cards) -> None:
    await cards.player(1)
    owned = await cards.deck_collection(1)
    await cards.hide(1, owned[BUFFS[1]])
    assert await starter(decks, 1) is None


async def test_saving_over_no_active_deck_makes_it_active_but_keeps_a_chosen_one(
    decks: DeckService, cards: Cards
) -> None:
    await cards.player(1)
    await cards.deck_collection(1)
    assert (await decks.save(1, 2, "first", LINES, BUFFS)).active
    assert not (await decks.save(1, 3, "second", LINES, BUFFS)).active
    assert (await decks.show(1, 2)).active
