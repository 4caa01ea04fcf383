"""The one door to SQLite.

All writes go through a single writer connection. Callers hand it a synchronous unit of work
(`fn(conn) -> result`); the writer runs every unit that is waiting in one `BEGIN IMMEDIATE`
transaction, each inside its own SAVEPOINT, and commits once (group commit). A unit that raises
rolls back to its savepoint alone; the others still commit. The whole batch is one thread hop,
so a money operation costs one fsync shared with its neighbours instead of one each.

Reads use a second connection: WAL lets them run beside the writer without blocking it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], T]

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
MAX_BATCH = 256

PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=FULL",
    "PRAGMA foreign_keys=ON",
    f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
)


async def _connect(path: Path) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    conn.row_factory = sqlite3.Row
    for pragma in PRAGMAS:
        await conn.execute(pragma)
    return conn


def _run_batch(conn: sqlite3.Connection, units: list[Work[Any]]) -> list[tuple[bool, Any]]:
    """Runs in the writer's thread: one transaction, one savepoint per unit."""
    outcomes: list[tuple[bool, Any]] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        for unit in units:
            conn.execute("SAVEPOINT unit")
            try:
                result = unit(conn)
            except BaseException as exc:  # a failed unit must not sink its neighbours
                conn.execute("ROLLBACK TO unit")
                conn.execute("RELEASE unit")
                outcomes.append((False, exc))
            else:
                conn.execute("RELEASE unit")
                outcomes.append((True, result))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


class Database:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._queue: asyncio.Queue[tuple[Work[Any], asyncio.Future[Any]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.batches = 0  # how many transactions the writer committed; benchmarks read it

    async def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._writer = await _connect(self.path)
        self._reader = await _connect(self.path)
        self._queue = asyncio.Queue()
        self._task = asyncio.create_task(self._write_loop(), name="db-writer")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for conn in (self._writer, self._reader):
            if conn is not None:
                await conn.close()
        self._writer = self._reader = None

    async def write(self, unit: Work[T]) -> T:
        """Run `unit` inside a write transaction; its effects commit together or not at all."""
        if self._task is None:
            raise RuntimeError("database is not open")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((unit, future))
        return await future

    async def read(self, unit: Work[T]) -> T:
        """Run `unit` on the read connection (a consistent snapshot for its duration)."""
        if self._reader is None:
            raise RuntimeError("database is not open")
        return await self._reader._execute(_read, self._reader._conn, unit)  # noqa: SLF001 - one hop per read

    async def raw_writer(self) -> aiosqlite.Connection:
        """For migrations only: they must run before the writer loop accepts work."""
        if self._writer is None:
            raise RuntimeError("database is not open")
        return self._writer

    async def _write_loop(self) -> None:
        assert self._writer is not None
        while True:
            first = await self._queue.get()
            batch = [first]
            while len(batch) < MAX_BATCH and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            live = [(unit, fut) for unit, fut in batch if not fut.cancelled()]
            if not live:
                continue
            try:
                outcomes = await self._writer._execute(_run_batch, self._writer._conn, [u for u, _ in live])  # noqa: SLF001
            except Exception as exc:
                log.exception("write batch failed")
                for _, fut in live:
                    if not fut.done():
                        fut.set_exception(exc)
                continue
            self.batches += 1
            for (_, fut), (ok, value) in zip(live, outcomes, strict=True):
                if fut.done():
                    continue
                if ok:
                    fut.set_result(value)
                else:
                    fut.set_exception(value)


def _read(conn: sqlite3.Connection, unit: Work[T]) -> T:
    conn.execute("BEGIN")
    try:
        return unit(conn)
    finally:
        conn.execute("COMMIT")
