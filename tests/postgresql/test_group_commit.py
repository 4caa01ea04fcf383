"""PostgreSQL's writer batches the units waiting in a process into one transaction, as SQLite's does: the hot
wallet (many clicks on one row) costs one commit per batch and no refused transaction."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from functools import partial

import pytest

from core.clock import ManualClock, to_db
from core.errors import InsufficientFunds
from services.infra import ledger
from store.connection import Connection
from store.db import Isolation, announce, send
from store.idempotency import once
from store.postgres import PostgresDatabase
from tests.services.conftest import check_conservation

SPEND = ledger.Movement("test.spend")
GRANT = ledger.Movement("test.grant")
START = datetime(2026, 3, 27, 12, 0, tzinfo=UTC)
TASKS = 50
CLICKS = 8  # per task
FUNDS = 300  # fewer than the 400 clicks: a quarter must be refused


async def test_fifty_tasks_on_one_wallet_never_overdraw_and_are_never_retried(
    processes: tuple[PostgresDatabase, PostgresDatabase],
) -> None:
    """50 tasks each click 8 idempotent 1-gold debits of one wallet holding 300: exactly 300 win, the
    balance ends at 0 and never went below, the ledger explains it row by row, each key ran once, and
    PostgreSQL refused no transaction (the units of a process share its writer's batches)."""
    db = processes[0]
    clock = ManualClock(START)

    def setup(conn: Connection) -> None:
        conn.execute("INSERT INTO players (id, created_at) VALUES (1, ?)", (to_db(clock.now()),))
        ledger.credit(conn, clock.now(), 1, "gold", FUNDS, GRANT)

    await db.write(setup)

    async def clicks(task: int) -> list[object]:
        outcomes: list[object] = []
        for click in range(CLICKS):

            def unit(conn: Connection, key: str = f"hot:{task}:{click}") -> object:
                now = clock.now()
                return once(conn, key, now, lambda: ledger.debit(conn, now, 1, "gold", 1, SPEND))

            try:
                outcomes.append(await db.write(unit))
            except InsufficientFunds as refused:
                outcomes.append(refused)
        return outcomes

    retries, batches = db.retries, db.batches
    results = [r for task in await asyncio.gather(*(clicks(t) for t in range(TASKS))) for r in task]
    won = [r for r in results if isinstance(r, tuple)]
    assert len(won) == FUNDS
    assert sorted(balance for balance, _ in won) == list(range(FUNDS))  # each balance seen once
    assert sum(isinstance(r, InsufficientFunds) for r in results) == TASKS * CLICKS - FUNDS
    assert db.retries == retries  # no transaction refused
    assert db.batches - batches < TASKS * CLICKS / 4  # batched, not one transaction per click
    await db.read(check_conservation)
    keys = await db.read(lambda c: c.execute("SELECT COUNT(*) FROM idempotency").fetchone()[0])
    assert keys == FUNDS  # a refused debit kept no key: a new click may try again


async def test_a_failing_unit_takes_back_its_own_effects_and_announcements_only(
    processes: tuple[PostgresDatabase, PostgresDatabase],
) -> None:
    db = processes[0]
    woken: list[str | None] = []
    db.subscribe_keys("test", woken.append)
    await db.write(lambda conn: conn.execute("CREATE TABLE marks (n BIGINT PRIMARY KEY)"))

    def mark(n: int, conn: Connection) -> int:
        conn.execute("INSERT INTO marks VALUES (?)", (n,))
        announce(conn, "test", str(n))
        if n == 3:
            raise ValueError("three")
        return n

    batches = db.batches
    results = await asyncio.gather(*(db.write(partial(mark, n)) for n in range(6)), return_exceptions=True)
    assert [r if isinstance(r, int) else str(r) for r in results] == [0, 1, 2, "three", 4, 5]
    assert db.batches - batches <= 2  # the first unit alone, then the five waiting behind it
    rows = await db.read(lambda c: [r[0] for r in c.execute("SELECT n FROM marks ORDER BY n")])
    assert rows == [0, 1, 2, 4, 5]
    assert sorted(k for k in woken if k is not None) == ["0", "1", "2", "4", "5"]


async def test_units_of_different_isolation_commit_apart(
    processes: tuple[PostgresDatabase, PostgresDatabase],
) -> None:
    """A READ COMMITTED unit does not share a SERIALIZABLE transaction (it would be refused with it when
    another process raced it), and each sees the level it declared."""
    db = processes[0]

    def level(conn: Connection) -> str:
        return str(conn.execute("SHOW transaction_isolation").fetchone()[0])

    results = await asyncio.gather(
        db.write(level),
        db.write(level, isolation=Isolation.READ_COMMITTED),
        db.write(level, isolation=Isolation.REPEATABLE_READ),
        db.write(level),
    )
    assert list(results) == ["serializable", "read committed", "repeatable read", "serializable"]


@pytest.mark.parametrize("concurrent", [False, True])
async def test_a_duplicate_key_another_process_took_is_found_on_the_next_run(
    processes: tuple[PostgresDatabase, PostgresDatabase], concurrent: bool
) -> None:
    """The same request key from two processes at once: one runs the work, the other replays its result,
    whether or not the second process's batch held other units."""
    first, second = processes
    runs: list[int] = []
    now = START

    def unit(conn: Connection) -> object:
        def work() -> int:
            runs.append(1)
            return 7

        return once(conn, "double-click", now, work)

    extra = [second.write(lambda conn: conn.execute("SELECT 1").fetchone())] if concurrent else []
    results = await asyncio.gather(first.write(unit), second.write(unit), *extra)
    assert sorted(fresh for _, fresh in results[:2]) == [False, True]
    assert [value for value, _ in results[:2]] == [7, 7]
    count = await first.read(lambda c: c.execute("SELECT COUNT(*) FROM idempotency").fetchone()[0])
    assert count == 1


async def test_a_statement_sent_ahead_that_fails_fails_its_own_unit_only(
    processes: tuple[PostgresDatabase, PostgresDatabase],
) -> None:
    """A statement whose answer a unit does not read (`store.db.send`) leaves with the next statement read,
    maybe the next unit's: its error must still fail its own unit and take back that unit alone, never
    the unit that happened to read next (which here would take it for its own duplicate and answer
    "taken"), nor the batch's commit."""
    db = processes[0]
    await db.write(lambda conn: conn.execute("CREATE TABLE marks (n BIGINT PRIMARY KEY)"))
    await db.write(lambda conn: conn.execute("INSERT INTO marks VALUES (3)"))

    def mark(n: int, conn: Connection) -> str:
        try:
            conn.execute("INSERT INTO marks VALUES (?)", (n + 200,))
        except sqlite3.IntegrityError:
            return "taken"
        send(conn, "INSERT INTO marks VALUES (?)", (n + 100,))
        send(conn, "INSERT INTO marks VALUES (?)", (n,))  # 3 is taken
        return "marked"

    batches = db.batches
    results = await asyncio.gather(*(db.write(partial(mark, n)) for n in range(5)), return_exceptions=True)
    outcomes = [type(r).__name__ if isinstance(r, BaseException) else r for r in results]
    assert outcomes == ["marked", "marked", "marked", "DuplicateKey", "marked"]
    assert db.batches - batches <= 2  # the first unit alone, then the four waiting behind it
    rows = await db.read(lambda c: [r[0] for r in c.execute("SELECT n FROM marks ORDER BY n")])
    assert rows == [0, 1, 2, 3, 4, 100, 101, 102, 104, 200, 201, 202, 204]
