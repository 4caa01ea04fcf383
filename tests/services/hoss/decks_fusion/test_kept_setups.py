"""The active deck's setup is kept between two ranked starts (services/hoss/decks.py `DeckService`), and
forgotten once a copy of the player changes or their decks do: each case compares the kept setup with
the one a service that never kept anything reads."""

from __future__ import annotations

import pytest

from core.clock import ManualClock
from core.errors import DomainError
from engine.hoss.catalog import HossCatalog
from engine.protocol import PlayerSetup
from services.hoss.decks import DeckService
from services.infra.games import GameRegistry
from store.db import Database
from tests.services.hoss.decks_fusion.conftest import BUFFS, LINES, Cards


@pytest.fixture
def fresh(db: Database, clock: ManualClock, catalog: HossCatalog, registry: GameRegistry) -> DeckService:
    return DeckService(db, clock, catalog, registry=registry)


async def same_as_read(decks: DeckService, fresh: DeckService, player: int) -> PlayerSetup:
    fresh.setups.clear()
    kept, read = await decks.deck_setup(player), await fresh.deck_setup(player)
    assert kept == read
    return kept


async def test_the_active_decks_setup_is_read_once_until_it_changes(
    db: Database, decks: DeckService, fresh: DeckService, cards: Cards
) -> None:
    await cards.player(1)
    owned = await cards.deck_collection(1)
    await decks.save(1, 1, "one", LINES, BUFFS)
    await decks.set_active(1, 1)
    first = await decks.deck_setup(1)
    reads = db.reads
    assert await decks.deck_setup(1) == first
    assert db.reads == reads  # kept: the next ranked start reads nothing for it

    better = await cards.give(1, "sq_guerrier_1", "divin", 5)  # a copy minted: the best one changes
    setup = await same_as_read(decks, fresh, 1)
    assert setup.extra["lines"][0]["copies"][0]["rarity"] == "divin"
    await cards.destroy(1, better)  # and leaves again
    assert await same_as_read(decks, fresh, 1) == first

    await decks.save(1, 2, "two", list(reversed(LINES)), BUFFS)
    await decks.deck_setup(1)
    await decks.set_active(1, 2)  # another slot played
    assert (await same_as_read(decks, fresh, 1)).extra["lines"][0]["copies"][0]["card"] == "orc_defenseur_1"
    await decks.save(1, 2, "two", LINES, BUFFS)  # the active slot saved again
    assert await same_as_read(decks, fresh, 1) == first

    await decks.delete(1, 2)
    with pytest.raises(DomainError) as caught:
        await decks.deck_setup(1)
    assert caught.value.key == "hoss.error.deck.no_active"
    await decks.set_active(1, 1)
    await cards.destroy(1, owned["orc_mage_1"])  # a copy the deck needs is gone: nothing kept plays it
    with pytest.raises(DomainError) as caught:
        await decks.deck_setup(1)
    assert caught.value.key == "hoss.error.deck.unplayable"


async def test_a_slot_asked_for_or_another_seat_is_read_each_time(
    db: Database, decks: DeckService, cards: Cards
) -> None:
    await cards.player(1)
    await cards.deck_collection(1)
    await decks.save(1, 1, "one", LINES, BUFFS)
    await decks.set_active(1, 1)
    await decks.deck_setup(1)
    reads = db.reads
    await decks.deck_setup(1, 1)
    await decks.deck_setup(1, seat=1)
    assert db.reads == reads + 2
