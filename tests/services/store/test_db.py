"""The writer's promises: durable settings on every connection, and group commit that never lets one failed
unit sink or leak into its neighbours."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from store.connection import Connection
from store.db import Database, announce
from store.sqlite_engine import in_thread as on_writer
from tests.support.waits import gated, in_thread, started


def _settings(conn: Connection) -> dict[str, Any]:
    assert isinstance(conn, sqlite3.Connection)  # a unit may be typed for either engine: this one is SQLite's
    return {
        "journal_mode": conn.execute("PRAGMA journal_mode").fetchone()[0],
        "synchronous": conn.execute("PRAGMA synchronous").fetchone()[0],
        "foreign_keys": conn.execute("PRAGMA foreign_keys").fetchone()[0],
        "busy_timeout": conn.execute("PRAGMA busy_timeout").fetchone()[0],
        "isolation_level": conn.isolation_level,
    }


async def _scratch(db: Database) -> None:
    await db.write(lambda conn: conn.execute("CREATE TABLE scratch (v TEXT PRIMARY KEY)"))


def _insert(value: str, fail: bool = False):
    def unit(conn: Connection) -> str:
        conn.execute("INSERT INTO scratch (v) VALUES (?)", (value,))
        if fail:
            raise LookupError(value)
        return value.upper()

    return unit


async def _values(db: Database) -> set[str]:
    return await db.read(lambda conn: {row[0] for row in conn.execute("SELECT v FROM scratch")})


async def _read_large(db: Database, unit: Callable[[Connection], Any]) -> Any:
    return await db.read(unit, large=True)


@pytest.mark.sqlite_only("PRAGMAs of SQLite's three connections")
@pytest.mark.parametrize("side", ["writer", "reader", "large reader"])
async def test_every_connection_is_durable_and_autocommit(db: Database, side: str) -> None:
    runs: dict[str, Callable[[Callable[[Connection], Any]], Awaitable[Any]]] = {
        "writer": db.write,
        "reader": db.read,
        "large reader": partial(_read_large, db),
    }
    settings = await runs[side](_settings)
    assert settings["journal_mode"] == "wal"
    assert settings["synchronous"] == 2  # FULL: a commit survives a machine crash
    assert settings["foreign_keys"] == 1
    assert settings["busy_timeout"] > 0
    assert settings["isolation_level"] is None  # we issue BEGIN IMMEDIATE ourselves


async def test_a_failed_unit_rolls_back_alone_and_neighbours_commit(db: Database) -> None:
    await _scratch(db)
    before = db.batches
    results = await asyncio.gather(
        db.write(_insert("a")),
        db.write(_insert("b", fail=True)),
        db.write(_insert("c")),
        return_exceptions=True,
    )
    assert db.batches - before == 1, "the three units should have shared one transaction"
    assert results[0] == "A"
    assert isinstance(results[1], LookupError)
    assert results[1].args == ("b",)
    assert results[2] == "C"
    assert await _values(db) == {"a", "c"}


@pytest.mark.sqlite_only("SQLite's trace callback on the writer's connection")
async def test_a_unit_alone_in_its_transaction_takes_no_savepoint(db: Database) -> None:
    """Every command's write is usually alone in its batch: its transaction is the unit's statements
    between BEGIN and COMMIT (or ROLLBACK, taking its announcements back), no SAVEPOINT and RELEASE."""
    await _scratch(db)
    statements: list[str] = []
    writer = await db.raw_writer()
    await on_writer(writer, lambda conn: conn.set_trace_callback(statements.append))
    heard: list[str] = []
    db.subscribe("scratch", lambda: heard.append("scratch"))

    def failing(conn: Connection) -> None:
        announce(conn, "scratch")
        _insert("b", fail=True)(conn)

    assert await db.write(_insert("a")) == "A"
    with pytest.raises(LookupError):
        await db.write(failing)
    await on_writer(writer, lambda conn: conn.set_trace_callback(None))
    assert statements == [
        "BEGIN IMMEDIATE",
        "INSERT INTO scratch (v) VALUES ('a')",
        "COMMIT",
        "BEGIN IMMEDIATE",
        "INSERT INTO scratch (v) VALUES ('b')",
        "ROLLBACK",
    ]
    assert heard == []
    assert await _values(db) == {"a"}


def _temporary_files() -> list[str]:
    """The files SQLite created and deleted at once in the temp folder that this process still holds open."""
    links = (os.readlink(fd) for fd in Path("/proc/self/fd").iterdir() if fd.is_symlink())
    return [link for link in links if "etilqs_" in link]


@pytest.mark.sqlite_only("SQLite's sub-journal, a file of the writer's own process")
@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="the open files are read from Linux's /proc")
async def test_a_batched_units_savepoint_keeps_its_journal_in_memory(db: Database) -> None:
    """A unit batched with others runs in a SAVEPOINT, whose sub-journal keeps the former content of every
    page the unit changes; SQLite's default spills it past 64 KiB to a file created, written and deleted in
    the temp folder (a Chocobataille turn batched with the deliverer's record did, once a turn)."""
    await db.write(lambda conn: conn.execute("CREATE TABLE pages (id INTEGER PRIMARY KEY, v TEXT)"))
    await db.write(
        lambda conn: conn.executemany(
            "INSERT INTO pages VALUES (?, ?)", [(i, "x" * 1000) for i in range(200)]
        )
    )
    spilled: list[str] = []

    def rewrite(conn: Connection) -> None:
        conn.execute("UPDATE pages SET v = ?", ("y" * 1000,))  # about 50 pages, 200 KiB of former content
        spilled.extend(_temporary_files())

    await _scratch(db)
    before = db.batches
    await asyncio.gather(db.write(_insert("a")), db.write(rewrite))
    assert db.batches - before == 1, "the two units should have shared one transaction"
    assert spilled == []
    assert (
        await db.read(lambda conn: conn.execute("SELECT count(*) FROM pages WHERE v LIKE 'y%'").fetchone()[0])
        == 200
    )


async def test_a_unit_that_breaks_a_constraint_does_not_poison_the_batch(db: Database) -> None:
    await _scratch(db)
    await db.write(_insert("dup"))
    results = await asyncio.gather(
        db.write(_insert("x")), db.write(_insert("dup")), db.write(_insert("y")), return_exceptions=True
    )
    assert results[0] == "X"
    assert results[2] == "Y"
    assert isinstance(results[1], sqlite3.IntegrityError)
    assert await _values(db) == {"dup", "x", "y"}


async def test_a_unit_sees_the_effects_of_earlier_units_in_its_batch(db: Database) -> None:
    await _scratch(db)

    def count(conn: Connection) -> int:
        return conn.execute("SELECT COUNT(*) FROM scratch").fetchone()[0]

    before = db.batches
    results = await asyncio.gather(
        db.write(_insert("1")), db.write(count), db.write(_insert("2")), db.write(count)
    )
    assert db.batches - before == 1
    assert list(results) == ["1", 1, "2", 2]


async def test_many_concurrent_writes_share_few_transactions(db: Database) -> None:
    await _scratch(db)
    before = db.batches
    values = [f"v{i}" for i in range(300)]
    results = await asyncio.gather(*(db.write(_insert(v)) for v in values))
    assert results == [v.upper() for v in values]  # each future got its own unit's result
    batches = db.batches - before
    assert 1 <= batches < len(values) / 10, batches
    assert batches >= len(values) / db.max_batch  # a batch never exceeds max_batch units
    assert await _values(db) == set(values)


async def test_max_batch_one_gives_one_transaction_per_unit(tmp_path: Path) -> None:
    database = Database(tmp_path / "one.sqlite3", max_batch=1)
    await database.open()
    try:
        await _scratch(database)
        before = database.batches
        await asyncio.gather(*(database.write(_insert(f"v{i}")) for i in range(20)))
        assert database.batches - before == 20
    finally:
        await database.close()


def test_max_batch_must_be_positive(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="max_batch must be at least 1"):
        Database(tmp_path / "x.sqlite3", max_batch=0)


async def test_a_unit_raising_stop_iteration_does_not_kill_the_writer(db: Database) -> None:
    """A stray `next()` on an empty iterator is an easy mistake; asyncio futures refuse StopIteration."""
    await _scratch(db)

    def bad(conn: Connection) -> None:
        conn.execute("INSERT INTO scratch (v) VALUES ('lost')")
        next(iter(()))

    results = await asyncio.gather(db.write(bad), db.write(_insert("kept")), return_exceptions=True)
    assert isinstance(results[0], RuntimeError)
    assert isinstance(results[0].__cause__, StopIteration)
    assert results[1] == "KEPT"
    assert await asyncio.wait_for(db.write(_insert("later")), timeout=5) == "LATER"
    assert await _values(db) == {"kept", "later"}


async def test_a_cancelled_caller_whose_unit_has_not_started_is_skipped(db: Database) -> None:
    await _scratch(db)
    entered, release, hold = gated()
    slow = asyncio.ensure_future(db.write(hold))
    await in_thread(entered)  # the writer is now busy with the slow unit
    doomed = asyncio.ensure_future(db.write(_insert("never")))
    await started(doomed)  # its unit is queued behind the slow one
    doomed.cancel()
    release.set()
    await slow
    assert await db.write(_insert("after")) == "AFTER"
    assert doomed.cancelled()
    assert await _values(db) == {"after"}


@pytest.mark.sqlite_only("SQLite reads on the loop's thread; PostgreSQL's wait on the network, in a pool")
async def test_a_read_runs_on_the_loop_and_a_large_one_on_the_readers_thread(db: Database) -> None:
    """A command's read costs less than handing it to a thread and back; a large one leaves the loop free."""
    here = threading.get_ident()
    assert await db.read(lambda conn: threading.get_ident()) == here
    assert await db.read(lambda conn: threading.get_ident(), large=True) != here


@pytest.mark.sqlite_only("SQLite's read connections refuse writes themselves (query_only)")
@pytest.mark.parametrize("large", [False, True])
async def test_a_read_cannot_write_nor_wait_behind_a_writer(db: Database, large: bool) -> None:
    await _scratch(db)
    await db.write(_insert("a"))
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        await db.read(lambda conn: conn.execute("INSERT INTO scratch (v) VALUES ('b')"), large=large)
    started = threading.Event()

    def slow(conn: Connection) -> None:
        conn.execute("INSERT INTO scratch (v) VALUES ('c')")
        started.set()
        time.sleep(0.5)

    writing = asyncio.ensure_future(db.write(slow))
    await asyncio.to_thread(started.wait, 5)
    before = time.monotonic()
    assert await db.read(lambda conn: {r[0] for r in conn.execute("SELECT v FROM scratch")}, large=large) == {
        "a"
    }  # the snapshot before the uncommitted write, without waiting for it
    assert time.monotonic() - before < 0.25
    await writing
    assert await _values(db) == {"a", "c"}


async def test_read_sees_committed_writes_and_propagates_errors(db: Database) -> None:
    await _scratch(db)
    await db.write(_insert("a"))
    assert await _values(db) == {"a"}

    def broken(conn: Connection) -> None:
        raise KeyError("boom")

    with pytest.raises(KeyError):
        await db.read(broken)
    assert await _values(db) == {"a"}  # the reader is still usable


async def test_reads_cannot_write(db: Database) -> None:
    """The reader is for reads: anything it wrote would bypass the single writer."""
    await _scratch(db)
    with pytest.raises(sqlite3.OperationalError):
        await db.read(lambda conn: conn.execute("INSERT INTO scratch (v) VALUES ('x')"))


async def test_close_finishes_queued_writes_then_refuses_new_ones(tmp_path: Path) -> None:
    database = Database(tmp_path / "close.sqlite3")
    await database.open()
    await _scratch(database)
    pending = [asyncio.ensure_future(database.write(_insert(f"v{i}"))) for i in range(100)]
    await started(*pending)  # every task has queued its unit
    await asyncio.wait_for(database.close(), timeout=10)
    assert [t.result() for t in pending] == [f"V{i}" for i in range(100)]
    with pytest.raises(RuntimeError):
        await database.write(_insert("late"))

    reopened = Database(tmp_path / "close.sqlite3")
    await reopened.open()
    try:
        assert len(await _values(reopened)) == 100
    finally:
        await reopened.close()


async def test_callers_do_not_hang_when_the_writer_is_cancelled(tmp_path: Path) -> None:
    """asyncio.run cancels every task on shutdown, the writer included; close() must still clean up."""
    database = Database(tmp_path / "cancel.sqlite3")
    await database.open()
    entered, release, hold = gated()
    in_flight = asyncio.ensure_future(database.write(hold))
    await in_thread(entered)  # the writer is running the unit
    writer = database._task  # playing the part of asyncio.run's shutdown
    assert writer is not None
    writer.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(in_flight, timeout=5)
    release.set()
    with pytest.raises(RuntimeError):
        await database.write(lambda conn: None)
    await asyncio.wait_for(database.close(), timeout=5)


async def test_use_before_open_is_an_error(tmp_path: Path) -> None:
    database = Database(tmp_path / "never.sqlite3")
    with pytest.raises(RuntimeError):
        await database.write(lambda conn: None)
    with pytest.raises(RuntimeError):
        await database.read(lambda conn: None)
    await database.close()  # closing an unopened database is harmless


@pytest.mark.sqlite_only("reads the file with a second sqlite3 connection")
async def test_listeners_run_once_the_batch_committed(db: Database) -> None:
    """The scheduler and the outbox deliverer listen to their topic: when a listener runs, another
    connection already sees what the batch wrote (so a woken reader never misses it), and it runs per
    batch."""
    counts: list[int] = []

    def look() -> None:
        with sqlite3.connect(db.path) as other:
            exists = other.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 't'").fetchone()[0]
            counts.append(other.execute("SELECT COUNT(*) FROM t").fetchone()[0] if exists else -1)

    db.subscribe("work", look)

    def create(conn: Connection) -> None:
        conn.execute("CREATE TABLE t (x INTEGER)")
        announce(conn, "work")

    await db.write(create)
    assert counts == [0]

    def insert(i: int) -> Callable[[Connection], None]:
        def unit(conn: Connection) -> None:
            conn.execute("INSERT INTO t VALUES (?)", (i,))
            announce(conn, "work")

        return unit

    units = [db.write(insert(i)) for i in range(20)]
    await asyncio.gather(*units)
    assert counts[-1] == 20
    assert counts == sorted(counts)
    assert 2 <= len(counts) < 21  # once per committed batch, not per unit


async def test_key_listeners_hear_each_key_a_commit_announced(db: Database) -> None:
    """A cache forgets what a commit changed (`announce` with a key), everything when a unit announced
    the topic without one; a unit that raised announced nothing; a topic's plain listeners wake once."""
    keys: list[str | None] = []
    woken: list[None] = []
    db.subscribe_keys("cache", keys.append)
    db.subscribe("cache", lambda: woken.append(None))

    def changes(*which: str | None) -> Callable[[Connection], None]:
        def unit(conn: Connection) -> None:
            for key in which:
                announce(conn, "cache", key)

        return unit

    def refused(conn: Connection) -> None:
        announce(conn, "cache", "9")
        raise ValueError("rolled back")

    await db.write(changes("2", "1", "2"))
    assert keys == ["1", "2"]
    assert woken == [None]
    with pytest.raises(ValueError, match="rolled back"):
        await db.write(refused)
    assert keys == ["1", "2"]
    await db.write(changes("3", None))
    assert keys == ["1", "2", None]  # unknown changes: forget everything, once
    with pytest.raises(ValueError, match="bad topic or key"):
        await db.write(changes("a b"))


async def test_a_rider_commits_first_in_the_next_batch_not_in_one_of_its_own(db: Database) -> None:
    await _scratch(db)
    batches = db.batches
    rider = db.write_soon(_insert("early"), within=60)
    await asyncio.sleep(0.01)
    assert not rider.done()
    assert db.batches == batches

    def sees_the_rider(conn: Connection) -> int:
        return int(conn.execute("SELECT COUNT(*) FROM scratch WHERE v = 'early'").fetchone()[0])

    assert await db.write(sees_the_rider) == 1
    assert rider.done()
    assert rider.result() == "EARLY"
    assert db.batches == batches + 1


async def test_a_rider_commits_alone_when_its_wait_ends_or_when_hurried(db: Database) -> None:
    await _scratch(db)
    batches = db.batches
    assert await asyncio.wait_for(db.write_soon(_insert("late"), within=0.02), timeout=5) == "LATE"
    hurried = db.write_soon(_insert("hurried"), within=60)
    db.hurry()
    assert await asyncio.wait_for(hurried, timeout=5) == "HURRIED"
    assert db.batches == batches + 2
    assert await _values(db) == {"late", "hurried"}


async def test_close_commits_the_riders_still_waiting(tmp_path: Path) -> None:
    database = Database(tmp_path / "riders.sqlite3")
    await database.open()
    await _scratch(database)
    rider = database.write_soon(_insert("last"), within=60)
    await asyncio.wait_for(database.close(), timeout=10)
    assert rider.result() == "LAST"
    reopened = Database(tmp_path / "riders.sqlite3")
    await reopened.open()
    try:
        assert await _values(reopened) == {"last"}
    finally:
        await reopened.close()
