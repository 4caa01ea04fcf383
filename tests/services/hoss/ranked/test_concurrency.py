"""Concurrent clicks on one battle: one answer per pause applies, the end is paid once, gold matches the ledger."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from zoneinfo import ZoneInfo

from core.clock import ManualClock
from core.errors import DomainError, NotAllowed
from engine.hoss import Pass
from services.hoss.battle.battles import DECISION_TIMEOUT, REASON
from services.infra.games import GameRegistry
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from tests.services.hoss.ranked import (
    battle_rows,
    decision_rows,
    gold,
    player_with_deck,
    rows,
    service,
)


async def test_twenty_concurrent_answers_to_one_pause_apply_once(
    db: Database, clock: ManualClock, conservation: Callable[[Connection], None], registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    battle = (await ranked.start(1, 1, key="i")).battle_id
    legal = (await ranked.view(1, battle)).legal
    outcomes = await asyncio.gather(
        *(ranked.answer(1, battle, legal[i % len(legal)], key=f"c{i}", pause=1) for i in range(20)),
        return_exceptions=True,
    )
    applied = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(applied) == 1
    assert applied[0].answered_pause == 1
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert all(isinstance(o, NotAllowed) and o.key == "hoss.error.ranked.stale" for o in refused), refused
    mine = [d.pause for d in await decision_rows(db, battle) if d.seat == 0]
    assert mine == [1]
    assert [row.version for row in await battle_rows(db)] == [1]  # created at its first pause, one answer
    await db.read(conservation)


async def test_twenty_double_clicks_with_one_key_apply_once(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    battle = (await ranked.start(1, 1, key="i")).battle_id
    outcomes = await asyncio.gather(
        *(ranked.answer(1, battle, Pass(), key="same", pause=1) for _ in range(20))
    )
    assert sum(not o.replayed for o in outcomes) == 1
    assert len({(o.answered_pause, o.pause) for o in outcomes}) == 1
    assert len([d for d in await decision_rows(db) if d.seat == 0]) == 1


async def test_answers_skips_and_deadlines_racing_to_the_end_pay_once(
    db: Database, clock: ManualClock, conservation: Callable[[Connection], None], registry: GameRegistry
) -> None:
    sched = Scheduler(db, clock, ZoneInfo("Europe/Paris"))
    ranked = service(db, clock, registry, sched)
    for player in (1, 2, 3):
        await player_with_deck(db, clock, player, registry=registry)
    battles = {p: (await ranked.start(p, 1, key=f"s{p}")).battle_id for p in (1, 2, 3)}
    start_gold = {p: await gold(db, p) for p in battles}
    clock.advance(DECISION_TIMEOUT)
    calls: list[Awaitable[object]] = []
    for player, battle in battles.items():
        calls += [ranked.skip_to_end(player, battle) for _ in range(5)]
        calls += [ranked.answer(player, battle, Pass(), key=f"p{player}:{i}", pause=1) for i in range(5)]
    calls.append(sched.run_due())
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    assert all(not isinstance(o, BaseException) or isinstance(o, DomainError) for o in outcomes), outcomes
    for player, battle in battles.items():
        view = await ranked.view(player, battle)
        assert view.result is not None
        paid = await rows(db, "SELECT delta FROM ledger WHERE reason = ? AND ref = ?", REASON, str(battle))
        assert [d for (d,) in paid] == ([view.result.gold] if view.result.gold else [])
        assert await gold(db, player) - start_gold[player] == view.result.gold
        assert await ranked.replay(player, battle) == await ranked.log(player, battle)
    progress = await rows(db, "SELECT SUM(wins + losses) FROM hoss_rank_progress")
    assert progress == [(3,)]
    await db.read(conservation)
    await sched.stop()
