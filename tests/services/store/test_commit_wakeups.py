"""Only a commit that queued work wakes what waits for it: the scheduler for a job, the outbox deliverer
for a message. A woken scheduler or deliverer reads the database twice and, after a commit that queued
nothing, finds nothing (issue 19: about 5 wasted reads per command)."""

from __future__ import annotations

import asyncio
import threading
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from zoneinfo import ZoneInfo

import discord

from core.clock import ManualClock
from core.settings import Settings
from discord_app.delivery import Deliverer
from services.infra import outbox, scheduler
from services.infra.container import build_services
from services.infra.messages import MessageSpec, Target, Text
from services.infra.players import ensure_player
from services.infra.scheduler import Job, Scheduler
from store.connection import Connection
from store.db import Database, announce
from tests.support.registries import every_game
from tests.support.waits import in_thread

PARIS = ZoneInfo("Europe/Paris")


async def test_a_commit_wakes_only_the_listeners_of_what_it_queued(db: Database) -> None:
    calls: list[str] = []
    db.subscribe("a", lambda: calls.append("a"))
    db.subscribe("b", lambda: calls.append("b"))

    await db.write(lambda conn: conn.execute("CREATE TABLE t (x INTEGER)"))
    assert calls == []

    def queue_a(conn: Connection) -> None:
        conn.execute("INSERT INTO t VALUES (1)")
        announce(conn, "a")

    await db.write(queue_a)
    assert calls == ["a"]


async def test_a_failed_unit_takes_its_announcement_back(db: Database) -> None:
    calls: list[str] = []
    db.subscribe("a", lambda: calls.append("a"))
    db.subscribe("b", lambda: calls.append("b"))

    def fails(conn: Connection) -> None:
        announce(conn, "a")
        raise ValueError("refused")

    def succeeds(conn: Connection) -> None:
        announce(conn, "b")

    # one batch: the failed unit's topic is dropped, its neighbour's kept
    results = await asyncio.gather(db.write(fails), db.write(succeeds), return_exceptions=True)
    assert isinstance(results[0], ValueError)
    assert calls == ["b"]


async def test_the_scheduler_wakes_for_a_job_and_not_for_other_commits(db: Database, tmp_path: Path) -> None:
    clock = ManualClock()
    sched = Scheduler(db, clock, PARIS)
    fired: list[int] = []
    fire = threading.Event()  # the handler runs in the job's write unit, on the writer's thread

    def handler(conn: Connection, job: Job, now: object) -> None:
        fired.append(job.id)
        fire.set()

    sched.on("test.job", handler)
    wakes: list[None] = []

    db.subscribe(scheduler.TOPIC, lambda: wakes.append(None))  # beside the scheduler's own listener
    passed = asyncio.Event()  # set as a dispatcher's pass ends: it then sleeps until woken or due
    look = sched.next_due_at

    async def next_due_at() -> datetime | None:
        found = await look()
        passed.set()
        return found

    sched.next_due_at = next_due_at  # type: ignore[method-assign]
    await sched.start()
    try:
        await asyncio.wait_for(passed.wait(), 5)  # the dispatcher's first pass, then it sleeps
        passed.clear()
        reads = db.reads
        for player in range(1, 21):
            await db.write(partial(ensure_player, player_id=player, now=clock.now(), registry=every_game()))
        assert wakes == []  # 20 commits that scheduled nothing: the dispatcher was not woken
        assert not passed.is_set()
        assert db.reads == reads

        due = clock.now() + timedelta(minutes=5)
        job_id = await db.write(lambda conn: scheduler.schedule(conn, clock.now(), "test.job", due, None))
        assert len(wakes) == 1  # the job's commit was announced
        await asyncio.wait_for(passed.wait(), 5)
        assert db.reads > reads  # it read the new earliest due time
        assert fired == []
        clock.advance(timedelta(minutes=5))  # its own timer fires it
        await in_thread(fire)
        assert fired == [job_id]
    finally:
        await sched.stop()


async def test_the_deliverer_wakes_for_a_message_and_not_for_other_commits(tmp_path: Path) -> None:
    settings = Settings(_env_file=None, discord_token="x", database_path=tmp_path / "bot.sqlite3")
    services = await build_services(settings, ManualClock())
    client = discord.Client(intents=discord.Intents.none())
    await client.__aenter__()  # ready to be waited for; never connected, so its loop waits throughout
    deliverer = Deliverer(client, services)
    wakes: list[object] = []
    deliverer.wake = lambda *_: wakes.append(None)  # type: ignore[method-assign]
    deliverer.start()
    try:
        db, now = services.db, services.clock.now()
        for player in range(1, 21):
            await db.write(partial(ensure_player, player_id=player, now=now, registry=services.registry))
        assert wakes == []
        spec = MessageSpec(content=Text.raw("hello"))
        await db.write(lambda conn: outbox.enqueue(conn, now, Target("channel", 5, guild_id=None), spec))
        assert len(wakes) == 1
    finally:
        await deliverer.stop()
        await services.close()
        await client.close()
