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

The connection handed to a unit (`PgConnection`) is a `store.connection.Connection`, as
`sqlite3.Connection` is: `execute`/`executemany` with `?` or `:name` placeholders (translated once per SQL text and cached),
cursors with `fetchone`/`fetchall`/`rowcount`/`description` and iteration, and rows indexed by position
and by name. Integrity errors (a CHECK, a UNIQUE key, the ledger's append-only trigger) are raised as
`sqlite3.IntegrityError`, the class the code and the tests already know.

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
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import psycopg
import psycopg.errors
from psycopg.adapt import Buffer, Dumper, Loader
from psycopg.pq import Format
from psycopg_pool import ConnectionPool, PoolTimeout

from store.connection import Connection, Unit, as_work
from store.db import Database, Isolation, Outcomes
from store.errors import DatabaseClosed, DatabaseUnusable, deliverable

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
RETRYABLE = frozenset({"40001", "40P01"})  # serialization_failure, deadlock_detected
CHANNEL = "bot_work"  # the NOTIFY channel: a commit's announced topics, for every process (see `_listen`)
RELISTEN_S = (0.5, 30.0)
RELEASE_WAIT_S, RELEASE_POLL_S = (
    2.0,
    0.01,
)  # closing: how long to wait for the live lock's release, and how often
RELEASE_POLLS = round(
    RELEASE_WAIT_S / RELEASE_POLL_S
)  # the pause before listening again after the listening connection broke: first, cap


class SerializationConflict(BaseException):
    """PostgreSQL refused the transaction because it raced another; the whole unit runs again."""


class _UnitFailed(Exception):
    """A unit of a batch run without savepoints failed: the batch runs again with them."""


class DuplicateKey(sqlite3.IntegrityError):
    """A UNIQUE key already taken. Between two units that insert the same key at once (a double click's
    request key), PostgreSQL may report it as this rather than as a serialization failure when the unit's
    earlier read did not lock that very key; the unit that lost then runs again and finds the winner's row,
    as it would have on SQLite. A duplicate the unit makes whatever the others do is still one after
    `DUPLICATE_ATTEMPTS` runs, and reaches the caller as the integrity error it is."""


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))


# --- SQL text --------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"'(?:[^']|'')*'|\"[^\"]*\"|--[^\n]*|/\*.*?\*/|::|%|\?|:[A-Za-z_]\w*", re.DOTALL)


@lru_cache(maxsize=4096)
def translate(sql: str) -> str:
    """SQLite's placeholders (`?`, `:name`) as psycopg's (`%s`, `%(name)s`), every `%` doubled.

    A `?` or `:name` inside a quoted string, a quoted name or a comment is left as it is.
    """

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "?":
            return "%s"
        if token.startswith(":") and token != "::":
            return f"%({token[1:]})s"
        return token.replace("%", "%%")  # psycopg reads `%` everywhere, literals and comments included

    return _TOKEN.sub(replace, sql)


# --- rows and cursors ------------------------------------------------------------------------------------


class Row(tuple[Any, ...]):
    """A row indexed by position and by column name, like `sqlite3.Row` (and equal to a plain tuple)."""

    _names: dict[str, int]

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            try:
                return tuple.__getitem__(self, self._names[key])
            except KeyError:
                raise IndexError(f"No item with that key: {key!r}") from None
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._names)


def _row_factory(cursor: psycopg.Cursor[Any]) -> Callable[[Sequence[Any]], Row]:
    names = {column.name: index for index, column in enumerate(cursor.description or ())}

    def make(values: Sequence[Any]) -> Row:
        row = Row(values)
        row._names = names
        return row

    return make


class Cursor:
    """The part of `sqlite3.Cursor` the services read: a statement without rows fetches None / [].

    The rows are read from the server's answer when the statement runs, so that the connection's one
    psycopg cursor serves the next statement (a new psycopg cursor per statement cost a third of a
    short statement's time) while a unit still reads this one's rows."""

    __slots__ = ("_next", "_rows", "description", "rowcount")

    def __init__(self, rows: list[Row], rowcount: int, description: Any) -> None:
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount
        self.description = description

    @property
    def lastrowid(self) -> int:
        raise NotImplementedError("PostgreSQL has no lastrowid: write INSERT ... RETURNING id")

    def fetchone(self) -> Row | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    def fetchall(self) -> list[Row]:
        rest, self._next = self._rows[self._next :], len(self._rows)
        return rest

    def __iter__(self) -> Iterator[Row]:
        return iter(self.fetchall())


def _answer(cursor: psycopg.Cursor[Row]) -> Cursor:
    rows = cursor.fetchall() if cursor.description is not None else []
    return Cursor(rows, cursor.rowcount, cursor.description)


def _raise_translated(exc: psycopg.Error) -> None:
    """A conflict to retry, or the sqlite3 class of the same error (what code and tests already catch)."""
    if exc.sqlstate in RETRYABLE:
        raise SerializationConflict(exc.sqlstate) from exc
    if isinstance(exc, psycopg.errors.UniqueViolation):
        raise DuplicateKey(str(exc).strip()) from exc
    if isinstance(exc, psycopg.IntegrityError):
        raise sqlite3.IntegrityError(str(exc).strip()) from exc
    if isinstance(exc, psycopg.errors.ReadOnlySqlTransaction):  # a write in a read unit
        raise sqlite3.OperationalError(str(exc).strip()) from exc


Params = Sequence[Any] | Mapping[str, Any]


# The class of the PostgreSQL advisory lock each process holds, keyed by its name, on the connection it
# LISTENs on (`PostgresDatabase._listen_connection`): free once that connection is gone (the process died
# or lost the server).
LIVE_LOCK = 0x1EE7


@dataclass(frozen=True)
class PostgresDialect:
    """Several processes claim at once: a claim locks the rows it takes and passes over those another
    transaction holds; a process is alive while its live lock is held."""

    name: str = "postgresql"
    skip_locked: str = " FOR UPDATE SKIP LOCKED"

    def still_connected(self, conn: Connection, process: str) -> bool:
        """A transaction-scoped try of the process's live lock (released at commit): refused while the
        process holds it."""
        row = conn.execute(
            "SELECT pg_try_advisory_xact_lock(CAST(? AS INTEGER), hashtext(?))", (LIVE_LOCK, process)
        ).fetchone()
        return not bool(row[0])


POSTGRESQL = PostgresDialect()


class PgConnection:
    """What a unit receives on PostgreSQL: a `store.connection.Connection`, as `sqlite3.Connection` is."""

    dialect = POSTGRESQL

    def __init__(self, raw: psycopg.Connection[Any]) -> None:
        self.raw = raw
        self.queued: set[str] = set()  # what the unit announced (store.db.announce)
        self._cursor = raw.cursor(row_factory=_row_factory)

    def execute(self, sql: str, params: Params | None = ()) -> Cursor:
        """`params=None` runs `sql` as written, several statements allowed (a migration's text)."""
        cursor = self._cursor
        try:
            cursor.execute(sql if params is None else translate(sql), params)
        except psycopg.Error as exc:
            _raise_translated(exc)
            raise
        return _answer(cursor)

    def executemany(self, sql: str, seq: Iterable[Params]) -> Cursor:
        cursor = self._cursor
        try:
            cursor.executemany(translate(sql), list(seq))
        except psycopg.Error as exc:
            _raise_translated(exc)
            raise
        return _answer(cursor)

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE


# --- types: what SQLite returns, PostgreSQL returns too ----------------------------------------------------


class _BoolAsInteger(Dumper):
    """The schema keeps SQLite's 0/1 integers for flags; a Python bool is written as one of them."""

    oid = psycopg.adapters.types["int8"].oid

    def dump(self, obj: Any) -> Buffer:
        return b"1" if obj else b"0"


class _NumericAsNumber(Loader):
    """SUM() of integers is `numeric` on PostgreSQL: read it as an int (a float when not whole), as SQLite
    gives it, so no Decimal reaches JSON or arithmetic with floats."""

    format = Format.TEXT

    def load(self, data: Buffer) -> Any:
        value = Decimal(bytes(data).decode())
        return int(value) if value == value.to_integral_value() else float(value)


def _configure(conn: psycopg.Connection[Any]) -> None:
    conn.adapters.register_dumper(bool, _BoolAsInteger)
    conn.adapters.register_loader("numeric", _NumericAsNumber)


def connect(url: str) -> PgConnection:
    """A connection of its own, outside any pool and in autocommit (tools, tests reading a bot's database);
    close it with `.raw.close()`."""
    raw = psycopg.connect(url, autocommit=True)
    _configure(raw)
    return PgConnection(raw)


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
            configure=_configure,
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
        """One attempt. With `savepoints`, a unit's savepoint is taken with the previous one's release in
        one statement, and after a unit that failed the savepoint it rolled back to is the next one's."""
        conn = PgConnection(raw)
        outcomes: list[tuple[bool, Any]] = []
        raw.execute(f"BEGIN ISOLATION LEVEL {isolation.value}" + ("; SAVEPOINT unit" if savepoints else ""))
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
        try:
            self._notify_peers(raw, conn.queued)
            raw.execute("COMMIT")
        except psycopg.Error as exc:
            _raise_translated(exc)
            raise
        return outcomes, frozenset(conn.queued)

    @staticmethod
    def _failed(
        raw: psycopg.Connection[Any], conn: PgConnection, before: frozenset[str], exc: BaseException
    ) -> tuple[bool, BaseException]:
        try:
            raw.execute("ROLLBACK TO SAVEPOINT unit")
        except psycopg.Error as error:
            _raise_translated(error)
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
