"""A duel's end changes the player's Immortal's War line on a /profile kept from before it
(services/infra/players.py `profiles`; every test compares a kept profile with a fresh read)."""

from __future__ import annotations

from core.clock import ManualClock
from services.immortals import GAME, ImmortalsServices
from services.immortals.economy import ensure_profile
from services.infra.games import GameRegistry
from services.infra.players import PROFILE_TOPIC, PlayerService, ensure_player
from store.db import Database
from tests.services.immortals.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, play_out


async def test_a_finished_duel_shows_on_a_kept_profile(
    services: ImmortalsServices, db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    players = PlayerService(db, clock, registry)
    announced: list[str | None] = []
    db.subscribe_keys(PROFILE_TOPIC, announced.append)
    challenge = await services.duels.challenge(GUILD, CHANNEL, ALICE, BOB, key="kept")
    duel = await services.duels.answer(challenge.id, BOB, True, guild=GUILD)
    announced.clear()
    before = await players.profile(ALICE, create=False)
    assert before is not None
    assert players.profiles.get(ALICE) == before  # kept
    assert [line.params["duels"] for line in dict(before.summaries)[GAME.name_key]] == [0]
    await play_out(services, duel)
    after = await players.profile(ALICE, create=False)
    assert after is not None
    assert [line.params["duels"] for line in dict(after.summaries)[GAME.name_key]] == [1]
    # its own announcement: the gold it also pays would make the profile forgotten anyway, not the record
    assert str(ALICE) in announced


async def test_a_new_immortals_profile_shows_on_a_kept_profile(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    players = PlayerService(db, clock, registry)
    announced: list[str | None] = []
    db.subscribe_keys(PROFILE_TOPIC, announced.append)
    await db.write(lambda conn: ensure_player(conn, CAROL, clock.now(), registry))
    before = await players.profile(CAROL, create=False)
    assert before is not None
    assert players.profiles.get(CAROL) == before  # kept
    assert dict(before.summaries)[GAME.name_key] == []
    await db.write(lambda conn: ensure_profile(conn, clock.now(), registry, CAROL))
    after = await players.profile(CAROL, create=False)
    assert after is not None
    assert [line.params["duels"] for line in dict(after.summaries)[GAME.name_key]] == [0]
    assert announced == [str(CAROL)]
    await db.write(
        lambda conn: ensure_profile(conn, clock.now(), registry, CAROL)
    )  # already there: nothing to say
    assert announced == [str(CAROL)]
