"""« Décider »'s controls are kept by the unit that saved the battle (services/hoss/battle/controls.py,
issue 39): after a start or an answer they read nothing and equal what a read finds; another player or
another server is not answered from them; a save the unit did not make (the 2-minute deadline) forgets
them."""

from __future__ import annotations

from core.clock import ManualClock
from core.errors import NotFound
from services.hoss.battle import battles
from services.hoss.battle.battles import DECISION_TIMEOUT
from services.hoss.battle.controls import BattleView, read_view
from services.hoss.battle.ranked import RankedService
from services.infra.games import GameRegistry
from services.infra.scheduler import Scheduler
from store.db import Database
from tests.services.hoss.ranked import choose, player_with_deck, service


async def as_read(db: Database, player: int, battle: int, guild: int | None = None) -> BattleView:
    return await db.read(lambda conn: read_view(conn, battles.owned(conn, player, battle, guild), ()))


async def controls_read_nothing(ranked: RankedService, db: Database, player: int, battle: int) -> BattleView:
    reads = db.reads
    kept = await ranked.controls(player, battle, guild=5)
    assert db.reads == reads
    assert kept == await as_read(db, player, battle, 5)
    return kept


async def test_the_controls_after_a_start_and_an_answer_read_nothing_and_equal_a_read(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    started = await ranked.start(1, 1, key="start", guild=5)
    view = await controls_read_nothing(ranked, db, 1, started.battle_id)
    assert view.legal
    assert view.deadline == clock.now() + DECISION_TIMEOUT

    for turn in range(3):
        answered = await ranked.answer(
            1, started.battle_id, choose(view, turn), key=f"a{turn}", pause=view.pause, guild=5
        )
        if answered.over:
            break
        view = await controls_read_nothing(ranked, db, 1, started.battle_id)

    reads = db.reads  # anyone else, or from elsewhere, is read, and refused as before
    for player, guild in ((2, 5), (1, 6), (1, None)):
        try:
            await ranked.controls(player, started.battle_id, guild=guild)
        except NotFound:
            pass
        else:
            raise AssertionError((player, guild))
    assert db.reads == reads + 3


async def test_a_save_the_unit_did_not_make_forgets_them(
    db: Database, clock: ManualClock, sched: Scheduler, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry, sched)
    started = await ranked.start(1, 1, key="start", guild=5)
    before = await controls_read_nothing(ranked, db, 1, started.battle_id)
    clock.advance(DECISION_TIMEOUT)
    assert await sched.run_due() == 1  # the AI decides for the player: a save by the job's unit
    reads = db.reads
    after = await ranked.controls(1, started.battle_id, guild=5)
    assert db.reads == reads + 1
    assert after == await as_read(db, 1, started.battle_id, 5)
    assert after != before
