"""Shared set-up for the Chocobataille service tests: two players with Bronze decks and a game accepted,
its thread open."""

from __future__ import annotations

from typing import Any

import pytest

from core.clock import ManualClock
from engine.choco.catalog import ChocoCatalog
from services.choco.decks import ChocoDecks
from services.choco.game_store import MATCHES
from services.choco.games import ChocoGames
from services.infra.games import GameRegistry
from store.db import Database
from tests.services.choco.conftest import GUILD, age, give, of_rarity

ALICE, BOB = 31, 32


async def started(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, games: ChocoGames, registry: GameRegistry
) -> int:
    """Two Bronze decks of plain wizards, the game accepted and its thread open (preparatory turn)."""
    chosen = [c.id for c in of_rarity(catalog, "bronze_1", wizards=True) if c.type == "normal"][:12]
    decks = ChocoDecks(db, clock, catalog, registry=registry)
    for player in (ALICE, BOB):
        await give(db, clock, player, {c: 2 for c in chosen}, registry=registry)
        await age(db, player, clock, 60)
        await decks.save(player, "bronze", [c for c in chosen for _ in range(2)])
    made = await games.challenge(GUILD, 10, ALICE, BOB, "bronze", key="posts")
    answered = await games.answer(made.id, BOB, True)
    assert answered.game_id is not None
    await games.open_thread(answered.game_id, 77)
    return answered.game_id


def counted_loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The game states loaded from now on (each `from_json` of the games' engine, kept or parsed)."""
    engine = MATCHES.states  # the engine, or its states kept by their JSON (services/shared/kept_states.py)
    parse = engine.from_json
    loaded: list[str] = []

    def counted(raw: str) -> Any:
        loaded.append(raw)
        return parse(raw)

    monkeypatch.setattr(engine, "from_json", counted)
    return loaded
