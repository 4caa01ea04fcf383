"""A decision not taken within 2 minutes is taken by the AI, through the scheduler and a ManualClock."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from core.clock import ManualClock
from services.hoss.battles import DECISION_TIMEOUT, TIMEOUT_JOB
from services.platform.scheduler import Scheduler
from store.db import Database
from tests.services.conftest import open_database
from tests.services.hoss.ranked import battle_rows, decision_rows, gold, player_with_deck, rows, service
from tests.services.hoss.ranked.conftest import PARIS


async def jobs(db: Database) -> list[tuple[object, ...]]:
    return await rows(db, "SELECT state, payload FROM jobs WHERE kind = ? ORDER BY id", TIMEOUT_JOB)


async def test_after_two_minutes_the_ai_decides_for_the_player(
    db: Database, clock: ManualClock, sched: Scheduler
) -> None:
    await player_with_deck(db, clock, 1)
    ranked = service(db, clock, sched)
    battle = (await ranked.start(1, 1, key="i")).battle_id
    assert await jobs(db) == [("due", json.dumps({"battle": battle, "pause": 1}))]
    clock.advance(DECISION_TIMEOUT - timedelta(seconds=1))
    assert await sched.run_due() == 0
    assert (await ranked.view(1, battle)).pause == 1
    clock.advance(timedelta(seconds=1))
    assert await sched.run_due() == 1
    view = await ranked.view(1, battle)
    assert view.ai_decided == (1,)  # the view can say the AI decided at pause 1
    decided = [(d.pause, d.seat, d.by) for d in await decision_rows(db) if d.by == "timeout"]
    assert decided
    assert all(d == (1, 0, "timeout") for d in decided)
    assert view.new_rounds
    assert view.status != "live" or view.pause == 2
    if view.status == "live":  # the next pause has its own deadline, 2 minutes from now
        assert view.deadline == clock.now() + DECISION_TIMEOUT
        assert await jobs(db) == [
            ("done", json.dumps({"battle": battle, "pause": 1})),
            ("due", json.dumps({"battle": battle, "pause": 2})),
        ]


async def test_an_answered_pause_withdraws_its_deadline(
    db: Database, clock: ManualClock, sched: Scheduler
) -> None:
    await player_with_deck(db, clock, 1)
    ranked = service(db, clock, sched)
    battle = (await ranked.start(1, 1, key="i")).battle_id
    await ranked.answer(1, battle, {"kind": "pass"}, key="a", pause=1)
    states = [state for state, _ in await jobs(db)]
    assert states[0] == "cancelled"
    assert states[1:] in ([], ["due"])
    clock.advance(DECISION_TIMEOUT)
    await sched.run_due()
    assert len([d for d in await decision_rows(db) if d.by == "timeout"]) == (1 if states[1:] else 0)


async def test_a_stale_deadline_does_nothing(db: Database, clock: ManualClock, sched: Scheduler) -> None:
    """A job for a pause already answered (e.g. the cancel raced with the firing) changes nothing."""
    await player_with_deck(db, clock, 1)
    ranked = service(db, clock, sched)
    battle = (await ranked.start(1, 1, key="i")).battle_id
    await ranked.answer(1, battle, {"kind": "pass"}, key="a", pause=1)
    before = [(r.version, r.pause) for r in await battle_rows(db)]
    await sched.add(TIMEOUT_JOB, clock.now(), {"battle": battle, "pause": 1})
    assert await sched.run_due() == 1
    assert [(r.version, r.pause) for r in await battle_rows(db)] == before


async def test_a_player_who_never_answers_gets_a_whole_battle_played_by_the_ai(
    db: Database, clock: ManualClock, sched: Scheduler
) -> None:
    await player_with_deck(db, clock, 1)
    ranked = service(db, clock, sched)
    before = await gold(db, 1)
    battle = (await ranked.start(1, 1, key="i")).battle_id
    for _ in range(100):
        if (await ranked.view(1, battle)).status != "live":
            break
        clock.advance(DECISION_TIMEOUT)
        assert await sched.run_due() == 1
    view = await ranked.view(1, battle)
    assert view.result is not None
    assert view.deadline is None
    assert await gold(db, 1) - before == view.result.gold
    mine = [d for d in await decision_rows(db) if d.seat == 0]
    assert {d.by for d in mine} == {"timeout"}
    stops = {d.pause for d in mine if d.between}  # waits between rounds (nothing owed): no 2 minutes
    assert set(view.ai_decided) == set(range(1, view.pause + 1)) - stops
    assert await ranked.replay(1, battle) == await ranked.log(1, battle)
    assert [state for state, _ in await jobs(db)] == ["done"] * (view.pause - len(stops))


async def test_deadlines_survive_a_restart(tmp_path: Path, clock: ManualClock) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await open_database(path)
    try:
        await player_with_deck(db, clock, 1)
        battle = (await service(db, clock, Scheduler(db, clock, PARIS)).start(1, 1, key="i")).battle_id
    finally:
        await db.close()
    clock.advance(timedelta(minutes=30))  # the bot was down past the deadline
    db = await open_database(path)
    sched = Scheduler(db, clock, PARIS)
    try:
        ranked = service(db, clock, sched)
        await sched.start()  # the start-up catch-up fires what fell due while down
        assert (await ranked.view(1, battle)).ai_decided == (1,)
    finally:
        await sched.stop()
        await db.close()
