"""Durable jobs on a real SQLite file: fired once, across restarts, on failure, per period, on time."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock, from_db, to_db
from services.infra import ledger, scheduler
from services.infra.scheduler import MAX_ATTEMPTS, Daily, Job, Scheduler
from store.connection import Connection
from store.db import Database
from store.migrate import migrate
from tests.support.waits import Sleeps

PARIS = ZoneInfo("Europe/Paris")
PLAYER = 42
START = datetime(2026, 3, 27, 12, 0, tzinfo=UTC)


async def open_db(path: Path) -> Database:
    database = Database(path)
    await database.open()
    await migrate(await database.raw_writer())
    return database


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite3"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
async def db(path: Path) -> AsyncIterator[Database]:
    database = await open_db(path)
    await database.write(
        lambda conn: conn.execute(
            "INSERT INTO players (id, created_at) VALUES (?, ?)", (PLAYER, to_db(START))
        )
    )
    yield database
    await database.close()


@pytest.fixture
async def sched(db: Database, clock: ManualClock) -> AsyncIterator[Scheduler]:
    instance = Scheduler(db, clock, PARIS)
    yield instance
    await instance.stop()


def pay(reason: str, amount: int = 10) -> scheduler.JobHandler:
    """A handler with a real effect: it credits gold, referenced by the period (or the job id)."""

    def handler(conn: Connection, job: Job, now: datetime) -> None:
        why = ledger.Movement(reason, job.period_key or str(job.id))
        ledger.credit(conn, now, PLAYER, "gold", amount, why)

    return handler


async def payments(db: Database, reason: str) -> list[str]:
    def unit(conn: Connection) -> list[str]:
        rows = conn.execute("SELECT ref FROM ledger WHERE reason = ? ORDER BY id", (reason,)).fetchall()
        return [row[0] for row in rows]

    return await db.read(unit)


async def job_row(db: Database, job_id: int) -> sqlite3.Row:
    return await db.read(lambda conn: conn.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone())


async def test_twenty_concurrent_runs_fire_a_job_once(
    db: Database, sched: Scheduler, clock: ManualClock
) -> None:
    sched.on("reward", pay("test.reward"))
    others = [
        Scheduler(db, clock, PARIS) for _ in range(10)
    ]  # other processes: no shared memory, only the claim
    for other in others:
        other.on("reward", pay("test.reward"))
    job_id = await sched.add("reward", clock.now() - timedelta(seconds=1), {"n": 1})
    assert job_id is not None
    counts = await asyncio.gather(*(s.run_due() for s in [sched] * 10 + others))
    assert sum(counts) == 1
    assert await payments(db, "test.reward") == [str(job_id)]
    row = await job_row(db, job_id)
    assert (row["state"], row["fired_at"]) == ("done", to_db(clock.now()))


async def test_a_job_is_stored_with_its_callers_unit_or_not_at_all(db: Database, sched: Scheduler) -> None:
    now = START

    def unit(conn: Connection) -> None:
        scheduler.schedule(conn, now, "reward", now, {})
        raise RuntimeError("the move was illegal")

    with pytest.raises(RuntimeError):
        await db.write(unit)
    assert await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM jobs").fetchone()[0]) == 0
    with pytest.raises(ValueError, match="must be timezone-aware"):
        await db.write(lambda conn: scheduler.schedule(conn, now, "x", datetime(2026, 1, 1), None))


async def test_cancelled_job_never_fires(db: Database, sched: Scheduler, clock: ManualClock) -> None:
    sched.on("reward", pay("test.reward"))
    job_id = await sched.add("reward", clock.now() + timedelta(minutes=5))
    assert job_id is not None
    assert await db.write(lambda conn: scheduler.cancel(conn, job_id)) is True
    assert await db.write(lambda conn: scheduler.cancel(conn, job_id)) is False
    clock.advance(timedelta(hours=1))
    assert await sched.run_due() == 0
    assert await payments(db, "test.reward") == []


async def test_restart_fires_a_missed_job_once(path: Path, db: Database, clock: ManualClock) -> None:
    first = Scheduler(db, clock, PARIS)
    first.on("reward", pay("test.reward"))
    await first.start()
    job_id = await first.add("reward", clock.now() + timedelta(hours=1))
    await first.stop()
    await db.close()

    clock.advance(timedelta(hours=2))
    for _restart in range(2):
        database = await open_db(path)
        again = Scheduler(database, clock, PARIS)
        again.on("reward", pay("test.reward"))
        await again.start()  # the start-up catch-up is awaited
        assert await payments(database, "test.reward") == [str(job_id)]
        await again.stop()
        await database.close()


def flaky_while(broken: list[bool]) -> Callable[[Connection, Job, datetime], None]:
    """A handler that pays, then fails while `broken[0]` holds (its payment rolled back with it)."""

    def flaky(conn: Connection, job: Job, now: datetime) -> None:
        pay("test.flaky")(conn, job, now)
        if broken[0]:
            raise RuntimeError("not yet")

    return flaky


async def test_failing_handler_rolls_back_retries_then_fails(
    db: Database, sched: Scheduler, clock: ManualClock
) -> None:
    calls: list[datetime] = []

    def broken(conn: Connection, job: Job, now: datetime) -> None:
        pay("test.broken")(conn, job, now)
        calls.append(now)
        raise RuntimeError("boom")

    sched.on("broken", broken)
    job_id = await sched.add("broken", clock.now())
    assert job_id is not None
    delays: list[timedelta] = []
    for attempt in range(1, MAX_ATTEMPTS + 1):
        assert await sched.run_due() == 0
        row = await job_row(db, job_id)
        assert row["attempts"] == attempt
        assert row["last_error"] == "RuntimeError: boom"
        assert await payments(db, "test.broken") == []  # the credit was rolled back with the claim
        if attempt < MAX_ATTEMPTS:
            assert row["state"] == "due"
            delays.append(from_db(row["due_at"]) - clock.now())
            clock.set(from_db(row["due_at"]))
    assert delays == [timedelta(minutes=m) for m in (1, 2, 4, 8)]
    assert row["state"] == "failed"
    assert len(calls) == MAX_ATTEMPTS
    clock.advance(timedelta(days=1))
    assert await sched.run_due() == 0
    assert len(calls) == MAX_ATTEMPTS


async def test_a_retried_job_succeeds_and_concurrent_failures_count_once(
    db: Database, sched: Scheduler, clock: ManualClock
) -> None:
    broken = [True]
    sched.on("flaky", flaky_while(broken))
    job_id = await sched.add("flaky", clock.now())
    assert job_id is not None
    await asyncio.gather(*(sched.run_due() for _ in range(20)))
    assert (await job_row(db, job_id))["attempts"] == 1
    broken[0] = False
    clock.advance(timedelta(minutes=1))
    assert await sched.run_due() == 1
    assert await payments(db, "test.flaky") == [str(job_id)]


async def test_a_clock_set_back_does_not_hold_a_retry(
    db: Database, sched: Scheduler, clock: ManualClock
) -> None:
    """A retry written before the clock went back two days is due at once, not two days later; a deadline
    (an absolute time) still waits for its time."""
    broken = [True]
    sched.on("flaky", flaky_while(broken))
    job_id = await sched.add("flaky", clock.now())
    later_id = await sched.add("flaky", clock.now() + timedelta(days=3))
    assert job_id is not None
    assert later_id is not None
    assert await sched.run_due() == 0  # first attempt fails: retry in a minute
    broken[0] = False
    clock.advance(timedelta(days=-2))
    assert await sched.next_due_at() == clock.now()
    assert await sched.run_due() == 1
    assert await payments(db, "test.flaky") == [str(job_id)]
    assert (await job_row(db, later_id))["state"] == "due"
    broken[0] = True
    clock.advance(timedelta(days=5))
    assert await sched.run_due() == 0  # the later job fails once: retry in a minute
    clock.advance(timedelta(seconds=-30))  # back, but less than the back-off
    assert await sched.run_due() == 0
    assert await sched.next_due_at() == clock.now() + timedelta(seconds=90)


async def test_unknown_kinds_wait_for_their_handler(
    db: Database, sched: Scheduler, clock: ManualClock
) -> None:
    await db.write(lambda conn: scheduler.schedule(conn, START, "from.the.future", START, None))
    sched.on("reward", pay("test.reward"))
    assert await sched.run_due() == 0
    assert await sched.next_due_at() is None  # no busy loop on a job this version cannot run


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        ((2026, 3, 27), [(3, 27, 19), (3, 28, 19), (3, 29, 18), (3, 30, 18)]),
        ((2026, 10, 23), [(10, 23, 18), (10, 24, 18), (10, 25, 19), (10, 26, 19)]),
    ],
    ids=["spring-forward", "fall-back"],
)
async def test_daily_20h_paris_across_dst_changes(
    db: Database,
    sched: Scheduler,
    clock: ManualClock,
    start: tuple[int, int, int],
    expected: list[tuple[int, int, int]],
) -> None:
    fired: list[tuple[str | None, datetime, datetime]] = []

    def record(conn: Connection, job: Job, now: datetime) -> None:
        fired.append((job.period_key, job.due_at, now))

    sched.recurring("evening", Daily(20, 0), record)
    first = datetime(*start, 12, tzinfo=UTC)
    for minutes in range(0, 4 * 24 * 60, 30):  # every half hour for four days
        clock.set(first + timedelta(minutes=minutes))
        await sched.run_due()
    instants = [datetime(2026, month, day, hour, tzinfo=UTC) for month, day, hour in expected]
    assert [due for _, due, _ in fired] == instants
    assert [key for key, _, _ in fired] == [i.astimezone(PARIS).date().isoformat() for i in instants]
    assert all(now == due for _, due, now in fired)  # fired on time, not half an hour late
    assert all(i.astimezone(PARIS).hour == 20 for i in instants)


async def test_bot_down_three_days_pays_each_missed_day_once(
    path: Path, db: Database, clock: ManualClock
) -> None:
    async def run_once() -> int:
        database = await open_db(path)
        instance = Scheduler(database, clock, PARIS)
        instance.recurring("daily", Daily(20, 0), pay("test.daily"))
        await instance.start()
        fired = await instance.run_due()
        await instance.stop()
        await database.close()
        return fired

    await db.close()
    assert await run_once() == 0  # 27 March, 13:00 Paris: today's 20:00 is ahead
    clock.set(datetime(2026, 3, 30, 12, tzinfo=UTC))  # down through the evenings of the 27th, 28th and 29th
    await run_once()
    await run_once()  # a second restart pays nothing more
    await db.open()
    assert await payments(db, "test.daily") == ["2026-03-27", "2026-03-28", "2026-03-29"]
    await db.close()

    clock.set(datetime(2026, 3, 30, 18, tzinfo=UTC))  # 20:00 summer time
    assert await run_once() == 0  # fired by the start-up catch-up, inside start()
    await db.open()
    assert await payments(db, "test.daily") == ["2026-03-27", "2026-03-28", "2026-03-29", "2026-03-30"]


async def test_a_failed_occurrence_does_not_end_the_series(
    db: Database, sched: Scheduler, clock: ManualClock
) -> None:
    def refuse(conn: Connection, job: Job, now: datetime) -> None:
        raise RuntimeError("bad day")

    sched.recurring("daily", Daily(20, 0), refuse)
    assert await sched.run_due() == 0  # 13:00 in Paris: the first occurrence is tonight's
    clock.set(datetime(2026, 3, 27, 19, tzinfo=UTC))
    for _ in range(MAX_ATTEMPTS):
        await sched.run_due()
        clock.advance(timedelta(hours=1))
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT period_key, state FROM jobs WHERE kind = 'daily' ORDER BY id"
        ).fetchall()
    )
    assert [tuple(row) for row in rows] == [("2026-03-27", "failed"), ("2026-03-28", "due")]


async def test_dispatcher_fires_when_the_clock_moves(
    db: Database, sched: Scheduler, clock: ManualClock
) -> None:
    sched.on("reward", pay("test.reward"))
    fired = asyncio.Event()
    sched.after_fire.append(fired.set)
    await sched.start()  # nothing scheduled: the dispatcher waits for a wake-up
    await asyncio.sleep(0)
    job_id = await sched.add("reward", clock.now() + timedelta(minutes=10))  # add() wakes it
    await asyncio.sleep(0.01)
    clock.advance(timedelta(minutes=5))
    await asyncio.sleep(0.01)
    assert not fired.is_set()
    clock.advance(timedelta(minutes=6))
    await asyncio.wait_for(fired.wait(), timeout=2)
    assert await payments(db, "test.reward") == [str(job_id)]

    # A job scheduled sooner than the one it sleeps for, made known by wake().
    fired.clear()
    await sched.add("reward", clock.now() + timedelta(hours=5))
    soon = await db.write(lambda conn: scheduler.schedule(conn, clock.now(), "reward", clock.now(), None))
    sched.wake()
    await asyncio.wait_for(fired.wait(), timeout=2)
    assert (await payments(db, "test.reward"))[-1] == str(soon)

    await sched.stop()
    clock.advance(timedelta(days=1))
    await asyncio.sleep(0.01)
    assert len(await payments(db, "test.reward")) == 2


async def test_a_job_armed_later_than_the_next_due_one_wakes_nobody_and_still_fires_on_time(
    db: Database, sched: Scheduler, clock: ManualClock
) -> None:
    """Issue 39: a game arms a 2-minute deadline on every move; the dispatcher already sleeps until a
    sooner one, so waking it only cost two reads that found nothing due."""
    sleeps = Sleeps(clock)
    sched.on("reward", pay("test.reward"))
    fired = asyncio.Event()
    sched.after_fire.append(fired.set)
    await sched.start()
    first = await sched.add("reward", clock.now() + timedelta(minutes=2))
    await sleeps.until(START + timedelta(minutes=2))
    reads = db.reads
    later = await sched.add("reward", clock.now() + timedelta(minutes=5))
    same = await sched.add("reward", clock.now() + timedelta(minutes=2))
    await asyncio.sleep(0.02)
    assert db.reads == reads  # no pass: neither the later job nor one due at the same time woke it
    clock.advance(timedelta(minutes=2))
    await asyncio.wait_for(fired.wait(), timeout=2)
    assert await payments(db, "test.reward") == [str(first), str(same)]
    fired.clear()
    clock.advance(timedelta(minutes=3))
    await asyncio.wait_for(fired.wait(), timeout=2)
    assert await payments(db, "test.reward") == [str(first), str(same), str(later)]


async def test_a_job_armed_sooner_than_the_next_due_one_wakes_the_dispatcher(
    db: Database, sched: Scheduler, clock: ManualClock
) -> None:
    sleeps = Sleeps(clock)
    sched.on("reward", pay("test.reward"))
    fired = asyncio.Event()
    sched.after_fire.append(fired.set)
    await sched.start()
    await sched.add("reward", clock.now() + timedelta(hours=1))
    await sleeps.until(START + timedelta(hours=1))
    soon = await db.write(
        lambda conn: scheduler.schedule(conn, clock.now(), "reward", clock.now() + timedelta(minutes=1), None)
    )
    await sleeps.until(START + timedelta(minutes=1))
    clock.advance(timedelta(minutes=1))
    await asyncio.wait_for(fired.wait(), timeout=2)
    assert await payments(db, "test.reward") == [str(soon)]


async def test_a_job_armed_later_without_a_wake_up_fires_after_a_restart(
    db: Database, clock: ManualClock
) -> None:
    """The due time the dispatcher sleeps until is a cache: the jobs table stays the truth."""
    sleeps = Sleeps(clock)
    first = Scheduler(db, clock, PARIS)
    first.on("reward", pay("test.reward"))
    await first.start()
    await first.add("reward", clock.now() + timedelta(minutes=2))
    await sleeps.until(START + timedelta(minutes=2))
    later = await first.add("reward", clock.now() + timedelta(minutes=5))
    await first.stop()
    clock.advance(timedelta(minutes=1))
    second = Scheduler(db, clock, PARIS)
    second.on("reward", pay("test.reward"))
    fired = asyncio.Event()
    second.after_fire.append(fired.set)
    await second.start()
    try:
        clock.advance(timedelta(minutes=1))
        await asyncio.wait_for(fired.wait(), timeout=2)
        fired.clear()
        clock.advance(timedelta(minutes=3))
        await asyncio.wait_for(fired.wait(), timeout=2)
        assert (await payments(db, "test.reward"))[-1] == str(later)
    finally:
        await second.stop()


async def test_jobs_of_unknown_due_time_wake_the_dispatcher(
    db: Database, sched: Scheduler, clock: ManualClock
) -> None:
    """Notifications lost (PostgreSQL's LISTEN connection broke): a job another process armed meanwhile,
    sooner than the known next one, is found by the pass this wakes."""
    sleeps = Sleeps(clock)
    sched.on("reward", pay("test.reward"))
    fired = asyncio.Event()
    sched.after_fire.append(fired.set)
    await sched.start()
    await sched.add("reward", clock.now() + timedelta(hours=1))
    await sleeps.until(START + timedelta(hours=1))
    raw = sqlite3.connect(db.path)  # another process's commit, which this one is not told of
    with raw:
        raw.execute(
            "INSERT INTO jobs (kind, due_at, payload, created_at) VALUES ('reward', ?, '{}', ?)",
            (to_db(clock.now() + timedelta(minutes=1)), to_db(clock.now())),
        )
    raw.close()
    db._notify(frozenset({scheduler.TOPIC}))  # what store/postgres.py does once it listens again
    await sleeps.until(START + timedelta(minutes=1))
    clock.advance(timedelta(minutes=1))
    await asyncio.wait_for(fired.wait(), timeout=2)


async def test_a_moved_job_fires_once_at_its_new_time_and_a_sooner_one_wakes_the_dispatcher(
    db: Database, sched: Scheduler, clock: ManualClock
) -> None:
    """`move` is what cancelling a job and scheduling it again at another time did, in one update."""
    sleeps = Sleeps(clock)
    sched.on("reward", pay("test.reward"))
    fired = asyncio.Event()
    sched.after_fire.append(fired.set)
    await sched.start()
    job_id = await sched.add("reward", clock.now() + timedelta(hours=1), {"game": 7})
    assert job_id is not None
    await sleeps.until(START + timedelta(hours=1))

    def move(to: timedelta, payload: dict[str, int], kind: str = "reward") -> Callable[[Connection], bool]:
        return lambda conn: scheduler.move(conn, clock.now(), job_id, kind, clock.now() + to, payload)

    assert await db.write(move(timedelta(minutes=1), {"game": 8})) is False  # another job's payload
    assert await db.write(move(timedelta(minutes=1), {"game": 7}, "other")) is False
    assert await db.write(move(timedelta(minutes=1), {"game": 7})) is True
    await sleeps.until(START + timedelta(minutes=1))  # woken by the sooner time
    clock.advance(timedelta(minutes=1))
    await asyncio.wait_for(fired.wait(), timeout=2)
    assert await payments(db, "test.reward") == [str(job_id)]
    assert await db.write(move(timedelta(hours=2), {"game": 7})) is False  # fired: the caller schedules anew
    clock.advance(timedelta(hours=3))
    assert await sched.run_due() == 0
    assert await payments(db, "test.reward") == [str(job_id)]


async def test_a_move_guarded_by_the_payload_text_read_moves_only_a_row_still_holding_that_text(
    db: Database, sched: Scheduler, clock: ManualClock
) -> None:
    """`Move.stored` (the text a caller read from the row) guards like the payload written out again: a row
    whose payload is no longer that text is not moved, and the payload itself is never rewritten."""
    job_id = await sched.add("reward", clock.now() + timedelta(hours=1), {"game": 7, "hours": 2})
    assert job_id is not None
    stored = (await job_row(db, job_id))["payload"]
    later = clock.now() + timedelta(hours=2)

    def move(text: str) -> Callable[[Connection], set[int]]:
        return lambda conn: scheduler.move_all(
            conn, clock.now(), [scheduler.Move(job_id, "reward", later, {"game": 7, "hours": 2}, stored=text)]
        )

    assert await db.write(move('{"game": 8, "hours": 2}')) == set()  # changed since it was read
    assert (await job_row(db, job_id))["due_at"] == to_db(clock.now() + timedelta(hours=1))
    assert await db.write(move(stored)) == {job_id}
    row = await job_row(db, job_id)
    assert (row["due_at"], row["payload"]) == (to_db(later), stored)


async def test_a_job_waiting_for_its_retry_or_cancelled_is_not_moved(
    db: Database, sched: Scheduler, clock: ManualClock
) -> None:
    """A retry's attempts would make a job moved far ahead due at once (a clock set back): it is replaced."""

    def broken(conn: Connection, job: Job, now: datetime) -> None:
        raise RuntimeError("boom")

    sched.on("broken", broken)
    failing = await sched.add("broken", clock.now())
    assert failing is not None
    assert await sched.run_due() == 0
    assert (await job_row(db, failing))["attempts"] == 1
    later = clock.now() + timedelta(days=1)
    assert (
        await db.write(lambda conn: scheduler.move(conn, clock.now(), failing, "broken", later, None))
        is False
    )
    withdrawn = await sched.add("broken", later)
    assert withdrawn is not None
    assert await db.write(lambda conn: scheduler.cancel(conn, withdrawn)) is True
    assert (
        await db.write(lambda conn: scheduler.move(conn, clock.now(), withdrawn, "broken", later, None))
        is False
    )
    assert (await job_row(db, withdrawn))["state"] == "cancelled"
