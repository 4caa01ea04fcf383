"""Who may reach a ranked battle: its controls answer only where it was started, and its replay (which
holds the seed) opens only once it is over, to its player or to the server where it was played."""

from __future__ import annotations

import pytest

from core.clock import ManualClock
from core.errors import DomainError, NotAllowed, NotFound
from engine.hoss import Pass
from services.hoss.battle import battle_log
from services.hoss.battle.ranked import RankedService
from services.infra.games import GameRegistry
from store.connection import Connection
from store.db import Database
from tests.services.hoss.ranked import battle_rows, player_with_deck, service

HERE, ELSEWHERE = 501, 502
ALICE, BOB = 1, 2


async def battle_in(
    db: Database, clock: ManualClock, guild: int | None, registry: GameRegistry
) -> tuple[RankedService, int]:
    await player_with_deck(db, clock, ALICE, registry=registry)
    ranked = service(db, clock, registry=registry)
    started = await ranked.start(ALICE, 1, key="s", guild=guild)
    return ranked, started.battle_id


async def seed_of(db: Database, battle: int) -> int:
    (seed,) = [row.seed for row in await battle_rows(db) if row.id == battle]
    return seed


async def test_a_live_battle_has_no_replay_for_anyone(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    ranked, battle = await battle_in(db, clock, HERE, registry=registry)
    seed = str(await seed_of(db, battle))
    with pytest.raises(NotAllowed) as own:
        await ranked.replay(ALICE, battle, HERE)
    assert own.value.key == "hoss.error.ranked.replay_live"
    for viewer, guild in ((BOB, HERE), (BOB, ELSEWHERE), (BOB, None)):
        with pytest.raises(NotFound) as other:
            await ranked.replay(viewer, battle, guild)
        assert other.value.key == "hoss.error.ranked.not_found"
    with pytest.raises(NotFound) as unknown:
        await ranked.replay(BOB, battle + 1000, HERE)
    assert unknown.value.key == "hoss.error.ranked.not_found"
    for error in (own.value, other.value):
        assert seed not in repr(error.params)
        assert seed not in str(error)


async def test_a_finished_battle_replays_for_its_player_and_its_server(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    ranked, battle = await battle_in(db, clock, HERE, registry=registry)
    await ranked.skip_to_end(ALICE, battle, HERE)
    log = await ranked.log(ALICE, battle, HERE)
    assert await ranked.replay(ALICE, battle, HERE) == log
    assert await ranked.replay(ALICE, battle, None) == log  # the player's own, privately, anywhere
    assert await ranked.replay(BOB, battle, HERE) == log  # public where it was posted
    for guild in (ELSEWHERE, None):  # another server's battle reads as an unknown id
        with pytest.raises(NotFound) as refused:
            await ranked.replay(BOB, battle, guild)
        assert refused.value.key == "hoss.error.ranked.not_found"


async def test_a_battle_in_direct_messages_replays_for_its_player_only(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    ranked, battle = await battle_in(db, clock, None, registry=registry)
    await ranked.skip_to_end(ALICE, battle)
    assert await ranked.replay(ALICE, battle, HERE) == await ranked.log(ALICE, battle)
    for guild in (None, HERE):
        with pytest.raises(NotFound):
            await ranked.replay(BOB, battle, guild)


async def rows_and_views(db: Database) -> list[tuple[int, int, str, int]]:
    """Every battle's version, pause and status, and the last round its player viewed."""
    rows = await battle_rows(db)

    def unit(conn: Connection) -> list[tuple[int, int, str, int]]:
        return [(r.version, r.pause, r.status, battle_log.viewed_up_to(conn, r)) for r in rows]

    return await db.read(unit)


async def test_the_controls_answer_only_where_the_battle_was_started(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    ranked, battle = await battle_in(db, clock, HERE, registry=registry)
    before = await rows_and_views(db)
    calls = (
        lambda: ranked.view(ALICE, battle, ELSEWHERE),
        lambda: ranked.log(ALICE, battle, ELSEWHERE),
        lambda: ranked.skip_to_end(ALICE, battle, None),
        lambda: ranked.answer(ALICE, battle, Pass(), key="x", pause=1, guild=ELSEWHERE),
    )
    for call in calls:
        with pytest.raises(DomainError) as refused:
            await call()
        assert refused.value.key == "hoss.error.ranked.not_found"
    assert await rows_and_views(db) == before
    assert (await ranked.view(ALICE, battle, HERE)).status == "live"
