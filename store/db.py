"""The one door to the database: what both engines share, and SQLite's `Database`.

All writes of a process go through a single writer. Callers hand it a synchronous unit of work
(`fn(conn) -> result`, `conn` a `store.connection.Connection`); the writer runs every unit that is waiting
in one transaction, each inside its own SAVEPOINT, and commits once (group commit). A unit that raises
rolls back to its savepoint alone; the others still commit (a unit alone in its batch takes no savepoint:
its failure rolls the transaction back). The whole batch is one thread hop, so a money
operation costs one flush to the disk shared with its neighbours instead of one each. A unit that may
wait a moment (`write_soon`: the deliverer's record of the posts it sent) rides with the next batch
instead of a flush of its own, or commits alone when its wait ends. SQLite's batch is
store/sqlite_engine.py's, PostgreSQL's store/postgres.py's (which also runs units of different declared
`Isolation` in different transactions).

Reads use query-only connections: WAL lets them run beside the writer without blocking it, and a read
that tried to write would bypass the single writer, so SQLite refuses it. A read runs on the event loop
itself (`read`): a command's read takes microseconds, and handing it to a thread and back cost about
100 µs of CPU, more than the read. A read that may take long (`read(..., large=True)`: recomputing a
season's draws, replaying a battle, a player's export) goes to the reader's thread, where the loop
keeps turning between its slices of the GIL.

What a unit may ask of its connection is `store.connection.Connection`; what differs between the engines
inside a unit (a claim's row locks, a process's liveness) is `store.dialect`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import os
import secrets
import socket
import sqlite3
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from store.connection import Connection, Unit, Work
from store.dialect import dialect, send, skip_locked, still_connected
from store.errors import DatabaseClosed, DatabaseUnusable
from store.sqlite_engine import (
    check_integrity,
    check_location,
    connect,
    connect_inline,
    explain,
    in_thread,
    read,
    run_batch,
)

__all__ = [
    "MAX_BATCH",
    "Database",
    "DatabaseClosed",
    "DatabaseUnusable",
    "Isolation",
    "KeyListener",
    "Listener",
    "Work",
    "announce",
    "check_location",
    "dialect",
    "explain",
    "in_thread",
    "process_name",
    "send",
    "skip_locked",
    "still_connected",
]

T = TypeVar("T")
Listener = Callable[[], object]
# Called with the key a commit announced under its topic (`announce`), or None: anything may have changed.
KeyListener = Callable[[str | None], object]

log = logging.getLogger(__name__)

MAX_BATCH = 256

# Tells the writer loop to finish what was queued before it and stop (see `Database.close`).
_STOP = object()
# Tells the writer loop that riders (`Database.write_soon`) waited long enough: they commit now, alone.
_RIDERS = object()


class Isolation(enum.Enum):
    """What a write unit needs of PostgreSQL against the transactions of other processes (SQLite's one
    writer runs every unit as if alone, whatever it declares). docs/deployment.md, "Isolation of every
    write unit", lists every unit with its level and why (tests/services/store/test_isolation_table.py)."""

    READ_COMMITTED = "READ COMMITTED"
    REPEATABLE_READ = "REPEATABLE READ"
    SERIALIZABLE = "SERIALIZABLE"


# A unit, the isolation it declared, and who waits for its outcome.
Queued = tuple[Unit[Any], Isolation, "asyncio.Future[Any]"]
Outcomes = tuple[list[tuple[bool, Any]], frozenset[str]]


def announce(conn: Connection, topic: str, key: str | None = None) -> None:
    """Say, inside a write unit, that the unit queued work for `topic` (an outbox message, a job), or, with
    `key`, which thing of `topic` it changed (a player's language: the processes that cache it forget it).

    Once the batch commits, the listeners of the topics its surviving units announced run, and only
    those: a commit that queued nothing wakes nobody (a woken deliverer or scheduler costs two reads
    that find nothing). A unit that raises takes its announcements back with its effects. On a plain
    connection (a migration, a test's own) there is nobody to tell. On PostgreSQL the other processes
    are told too (store/postgres.py), which is why a topic has no `/` and a key no space.
    """
    if "/" in topic or (key is not None and (not key or " " in key)):
        raise ValueError(f"bad topic or key: {topic!r} {key!r}")
    queued = getattr(conn, "queued", None)  # the SQLite writer's and PostgreSQL's connections carry one
    if isinstance(queued, set):
        queued.add(topic if key is None else f"{topic}/{key}")


def process_name() -> str:
    """A name for one process's handle on the database: host and pid for whoever reads the heartbeats, and
    a random part, because a restarted container is often the same host with the same pid (1).

    The heartbeats are kept under it, and the outbox items its deliverer claims (docs/deployment.md,
    "Several processes")."""
    return f"{socket.gethostname()[:64]}:{os.getpid()}:{secrets.token_hex(4)}"


class Database:
    # Whether other processes write the same database at once: a claim must then be written down before
    # the claimed work runs outside a transaction (an outbox item being sent, services/infra/outbox.py).
    # SQLite's single writer is the only one; PostgreSQL says True.
    concurrent_writers = False

    def __init__(self, path: Path | str, *, max_batch: int = MAX_BATCH) -> None:
        """`max_batch` caps units per transaction; 1 turns group commit off (benchmarks compare the two)."""
        self.path = Path(path)
        self._start(max_batch)
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._inline: sqlite3.Connection | None = None  # reads on the loop's thread

    def _start(self, max_batch: int) -> None:
        """What both engines' writers and listeners begin with."""
        if max_batch < 1:
            raise ValueError(f"max_batch must be at least 1, got {max_batch}")
        self.max_batch = max_batch
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._riders: list[Queued] = []  # `write_soon`'s units, waiting for the next batch
        self._riders_due: asyncio.TimerHandle | None = None  # when they stop waiting for one
        self.batches = 0  # how many transactions the writer committed; benchmarks and tests read it
        self.reads = 0  # how many reads ran on the read connection; likewise
        # Per topic, called after a committed batch whose units announced it (`announce`): what waits for
        # queued posts and jobs (the outbox deliverer, the scheduler) looks again at once, and only then.
        self._listeners: dict[str, list[Listener]] = {}
        self._key_listeners: dict[str, list[KeyListener]] = {}
        self.process = process_name()  # this process among those sharing the database (heartbeats, claims)

    def subscribe(self, topic: str, listener: Listener) -> None:
        """Call `listener` (synchronously, on the event loop) after each commit that queued `topic` work."""
        self._listeners.setdefault(topic, []).append(listener)

    def unsubscribe(self, topic: str, listener: Listener) -> None:
        with contextlib.suppress(ValueError):
            self._listeners.get(topic, []).remove(listener)

    def subscribe_keys(self, topic: str, listener: KeyListener) -> None:
        """Call `listener(key)` after each commit, of any process, that announced `key` under `topic`, and
        `listener(None)` when what changed is unknown (`topic` announced without a key, or notifications
        lost while the LISTEN connection was down): a cache then forgets everything."""
        self._key_listeners.setdefault(topic, []).append(listener)

    async def open(self) -> None:
        """Raises `DatabaseUnusable` for a file the bot cannot keep writing to, with nothing left open."""
        check_location(self.path)
        try:
            self._writer = await connect(self.path)
            self._reader = await connect(self.path, query_only=True)
            self._inline = connect_inline(self.path)
            await in_thread(self._writer, check_integrity, self.path)
        except BaseException as exc:
            await self.close()
            if isinstance(exc, sqlite3.Error):
                raise explain(self.path, exc) from None
            raise
        self._start_writer()

    def _start_writer(self) -> None:
        self._queue = asyncio.Queue()
        self._task = asyncio.create_task(self._write_loop(), name="db-writer")

    async def close(self) -> None:
        """Refuse new writes, let the writer commit everything already queued, then close the connections."""
        await self._stop_writer()
        for conn in (self._writer, self._reader):
            if conn is not None:
                await conn.close()
        if self._inline is not None:
            self._inline.close()
        self._writer = self._reader = self._inline = None

    async def _stop_writer(self) -> None:
        """Cancelling the writer instead would leave its callers awaiting futures nobody resolves, while a
        batch already handed to the engine's thread commits anyway."""
        task, self._task = self._task, None
        if task is None:
            return
        self._queue.put_nowait(_STOP)
        try:
            await task
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise  # we are being cancelled ourselves
            # else someone else cancelled the writer (asyncio.run shutting down): just clean up
        except Exception:
            log.exception("database writer stopped with an error")
        self._fail_queued(DatabaseClosed("database closed"))

    async def write(self, unit: Unit[T], *, isolation: Isolation = Isolation.SERIALIZABLE) -> T:
        """Run `unit` inside a write transaction; its effects commit together or not at all.

        `isolation` is what the unit needs against other processes' transactions on PostgreSQL. A unit whose
        every decision is a guard the database checks (a guarded UPDATE, a UNIQUE key, a version) may say
        READ COMMITTED; any other keeps SERIALIZABLE (docs/deployment.md, "Isolation of every write unit")."""
        if self._task is None:
            raise DatabaseClosed("database is not open")
        if self._task.done():
            raise DatabaseClosed("database writer has stopped")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((unit, isolation, future))
        return await future

    def write_soon(
        self, unit: Unit[T], *, within: float, isolation: Isolation = Isolation.SERIALIZABLE
    ) -> asyncio.Future[T]:
        """Queue `unit` to ride with the next transaction the writer commits, whoever asked for it, or to
        commit alone `within` seconds from now (the event loop's time) if none comes first; returns the
        future of its outcome, without waiting for it.

        For a record that may wait a moment but not pay a commit of its own: the deliverer's record of the
        posts it sent (discord_app/delivery.py). A rider runs first in its batch, so every unit committed
        after it was queued sees its effects; a read does not until it committed (`hurry`). It joins a
        batch of its own isolation only (PostgreSQL's `_batched_together`)."""
        if self._task is None or self._task.done():
            raise DatabaseClosed("database is not open")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._riders.append((unit, isolation, future))
        due = loop.time() + within
        if self._riders_due is None or due < self._riders_due.when():
            if self._riders_due is not None:
                self._riders_due.cancel()
            self._riders_due = loop.call_at(due, self.hurry)
        return future

    def hurry(self) -> None:
        """Commit the waiting riders (`write_soon`) now, without waiting for another unit."""
        if self._riders_due is not None:
            self._riders_due.cancel()
            self._riders_due = None
        if self._riders:
            self._queue.put_nowait(_RIDERS)

    def _take_riders(self, isolation: Isolation | None) -> list[Queued]:
        """The riders that may join a batch of `isolation` (any, for None), taken out of the wait."""
        taken = [r for r in self._riders if isolation is None or self._batched_together(isolation, r[1])]
        if taken:
            self._riders = [r for r in self._riders if r not in taken]
            if not self._riders and self._riders_due is not None:
                self._riders_due.cancel()
                self._riders_due = None
        if self._riders and self._riders_due is None:
            self._queue.put_nowait(_RIDERS)  # hurried, but left out of this batch: the next one is theirs
        return taken

    async def read(self, unit: Unit[T], *, large: bool = False) -> T:
        """Run `unit` on a read connection (a consistent snapshot for its duration): on the loop, or
        `large` on the reader's thread (a read of a whole season or a replay, see the module's doc)."""
        if self._reader is None or self._inline is None:
            raise DatabaseClosed("database is not open")
        self.reads += 1
        if large:
            return await in_thread(self._reader, read, unit)
        return read(self._inline, unit)

    async def raw_writer(self) -> aiosqlite.Connection:
        """For migrations only: they must run before the writer loop accepts work."""
        if self._writer is None:
            raise DatabaseClosed("database is not open")
        return self._writer

    def _batched_together(self, first: Isolation, other: Isolation) -> bool:
        """SQLite's one writer runs every unit as if alone: any units share a transaction."""
        return True

    async def _run_batch(self, units: list[Unit[Any]], isolation: Isolation) -> Outcomes:
        """The engine's transaction for `units` (all declared `isolation` or less): each unit's outcome, and
        the topics the committed ones announced."""
        assert self._writer is not None
        # One thread hop for the whole batch (aiosqlite's public API costs a hop per call).
        return await in_thread(self._writer, run_batch, units)

    async def _write_loop(self) -> None:
        stopping = False
        carried: Any = None
        while not stopping:
            item = carried if carried is not None else await self._queue.get()
            carried = None
            batch: list[Queued] = []
            while True:
                if item is _STOP:
                    stopping = True
                    break
                if item is _RIDERS:
                    if batch or self._queue.empty():
                        break
                    item = self._queue.get_nowait()
                    continue
                if batch and not self._batched_together(batch[0][1], item[1]):
                    carried = item  # the next transaction's first unit
                    break
                batch.append(item)
                if len(batch) >= self.max_batch or self._queue.empty():
                    break
                item = self._queue.get_nowait()
            # The riders go first: they were queued before the batch's units, which then see their effects.
            batch = self._take_riders(batch[0][1] if batch else None) + batch
            live = [queued for queued in batch if not queued[2].cancelled()]
            if live:
                await self._commit(live)
            if stopping and self._riders:
                await self._commit(self._take_riders(None))

    async def _commit(self, live: list[Queued]) -> None:
        isolation = max((level for _, level, _ in live), key=_strength)
        try:
            outcomes, queued = await self._run_batch([unit for unit, _, _ in live], isolation)
        except asyncio.CancelledError:
            # Torn down mid-batch: the outcome is unknown, but callers must not wait forever.
            for _, _, fut in live:
                fut.cancel()
            raise
        except Exception as exc:
            log.exception("write batch failed")
            for _, _, fut in live:
                if not fut.done():
                    fut.set_exception(exc)
            return
        self.batches += 1
        for (_, _, fut), (ok, value) in zip(live, outcomes, strict=True):
            if fut.done():
                continue
            if ok:
                fut.set_result(value)
            else:
                fut.set_exception(value)
        self._notify(queued)

    def _notify(self, queued: frozenset[str]) -> None:
        """Run the listeners of the topics a commit's units announced (`announce`): a topic's plain
        listeners once, its key listeners once per key (or once with None)."""
        keys: dict[str, set[str | None]] = {}
        for entry in queued:
            topic, keyed, key = entry.partition("/")
            keys.setdefault(topic, set()).add(key if keyed else None)
        for topic in sorted(keys):
            calls: list[Callable[[], object]] = list(self._listeners.get(topic, ()))
            changed = [None] if None in keys[topic] else sorted(k for k in keys[topic] if k is not None)
            for listener in list(self._key_listeners.get(topic, ())):
                calls.extend(partial(listener, key) for key in changed)
            for call in calls:
                try:
                    call()
                except Exception:
                    log.exception("listener of %r failed after a commit", topic)

    def _fail_queued(self, exc: Exception) -> None:
        """If the writer died before the stop marker, nobody else will ever answer what is still queued."""
        for _, _, future in self._take_riders(None):
            if not future.done():
                future.set_exception(exc)
        while not self._queue.empty():
            item = self._queue.get_nowait()
            if item is not _STOP and item is not _RIDERS and not item[2].done():
                item[2].set_exception(exc)


def _strength(level: Isolation) -> int:
    return list(Isolation).index(level)
