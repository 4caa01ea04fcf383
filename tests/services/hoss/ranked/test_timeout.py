"""A decision not taken within 2 minutes is taken by the AI, through the scheduler and a ManualClock: the
player stopped answering, so the AI plays the rest of the battle for them, with no further wait."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from core.clock import ManualClock
from engine.hoss import Pass
from services.hoss.battle.battles import DECISION_TIMEOUT, TIMEOUT_JOB
from services.infra.games import GameRegistry
from services.infra.scheduler import Scheduler
from store.db import Database
from tests.services.conftest import open_database
from tests.services.hoss.ranked import (
    battle_rows,
    decision_rows,
    gold,
    player_with_deck,
    rows,
    service,
)
from tests.services.hoss.ranked.conftest import PARIS


async def jobs(db: Database) -> list[tuple[object, ...]]:
    return await rows(db, "SELECT state, payload FROM jobs WHERE kind = ? ORDER BY id", TIMEOUT_JOB)


async def test_after_two_minutes_the_ai_plays_the_rest_of_the_battle(
    db: Database, clock: ManualClock, sched: Scheduler, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry, sched)
    battle = (await ranked.start(1, 1, key="i")).battle_id
    assert await jobs(db) == [("due", json.dumps({"battle": battle, "pause": 1}))]
    clock.advance(DECISION_TIMEOUT - timedelta(seconds=1))
    assert await sched.run_due() == 0
    assert (await ranked.view(1, battle)).pause == 1
    clock.advance(timedelta(seconds=1))
    assert await sched.run_due() == 1
    view = await ranked.view(1, battle)
    assert view.status != "live"  # played to its end in the deadline's unit: no second 2-minute wait
    assert view.result is not None
    assert view.deadline is None
    assert view.ai_decided[0] == 1  # the view can say the AI decided from pause 1 on
    assert set(view.ai_decided) == set(range(1, view.pause + 1))
    mine = [d for d in await decision_rows(db) if d.seat == 0]
    assert mine
    assert {d.by for d in mine} == {"timeout"}
    assert await jobs(db) == [("done", json.dumps({"battle": battle, "pause": 1}))]


async def test_a_player_who_answered_then_stopped_waits_two_minutes_once(
    db: Database, clock: ManualClock, sched: Scheduler, registry: GameRegistry
) -> None:
    """Alice answers her first pause, then stops: one 2-minute deadline at her next pause, and the AI
    plays the rest; her own decision stays hers."""
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry, sched)
    battle = (await ranked.start(1, 1, key="i")).battle_id
    answered = await ranked.answer(1, battle, Pass(), key="a", pause=1)
    assert not answered.over
    for _ in range(5):  # stops between two rounds (a Défenseur that could move) pass by themselves
        if (await ranked.view(1, battle)).deadline == clock.now() + DECISION_TIMEOUT:
            break
        clock.advance(timedelta(seconds=5))
        await sched.run_due()
    clock.advance(DECISION_TIMEOUT)
    assert await sched.run_due() == 1
    view = await ranked.view(1, battle)
    assert view.status != "live"
    mine = [d for d in await decision_rows(db) if d.seat == 0 and not d.between]
    assert mine[0].by == "player"
    assert {d.by for d in mine[1:]} == {"timeout"}
    assert [state for state, _ in await jobs(db)] == ["cancelled", "done"]


async def test_an_answered_pause_withdraws_its_deadline(
    db: Database, clock: ManualClock, sched: Scheduler, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry, sched)
    battle = (await ranked.start(1, 1, key="i")).battle_id
    await ranked.answer(1, battle, Pass(), key="a", pause=1)
    states = [state for state, _ in await jobs(db)]
    assert states[0] == "cancelled"
    assert states[1:] in ([], ["due"])
    clock.advance(DECISION_TIMEOUT)
    await sched.run_due()
    assert bool([d for d in await decision_rows(db) if d.by == "timeout" and not d.between]) == bool(
        states[1:]
    )


async def test_a_stale_deadline_does_nothing(
    db: Database, clock: ManualClock, sched: Scheduler, registry: GameRegistry
) -> None:
    """A job for a pause already answered (e.g. the cancel raced with the firing) changes nothing."""
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry, sched)
    battle = (await ranked.start(1, 1, key="i")).battle_id
    await ranked.answer(1, battle, Pass(), key="a", pause=1)
    before = [(r.version, r.pause) for r in await battle_rows(db)]
    await sched.add(TIMEOUT_JOB, clock.now(), {"battle": battle, "pause": 1})
    assert await sched.run_due() == 1
    assert [(r.version, r.pause) for r in await battle_rows(db)] == before


async def test_a_player_who_never_answers_gets_a_whole_battle_played_by_the_ai(
    db: Database, clock: ManualClock, sched: Scheduler, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry, sched)
    before = await gold(db, 1)
    battle = (await ranked.start(1, 1, key="i")).battle_id
    clock.advance(DECISION_TIMEOUT)
    assert await sched.run_due() == 1
    view = await ranked.view(1, battle)
    assert view.result is not None
    assert await gold(db, 1) - before == view.result.gold
    assert await ranked.replay(1, battle) == await ranked.log(1, battle)


async def test_deadlines_survive_a_restart(
    tmp_path: Path, clock: ManualClock, registry: GameRegistry
) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await open_database(path)
    try:
        await player_with_deck(db, clock, 1, registry=registry)
        battle = (
            await service(db, clock, registry, Scheduler(db, clock, PARIS)).start(1, 1, key="i")
        ).battle_id
    finally:
        await db.close()
    clock.advance(timedelta(minutes=30))  # the bot was down past the deadline
    db = await open_database(path)
    sched = Scheduler(db, clock, PARIS)
    try:
        ranked = service(db, clock, registry, sched)
        await sched.start()  # the start-up catch-up fires what fell due while down
        view = await ranked.view(1, battle)
        assert view.ai_decided[0] == 1
        assert view.status != "live"
    finally:
        await sched.stop()
        await db.close()
