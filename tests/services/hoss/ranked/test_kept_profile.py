"""A counted battle changes the player's HOSS line on a /profile kept from before it
(services/infra/players.py `profiles`; every test compares a kept profile with a fresh read)."""

from __future__ import annotations

from core.clock import ManualClock
from services.hoss import GAME
from services.infra.games import GameRegistry
from services.infra.players import PROFILE_TOPIC, PlayerService
from store.db import Database
from tests.services.hoss.ranked import player_with_deck, service


async def test_a_counted_battle_shows_on_a_kept_profile(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, rarity="divin", stars=5, registry=registry)  # beats a Rang 1 AI
    players = PlayerService(db, clock, registry)
    before = await players.profile(1, create=False)
    assert before is not None
    assert players.profiles.get(1) == before  # kept
    assert dict(before.summaries)[GAME.name_key] == []
    ranked = service(db, clock, registry=registry)
    announced: list[str | None] = []
    db.subscribe_keys(PROFILE_TOPIC, announced.append)
    result = await ranked.skip_to_end(1, (await ranked.start(1, 1, key="kept")).battle_id)
    assert result.counted
    after = await players.profile(1, create=False)
    assert after is not None
    assert [line.params["wins"] for line in dict(after.summaries)[GAME.name_key]] == [1]
    # its own announcement: the gold it also pays would make the profile forgotten anyway, not the record
    assert announced == ["1"]
