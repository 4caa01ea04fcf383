"""PostgreSQL's own guarantees: several processes (here several `PostgresDatabase`, each its own pool)
writing the same rows, conflicts retried, jobs fired once, and the migration history from every version."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import cast
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock, to_db
from core.errors import InsufficientFunds
from services.infra import ledger, outbox, scheduler
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec, Target, Text
from services.infra.outbox import CLAIM, Outbox
from services.infra.scheduler import Job, Scheduler
from store.connection import Connection
from store.db import Database
from store.migrate import discover
from store.pg_connection import PgConnection
from store.pg_schema import apply
from store.postgres import DUPLICATE_ATTEMPTS, PostgresDatabase
from tests.fixtures.postgres import Cluster
from tests.services.conftest import check_conservation
from tests.services.store.migrations import SEEDS
from tests.support.waits import Sleeps

SPEND = ledger.Movement("test.spend")
GRANT = ledger.Movement("test.grant")
MIGRATIONS = discover()
LATEST = len(MIGRATIONS)
START = datetime(2026, 3, 27, 12, 0, tzinfo=UTC)


async def test_fifty_guarded_debits_from_two_processes(
    processes: tuple[PostgresDatabase, PostgresDatabase],
) -> None:
    """Money for 30 clicks, 50 clicks spread over two processes: 30 win, the balance never goes below 0,
    and the ledger explains the balance row by row."""
    clock = ManualClock(START)
    first, second = processes

    def setup(conn: Connection) -> None:
        conn.execute("INSERT INTO players (id, created_at) VALUES (1, ?)", (to_db(clock.now()),))
        ledger.credit(conn, clock.now(), 1, "gold", 30, GRANT)

    await first.write(setup)
    clicks = [
        (first if i % 2 else second).write(lambda conn: ledger.debit(conn, clock.now(), 1, "gold", 1, SPEND))
        for i in range(50)
    ]
    results = await asyncio.gather(*clicks, return_exceptions=True)
    assert sorted(r for r in results if isinstance(r, int)) == list(range(30)), results
    assert sum(isinstance(r, InsufficientFunds) for r in results) == 20, results
    await first.read(check_conservation)
    assert await first.read(lambda c: c.execute("SELECT balance FROM wallets").fetchone()[0]) == 0


async def test_a_read_that_decides_a_write_is_retried_not_lost(
    processes: tuple[PostgresDatabase, PostgresDatabase],
) -> None:
    """An unguarded read-then-write (the pattern SERIALIZABLE protects): 40 concurrent increments from two
    processes all count, because PostgreSQL refuses the racing ones and the unit runs again."""
    first, second = processes
    await first.write(lambda conn: conn.execute("CREATE TABLE counter (n BIGINT NOT NULL)"))
    await first.write(lambda conn: conn.execute("INSERT INTO counter VALUES (0)"))

    def increment(conn: Connection) -> None:
        seen = conn.execute("SELECT n FROM counter").fetchone()[0]
        conn.execute("UPDATE counter SET n = ?", (seen + 1,))

    await asyncio.gather(*((first if i % 2 else second).write(increment) for i in range(40)))
    assert await first.read(lambda conn: conn.execute("SELECT n FROM counter").fetchone()[0]) == 40
    assert first.retries + second.retries > 0  # the race did happen, and was retried


async def test_a_duplicate_the_unit_makes_itself_is_an_integrity_error(
    processes: tuple[PostgresDatabase, PostgresDatabase],
) -> None:
    """A taken UNIQUE key is run again (a racing unit may have taken it: tests/services/hoss/ranked's double
    click), but a unit that always makes the duplicate fails as on SQLite, after DUPLICATE_ATTEMPTS runs."""
    db = processes[0]
    runs: list[int] = []

    def twice(conn: Connection) -> None:
        runs.append(1)
        for _ in range(2):
            conn.execute("INSERT INTO idempotency (key, result, created_at) VALUES ('k', '1', 'now')")

    before = db.retries
    with pytest.raises(sqlite3.IntegrityError, match="idempotency_pkey"):
        await db.write(twice)
    assert len(runs) == DUPLICATE_ATTEMPTS
    assert db.retries - before == DUPLICATE_ATTEMPTS - 1
    assert await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM idempotency").fetchone()[0]) == 0


async def test_two_schedulers_fire_each_due_job_once(
    processes: tuple[PostgresDatabase, PostgresDatabase],
) -> None:
    clock = ManualClock(START)
    fired: list[int] = []

    def handler(conn: Connection, job: Job, now: datetime) -> None:
        conn.execute(
            "INSERT INTO idempotency (key, result, created_at) VALUES (?, '1', ?)",
            (f"job:{job.id}", to_db(now)),
        )
        fired.append(job.id)

    schedulers = [Scheduler(cast(Database, db), clock, ZoneInfo("Europe/Paris")) for db in processes]
    for one in schedulers:
        one.on("tick", handler)
    for i in range(30):
        await schedulers[0].add("tick", START + timedelta(seconds=i))
    clock.advance(timedelta(minutes=1))
    counts = await asyncio.gather(*(one.run_due() for one in schedulers))
    assert sum(counts) == 30
    rows = await processes[0].read(lambda c: c.execute("SELECT COUNT(*) FROM idempotency").fetchone()[0])
    assert rows == 30  # each effect committed once, whichever process claimed the job
    states = await processes[0].read(lambda c: c.execute("SELECT DISTINCT state FROM jobs").fetchall())
    assert states == [("done",)]


async def test_a_job_another_process_arms_wakes_this_dispatcher_only_if_sooner(
    processes: tuple[PostgresDatabase, PostgresDatabase],
) -> None:
    """The second process's dispatcher sleeps until its known next due time; the first one's commits tell
    it each job's due time by NOTIFY: a later job costs it no read, a sooner one is fired on time."""
    clock = ManualClock(START)
    sleeps = Sleeps(clock)
    first, second = processes
    fired = asyncio.Event()
    dispatcher = Scheduler(cast(Database, second), clock, ZoneInfo("Europe/Paris"))
    dispatcher.on("tick", lambda conn, job, now: None)
    dispatcher.after_fire.append(fired.set)
    arming = Scheduler(cast(Database, first), clock, ZoneInfo("Europe/Paris"))  # never started: arms only
    await arming.add("tick", START + timedelta(hours=1))
    await dispatcher.start()
    try:
        await sleeps.until(START + timedelta(hours=1))
        reads = second.reads
        await arming.add("tick", START + timedelta(hours=2))
        await asyncio.sleep(0.5)  # the NOTIFY came and went
        assert second.reads == reads
        await arming.add("tick", START + timedelta(minutes=1))
        await sleeps.until(START + timedelta(minutes=1))
        clock.advance(timedelta(minutes=1))
        await asyncio.wait_for(fired.wait(), 5)
    finally:
        await dispatcher.stop()


async def test_a_job_another_process_moves_sooner_wakes_this_dispatcher_and_fires_once(
    processes: tuple[PostgresDatabase, PostgresDatabase],
) -> None:
    """`scheduler.move` is announced like `schedule`: the job moved by the first process to a minute from
    now fires then, once, in the second, which slept until its former time (a game's re-armed deadline)."""
    clock = ManualClock(START)
    sleeps = Sleeps(clock)
    first, second = processes
    fired: list[int] = []
    woke = asyncio.Event()
    dispatcher = Scheduler(cast(Database, second), clock, ZoneInfo("Europe/Paris"))
    dispatcher.on("tick", lambda conn, job, now: fired.append(job.id))
    dispatcher.after_fire.append(woke.set)
    arming = Scheduler(cast(Database, first), clock, ZoneInfo("Europe/Paris"))  # never started: arms only
    job = await arming.add("tick", START + timedelta(hours=1), {"game": 1})
    assert job is not None
    await dispatcher.start()
    try:
        await sleeps.until(START + timedelta(hours=1))
        soon = START + timedelta(minutes=1)
        assert await first.write(lambda conn: scheduler.move(conn, START, job, "tick", soon, {"game": 1}))
        await sleeps.until(soon)
        clock.advance(timedelta(minutes=1))
        await asyncio.wait_for(woke.wait(), 5)
        clock.advance(timedelta(hours=1))
        assert await dispatcher.run_due() == 0
        assert fired == [job]
    finally:
        await dispatcher.stop()


async def test_two_deliverers_never_take_the_same_item(
    processes: tuple[PostgresDatabase, PostgresDatabase],
    registry: GameRegistry,
) -> None:
    """Each process's deliverer claims what it is about to send: the other passes over it until it is
    marked, retried (the claim goes with the retry) or the claim runs out (its process died)."""
    clock = ManualClock(START)
    first, second = (Outbox(cast(Database, db), clock, registry) for db in processes)

    def post(conn: Connection, channel: int) -> int:
        return outbox.enqueue(
            conn,
            clock.now(),
            Target("channel", channel, guild_id=None),
            MessageSpec(content=Text("shop.bought")),
        )

    for channel in range(1, 21):  # one item per channel: twenty heads due at once
        await processes[0].write(partial(post, channel=channel))
    batches = await asyncio.gather(*(one.due(limit=15) for one in (first, second, first, second)))
    taken = [item.id for batch in batches for item in batch]
    assert len(taken) == len(set(taken)) == 20  # every item handed out once
    assert await first.due() == [] == await second.due()

    kept, retried = taken[0], taken[1]
    assert await first.mark_sent(kept, 999)
    await second.mark_retry(retried, "503")
    clock.advance(timedelta(minutes=1))  # past the retry's 5 s, within the other claims
    assert [item.id for item in await first.due()] == [retried]
    clock.advance(CLAIM)  # every claim ran out: what was never marked is due again, once
    again = [item.id for item in await second.due(limit=50)]
    assert len(again) == 20 - 1
    assert kept not in again
    assert await first.due() == []


@pytest.mark.parametrize("start", range(LATEST))
async def test_every_earlier_version_upgrades_and_keeps_its_rows(pg_cluster: Cluster, start: int) -> None:
    """The same rows as tests/services/store/test_migrations.py, written at each version on PostgreSQL."""
    url = pg_cluster.create(template=None)
    database = PostgresDatabase(url)
    await database.open()
    try:

        def step(conn: PgConnection) -> None:
            plain = cast(Connection, conn)
            for version in range(1, start + 1):
                assert apply(conn, MIGRATIONS, target=version) == [version]
                if version in SEEDS:
                    conn.execute("BEGIN")
                    SEEDS[version][0](plain)
                    conn.execute("COMMIT")
            assert apply(conn, MIGRATIONS) == list(range(start + 1, LATEST + 1))
            for version in range(1, start + 1):
                if version in SEEDS:
                    SEEDS[version][1](plain)
            assert apply(conn, MIGRATIONS) == []

        await asyncio.to_thread(database.run_sync, step)
    finally:
        await database.close()
        pg_cluster.drop(url)
