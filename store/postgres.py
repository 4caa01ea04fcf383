"""PostgreSQL behind the same `Database` API as SQLite (`DATABASE_URL=postgresql://...`).

A unit stays a synchronous function of a connection, run in one transaction; only the way units meet
differs. Within a process, the writer batches the units waiting into one transaction, as SQLite's does
(store/db.py), so a process's units never race each other and one flush to the disk serves up to 64 of
them. Several processes write at once, so a batch runs at the isolation its units declared
(`store.db.Isolation`), `SERIALIZABLE` unless they declared less: the database then guarantees the outcome
of running the units one after the other, which is what every unit was written against (a read that
decides a write stays correct). The price is that PostgreSQL may refuse a transaction that raced another
process's (SQLSTATE 40001, or a deadlock, 40P01): the batch is then run again from the start on a fresh
transaction. That is safe because a unit is a function of the connection alone (its inputs were captured
before it was handed over) and its effects were rolled back with the refused transaction. The conflict
reaches the retry loop as `SerializationConflict`, a `BaseException`, so that a unit's own `except
Exception` (the scheduler records a failing job's error) cannot mistake it for a failure of its own and
commit half of it.

Reads run in `REPEATABLE READ READ ONLY` transactions: one snapshot for the whole unit, and a read that
tried to write is refused, as SQLite's `query_only` connection refuses it.

The connection handed to a unit is store/pg_connection.py's `PgConnection`. A batch's first attempt runs
in psycopg's pipeline mode: a statement whose answer the unit does not read (`store.db.send`: a ledger
row, an idempotency key) leaves with the next statement whose answer is read, so a debit costs two round
trips to the server instead of four. Its error surfaces later, maybe in another unit: the attempt is then
given up whole and run again with a savepoint per unit and nothing sent ahead, where a failure is its own
unit's (`_try_batch`).

Several processes share the database: a unit's announced topics (`store.db.announce`) are sent with
NOTIFY inside its transaction, and each process LISTENs on a connection of its own that also holds its
live lock (`store.dialect.still_connected`); docs/deployment.md, "Several processes".

psycopg 3 rather than asyncpg: the units are synchronous code run in a worker thread (as SQLite's run in
aiosqlite's thread); psycopg has a synchronous API and a pool, asyncpg would need every unit rewritten
as coroutines or a bridge from sync code to its event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import psycopg
import psycopg.errors
from psycopg_pool import ConnectionPool, PoolTimeout

from store.connection import Unit, as_work
from store.db import Database, Isolation, Outcomes
from store.errors import DatabaseClosed, DatabaseUnusable, deliverable
from store.pg_connection import (
    LIVE_LOCK,
    DuplicateKey,
    PgConnection,
    SentFailed,
    SerializationConflict,
    configure_types,
    raise_translated,
    redact,
)

T = TypeVar("T")
log = logging.getLogger(__name__)

POOL_SIZE = 8
# Units per transaction. Each unit's savepoint that wrote takes a subtransaction id; past 64 in one
# transaction PostgreSQL's snapshots of every other session overflow to pg_subtrans, slowing all reads.
PG_MAX_BATCH = 64
CONNECT_TIMEOUT_S = 10.0
MAX_ATTEMPTS = 30  # a unit refused this many times in a row is a real problem, not a race
DUPLICATE_ATTEMPTS = 3  # runs of a unit that keeps meeting a taken UNIQUE key (see DuplicateKey)
RETRY_BASE_S = 0.002
RETRY_CAP_S = 0.2
CHANNEL = "bot_work"  # the NOTIFY channel: a commit's announced topics, for every process (see `_listen`)
RELISTEN_S = (0.5, 30.0)
RELEASE_WAIT_S, RELEASE_POLL_S = (
    2.0,
    0.01,
)  # closing: how long to wait for the live lock's release, and how often
RELEASE_POLLS = round(
    RELEASE_WAIT_S / RELEASE_POLL_S
)  # the pause before listening again after the listening connection broke: first, cap


class _UnitFailed(Exception):
    """A unit of a batch run without savepoints failed: the batch runs again with them."""


# --- the database -----------------------------------------------------------------------------------------


class PostgresDatabase(Database):
    """`Database` on PostgreSQL. A subclass, so that every service's `Database` hint takes it unchanged: it
    shares the writer's queue, its batches and the commit listeners, and runs them on a pool."""

    concurrent_writers = True

    def __init__(self, url: str, *, pool_size: int = POOL_SIZE, max_batch: int = PG_MAX_BATCH) -> None:
        """`max_batch` 1 runs each write unit in its own transaction (the benchmarks compare the two)."""
        self.url = url
        self.path = Path(redact(url))  # what messages name (no password)
        self._start(max_batch)
        # Transactions PostgreSQL refused, whose units ran again (tests and benchmarks read it).
        self.retries = 0
        self._pool_size = pool_size
        self._pool: ConnectionPool | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._jitter = random.Random()
        self._listening: asyncio.Task[None] | None = None

    async def open(self) -> None:
        pool = ConnectionPool(
            self.url,
            min_size=1,
            max_size=self._pool_size,
            kwargs={"autocommit": True},
            configure=configure_types,
            open=False,
            name="bot",
        )
        try:
            await asyncio.to_thread(pool.open, wait=True, timeout=CONNECT_TIMEOUT_S)
            await asyncio.to_thread(_check_server, pool)
        except (PoolTimeout, psycopg.Error) as exc:
            await asyncio.to_thread(pool.close)
            why = (
                f"no connection within {CONNECT_TIMEOUT_S:g} s" if isinstance(exc, PoolTimeout) else str(exc)
            )
            raise DatabaseUnusable(f"cannot use {redact(self.url)} ({why.strip()})") from None
        try:
            listener = await self._listen_connection()
        except psycopg.Error as exc:
            await asyncio.to_thread(pool.close)
            raise DatabaseUnusable(f"cannot use {redact(self.url)} ({str(exc).strip()})") from None
        self._pool = pool
        self._executor = ThreadPoolExecutor(max_workers=self._pool_size, thread_name_prefix="pg")
        self._listening = asyncio.create_task(self._listen(listener), name="pg-listen")
        self._start_writer()

    async def _listen_connection(self) -> psycopg.AsyncConnection[Any]:
        conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True, connect_timeout=10)
        try:
            await conn.execute(f"LISTEN {CHANNEL}")
            # held while this connection lives: the other processes tell a slow process from a dead one
            await conn.execute("SELECT pg_advisory_lock(%s, hashtext(%s))", (LIVE_LOCK, self.process))
        except BaseException:
            await conn.close()
            raise
        return conn

    async def _listen(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Wake this process's listeners for the topics other processes' commits announced (`_notify_peers`).

        One connection of its own, idle but for the notifications, which also holds this process's live
        lock (`store.dialect.still_connected`). When it breaks, it is opened again, and
        every listener is woken once: what was announced meanwhile is lost, so each one looks again (a
        key listener is called with None: a cache forgets everything)."""
        pause = RELISTEN_S[0]
        while True:
            try:
                async with conn:
                    async for note in conn.notifies():
                        topic, _, sender = note.payload.partition(" ")
                        if sender != self.process:  # this process's own commits woke it already
                            self._notify(frozenset({topic}))
                        pause = RELISTEN_S[0]
            except psycopg.Error:
                log.warning("the LISTEN connection broke; listening again in %.1f s", pause, exc_info=True)
            while True:
                await asyncio.sleep(pause)
                pause = min(pause * 2, RELISTEN_S[1])
                try:
                    conn = await self._listen_connection()
                except psycopg.Error:
                    log.warning("cannot LISTEN yet; again in %.1f s", pause, exc_info=True)
                    continue
                break
            self._notify(frozenset(self._listeners) | frozenset(self._key_listeners))

    async def close(self) -> None:
        await self._stop_writer()
        listening, self._listening = self._listening, None
        if listening is not None:
            listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listening
            if self._pool is not None:
                await asyncio.to_thread(self._await_released, self._pool)
        pool, self._pool = self._pool, None
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True)
        if pool is not None:
            await asyncio.to_thread(pool.close)

    def _await_released(self, pool: ConnectionPool) -> None:
        """Return once the server has let go of this process's live lock: the listening connection is
        closed, but its server process ends a moment later, and until then the others would still take
        this process for alive (a closed process's claims kept)."""
        with pool.connection() as raw:
            for _ in range(RELEASE_POLLS):
                row = raw.execute(
                    "SELECT pg_try_advisory_xact_lock(%s, hashtext(%s))", (LIVE_LOCK, self.process)
                ).fetchone()
                if row is not None and row[0]:
                    return
                time.sleep(RELEASE_POLL_S)
        log.warning("the live lock of %s was still held %.1f s after closing", self.process, RELEASE_WAIT_S)

    def _require(self) -> tuple[ConnectionPool, ThreadPoolExecutor]:
        if self._pool is None or self._executor is None:
            raise DatabaseClosed("database is not open")
        return self._pool, self._executor

    async def read(self, unit: Unit[T], *, large: bool = False) -> T:
        """Run `unit` on one snapshot, in a transaction that refuses writes (always in the pool's threads:
        a read waits on the network, `large` or not)."""
        _, executor = self._require()
        self.reads += 1
        return await asyncio.get_running_loop().run_in_executor(executor, self._run_read, unit)

    async def raw_writer(self) -> Any:
        raise RuntimeError("PostgreSQL migrates through store.backend.migrate_database, not a raw writer")

    def run_sync(self, fn: Callable[[PgConnection], T]) -> T:
        """`fn` on a connection of its own, outside any transaction (migrations: they manage their own)."""
        pool, _ = self._require()
        with pool.connection() as raw:
            return fn(PgConnection(raw))

    def _batched_together(self, first: Isolation, other: Isolation) -> bool:
        """A unit shares a transaction with units of its own isolation only: a READ COMMITTED unit run in a
        SERIALIZABLE transaction would be refused when it raced another process, and run again, for a
        guarantee it does not need."""
        return first is other

    async def _run_batch(self, units: list[Unit[Any]], isolation: Isolation) -> Outcomes:
        _, executor = self._require()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(executor, self._batch_outcomes, units, isolation)

    def _batch_outcomes(self, units: list[Unit[Any]], isolation: Isolation) -> Outcomes:
        """Run `units` in one transaction, again from the start if PostgreSQL refuses the transaction (it
        raced another process's) or a unit met a UNIQUE key another took meanwhile.

        A batch first runs without savepoints: a savepoint is a round trip to the server, and round trips
        are what a unit costs here. When a unit fails, that attempt is rolled back and the batch runs
        again with a savepoint per unit, so that the failure takes back its unit alone."""
        pool, _ = self._require()
        duplicates = [0] * len(units)
        savepoints = len(units) == 1  # a unit alone needs none, and would run twice for nothing
        attempt = 0
        while True:
            attempt += 1
            with pool.connection() as raw:
                try:
                    return self._try_batch(raw, units, isolation, duplicates, savepoints=savepoints)
                except _UnitFailed:
                    _rollback(raw)
                    savepoints = True
                    continue
                except SerializationConflict:
                    _rollback(raw)
                    if attempt >= MAX_ATTEMPTS:
                        raise RuntimeError(f"write batch refused {MAX_ATTEMPTS} times in a row") from None
                except BaseException:
                    _rollback(raw)
                    raise
            self.retries += 1
            time.sleep(self._backoff(attempt))

    def _try_batch(
        self,
        raw: psycopg.Connection[Any],
        units: list[Unit[Any]],
        isolation: Isolation,
        duplicates: list[int],
        *,
        savepoints: bool,
    ) -> Outcomes:
        """One attempt: without savepoints, in a pipeline (the module's doc); a statement sent ahead that
        failed, whose unit nobody can tell, gives the attempt up like a unit that failed."""
        conn = PgConnection(raw)
        raw.execute(f"BEGIN ISOLATION LEVEL {isolation.value}" + ("; SAVEPOINT unit" if savepoints else ""))
        try:
            with contextlib.nullcontext() if savepoints else conn.pipelined():
                outcomes = self._run_units(conn, units, duplicates, savepoints=savepoints)
        except SentFailed as exc:
            raise _UnitFailed from exc
        try:
            self._notify_peers(raw, conn.queued)
            raw.execute("COMMIT")
        except psycopg.Error as exc:
            raise_translated(exc)
            raise
        return outcomes, frozenset(conn.queued)

    def _run_units(
        self, conn: PgConnection, units: list[Unit[Any]], duplicates: list[int], *, savepoints: bool
    ) -> list[tuple[bool, Any]]:
        """Each unit's outcome. With `savepoints`, a unit's savepoint is taken with the previous one's
        release in one statement, and after a unit that failed the savepoint it rolled back to is the next
        one's."""
        raw = conn.raw
        outcomes: list[tuple[bool, Any]] = []
        fresh = True
        for index, unit in enumerate(units):
            if savepoints and not fresh:
                raw.execute("RELEASE SAVEPOINT unit; SAVEPOINT unit")
            before = frozenset(conn.queued)
            try:
                result = as_work(unit)(conn)
            except DuplicateKey as exc:
                duplicates[index] += 1
                if duplicates[index] < DUPLICATE_ATTEMPTS:
                    raise SerializationConflict("23505") from exc  # the winner's row is seen on the next run
                if not savepoints:
                    raise _UnitFailed from exc
                outcomes.append(self._failed(raw, conn, before, exc))
                fresh = True
            except (SerializationConflict, KeyboardInterrupt, SystemExit):
                raise
            except BaseException as exc:  # a failed unit must not sink its neighbours
                if not savepoints:
                    raise _UnitFailed from exc
                outcomes.append(self._failed(raw, conn, before, exc))
                fresh = True
            else:
                outcomes.append((True, result))
                fresh = False
        return outcomes

    @staticmethod
    def _failed(
        raw: psycopg.Connection[Any], conn: PgConnection, before: frozenset[str], exc: BaseException
    ) -> tuple[bool, BaseException]:
        try:
            raw.execute("ROLLBACK TO SAVEPOINT unit")
        except psycopg.Error as error:
            raise_translated(error)
            raise
        conn.queued = set(before)
        return False, deliverable(exc)

    def _notify_peers(self, raw: psycopg.Connection[Any], topics: set[str]) -> None:
        """Tell every process's listeners (`_listen`) what the unit announced: a NOTIFY inside the
        transaction is delivered when it commits, and never if it does not."""
        if topics:
            payloads = [f"{topic} {self.process}" for topic in sorted(topics)]
            raw.execute(
                "SELECT pg_notify(%s, payload) FROM unnest(%s::text[]) AS payload", (CHANNEL, payloads)
            )

    def _run_read(self, unit: Unit[T]) -> T:
        pool, _ = self._require()
        with pool.connection() as raw:
            raw.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            try:
                return as_work(unit)(PgConnection(raw))
            finally:
                _rollback(raw)  # nothing to keep: a read-only transaction

    def _backoff(self, attempt: int) -> float:
        delay: float = min(RETRY_CAP_S, RETRY_BASE_S * 2 ** min(attempt, 10))
        return delay * self._jitter.uniform(0.5, 1.5)


MIN_SERVER = 110000  # identity columns (10), EXECUTE FUNCTION in triggers (11); tested on 15


def _check_server(pool: ConnectionPool) -> None:
    with pool.connection() as raw:
        if raw.info.server_version < MIN_SERVER:
            raise psycopg.NotSupportedError(f"PostgreSQL {raw.info.server_version // 10000} is older than 11")


def _rollback(raw: psycopg.Connection[Any]) -> None:
    if raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        raw.execute("ROLLBACK")
