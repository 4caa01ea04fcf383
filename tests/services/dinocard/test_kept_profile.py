"""A pack made or dissolved changes the player's Dinocard line on a /profile kept from before
(services/infra/players.py `profiles`; every test compares a kept profile with a fresh read)."""

from __future__ import annotations

from core.clock import ManualClock
from engine.dinocard import DinocardCatalog
from services.dinocard import GAME, DinocardServices
from services.infra.games import GameRegistry
from services.infra.players import PlayerService
from store.db import Database
from tests.services.dinocard.conftest import ALICE, fire_pack


async def packs_shown(players: PlayerService) -> list[tuple[object, object]]:
    profile = await players.profile(ALICE, create=False)
    assert profile is not None
    assert players.profiles.get(ALICE) == profile  # kept
    return [(line.params["count"], line.params["level"]) for line in dict(profile.summaries)[GAME.name_key]]


async def test_a_pack_made_and_dissolved_shows_on_a_kept_profile(
    dino: DinocardServices, db: Database, clock: ManualClock, catalog: DinocardCatalog, registry: GameRegistry
) -> None:
    players = PlayerService(db, clock, registry)
    await dino.collection.page(ALICE)  # the starter copies
    assert await packs_shown(players) == []
    await dino.packs.create(ALICE, "Feu", fire_pack(catalog))
    assert await packs_shown(players) == [(1, 1)]
    await dino.packs.dissolve(ALICE, "feu")
    assert await packs_shown(players) == []
