"""The one door to SQLite.

All writes go through a single writer connection. Callers hand it a synchronous unit of work
(`fn(conn) -> result`); the writer runs every unit that is waiting in one `BEGIN IMMEDIATE`
transaction, each inside its own SAVEPOINT, and commits once (group commit). A unit that raises
rolls back to its savepoint alone; the others still commit. The whole batch is one thread hop,
so a money operation costs one fsync shared with its neighbours instead of one each.

Reads use query-only connections: WAL lets them run beside the writer without blocking it, and a read
that tried to write would bypass the single writer, so SQLite refuses it. A read runs on the event loop
itself (`read`): a command's read takes microseconds, and handing it to a thread and back cost about
100 µs of CPU, more than the read. A read that may take long (`read(..., large=True)`: recomputing a
season's draws, replaying a battle, a player's export) goes to the reader's thread, where the loop
keeps turning between its slices of the GIL.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import sqlite3
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], T]
Listener = Callable[[], object]
# Called with the key a commit announced under its topic (`announce`), or None: anything may have changed.
KeyListener = Callable[[str | None], object]

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
MAX_BATCH = 256

PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=FULL",
    "PRAGMA foreign_keys=ON",
    f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
)


# Tells the writer loop to finish what was queued before it and stop (see `Database.close`).
_STOP = object()


class _WriterConnection(sqlite3.Connection):
    """The writer's connection, carrying what the units of the current batch queued for later work."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queued: set[str] = set()


def announce(conn: sqlite3.Connection, topic: str, key: str | None = None) -> None:
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


def dialect(conn: sqlite3.Connection) -> str:
    """'postgresql' for the connection store.postgres hands to units, else 'sqlite': for the rare statement
    the two engines cannot share (a row lock, a JSON function)."""
    return str(getattr(conn, "dialect", "sqlite"))


def skip_locked(conn: sqlite3.Connection) -> str:
    """The clause that locks the rows a claim selects and passes over those another transaction holds.

    SQLite has one writer, so a claim there needs no lock; on PostgreSQL several processes claim at once,
    and each takes rows the others are not already firing or sending."""
    return " FOR UPDATE SKIP LOCKED" if dialect(conn) == "postgresql" else ""


def process_name() -> str:
    """A name for one process's handle on the database: host and pid for whoever reads the heartbeats, and
    a random part, because a restarted container is often the same host with the same pid (1).

    The heartbeats are kept under it, and the outbox items its deliverer claims (docs/deployment.md,
    "Several processes")."""
    return f"{socket.gethostname()[:64]}:{os.getpid()}:{secrets.token_hex(4)}"


# The class of the PostgreSQL advisory lock each process holds, keyed by its name, on the connection it
# LISTENs on (store/postgres.py): free once that connection is gone (the process died or lost the server).
LIVE_LOCK = 0x1EE7


def still_connected(conn: sqlite3.Connection, process: str) -> bool:
    """Whether the process named `process` still holds its connection to the database, so that a silent
    heartbeat means a slow process (its beats queued behind a storm of units), not a dead one.

    PostgreSQL: the process's live lock is held (a transaction-scoped try, released at commit). SQLite
    has one process: a silent one is gone."""
    if dialect(conn) != "postgresql":
        return False
    row = conn.execute(
        "SELECT pg_try_advisory_xact_lock(CAST(? AS INTEGER), hashtext(?))", (LIVE_LOCK, process)
    ).fetchone()
    return not bool(row[0])


class DatabaseUnusable(Exception):
    """The one line shown to the person starting the bot: which file, and what is wrong with it."""


class DatabaseClosed(RuntimeError):
    """Work that reached the database after the bot closed it (a command finishing during shutdown): refused,
    and nothing of it is written."""


def _writable(path: Path) -> bool:
    """`os.access` says yes to root for any file; a mode without a single write bit is the owner's explicit
    "read-only", honoured for everyone (docs/platform.md), so a bot run as root cannot slip past it."""
    return os.access(path, os.W_OK) and bool(path.stat().st_mode & 0o222)


def check_location(path: Path) -> None:
    """Create the folder, then refuse what SQLite would open but fail to write later, mid-game."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseUnusable(f"cannot create the folder {folder} ({exc.strerror or exc})") from None
    if path.is_dir():
        raise DatabaseUnusable(f"{path} is a folder, not a database file")
    if not _writable(folder) or not os.access(folder, os.X_OK):
        raise DatabaseUnusable(
            f"the folder {folder} is read-only (SQLite writes its journal files beside {path.name})"
        )
    if path.exists() and not _writable(path):
        raise DatabaseUnusable(f"{path} is read-only")


def explain(path: Path, exc: sqlite3.Error | OSError) -> DatabaseUnusable:
    """SQLite's own words, led by what they mean for this file."""
    kind = getattr(exc, "sqlite_errorname", "")
    if kind == "SQLITE_NOTADB":
        return DatabaseUnusable(f"{path} is not a SQLite database")
    if kind == "SQLITE_CORRUPT":
        return DatabaseUnusable(f"{path} is damaged ({exc}); restore a backup")
    if kind.startswith("SQLITE_READONLY"):
        return DatabaseUnusable(f"{path} is read-only ({exc})")
    return DatabaseUnusable(f"cannot open {path} ({exc})")


def _check_integrity(conn: sqlite3.Connection, path: Path) -> None:
    """A truncated or damaged file is found at start-up, not by the first game that reads the damaged page."""
    problem = str(conn.execute("PRAGMA quick_check(1)").fetchone()[0])
    if problem != "ok":
        # e.g. "*** in database main ***\nPage 3: btreeInitPage() returns error code 11", kept on one line
        detail = "; ".join(line for line in problem.splitlines() if not line.startswith("***"))
        raise DatabaseUnusable(f"{path} is damaged ({detail}); restore a backup")


async def in_thread(conn: aiosqlite.Connection, fn: Callable[..., T], *args: Any) -> T:
    """Run `fn(sqlite3_connection, *args)` in the connection's own thread: a whole transaction in one hop.

    aiosqlite's public API costs one thread hop per statement; its `_execute` runs any callable there.
    """
    execute = cast(Callable[..., Awaitable[Any]], conn._execute)
    return cast(T, await execute(fn, conn._conn, *args))


def _settings(*, query_only: bool) -> tuple[str, ...]:
    """Every connection's PRAGMAs; a read connection's also refuse writes."""
    return (*PRAGMAS, "PRAGMA query_only=ON") if query_only else PRAGMAS


async def _connect(path: Path, *, query_only: bool = False) -> aiosqlite.Connection:
    factory = sqlite3.Connection if query_only else _WriterConnection
    conn = await aiosqlite.connect(str(path), isolation_level=None, factory=factory)
    try:
        conn.row_factory = sqlite3.Row
        for pragma in _settings(query_only=query_only):
            await conn.execute(pragma)
    except BaseException:
        # The connection's thread is not a daemon: left open, it keeps a failed start-up alive forever.
        await conn.close()
        raise
    return conn


def _connect_inline(path: Path) -> sqlite3.Connection:
    """The read connection used on the event loop's own thread (`Database.read`)."""
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    try:
        conn.row_factory = sqlite3.Row
        for pragma in _settings(query_only=True):
            conn.execute(pragma)
    except BaseException:
        conn.close()
        raise
    return conn


def _run_batch(
    conn: _WriterConnection, units: list[Work[Any]]
) -> tuple[list[tuple[bool, Any]], frozenset[str]]:
    """Runs in the writer's thread: one transaction, one savepoint per unit; returns each unit's outcome
    and the topics the committed units announced."""
    outcomes: list[tuple[bool, Any]] = []
    conn.queued = set()
    conn.execute("BEGIN IMMEDIATE")
    try:
        for unit in units:
            before = frozenset(conn.queued)
            conn.execute("SAVEPOINT unit")
            try:
                result = unit(conn)
            except BaseException as exc:  # a failed unit must not sink its neighbours
                conn.execute("ROLLBACK TO unit")
                conn.execute("RELEASE unit")
                conn.queued = set(before)
                outcomes.append((False, deliverable(exc)))
            else:
                conn.execute("RELEASE unit")
                outcomes.append((True, result))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        queued, conn.queued = frozenset(conn.queued), set()
    return outcomes, queued


def deliverable(exc: BaseException) -> BaseException:
    """Futures refuse StopIteration (a stray `next()` in a unit); wrap it so the caller still learns why."""
    if isinstance(exc, StopIteration):
        wrapped = RuntimeError(f"write unit raised StopIteration: {exc!r}")
        wrapped.__cause__ = exc
        return wrapped
    return exc


class Database:
    # Whether other processes write the same database at once: a claim must then be written down before
    # the claimed work runs outside a transaction (an outbox item being sent, services/infra/outbox.py).
    # SQLite's single writer is the only one; PostgreSQL says True.
    concurrent_writers = False

    def __init__(self, path: Path | str, *, max_batch: int = MAX_BATCH) -> None:
        """`max_batch` caps units per transaction; 1 turns group commit off (benchmarks compare the two)."""
        if max_batch < 1:
            raise ValueError(f"max_batch must be at least 1, got {max_batch}")
        self.path = Path(path)
        self.max_batch = max_batch
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._inline: sqlite3.Connection | None = None  # reads on the loop's thread
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
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
            self._writer = await _connect(self.path)
            self._reader = await _connect(self.path, query_only=True)
            self._inline = _connect_inline(self.path)
            await in_thread(self._writer, _check_integrity, self.path)
        except BaseException as exc:
            await self.close()
            if isinstance(exc, sqlite3.Error):
                raise explain(self.path, exc) from None
            raise
        self._queue = asyncio.Queue()
        self._task = asyncio.create_task(self._write_loop(), name="db-writer")

    async def close(self) -> None:
        """Refuse new writes, let the writer commit everything already queued, then close the connections.

        Cancelling the writer instead would leave its callers awaiting futures nobody resolves, while a batch
        already handed to SQLite's thread commits anyway.
        """
        task, self._task = self._task, None
        if task is not None:
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
        for conn in (self._writer, self._reader):
            if conn is not None:
                await conn.close()
        if self._inline is not None:
            self._inline.close()
        self._writer = self._reader = self._inline = None

    async def write(self, unit: Work[T]) -> T:
        """Run `unit` inside a write transaction; its effects commit together or not at all."""
        if self._task is None:
            raise DatabaseClosed("database is not open")
        if self._task.done():
            raise DatabaseClosed("database writer has stopped")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((unit, future))
        return await future

    async def read(self, unit: Work[T], *, large: bool = False) -> T:
        """Run `unit` on a read connection (a consistent snapshot for its duration): on the loop, or
        `large` on the reader's thread (a read of a whole season or a replay, see the module's doc)."""
        if self._reader is None or self._inline is None:
            raise DatabaseClosed("database is not open")
        self.reads += 1
        if large:
            return await in_thread(self._reader, _read, unit)
        return _read(self._inline, unit)

    async def raw_writer(self) -> aiosqlite.Connection:
        """For migrations only: they must run before the writer loop accepts work."""
        if self._writer is None:
            raise DatabaseClosed("database is not open")
        return self._writer

    async def _write_loop(self) -> None:
        assert self._writer is not None
        stopping = False
        while not stopping:
            item = await self._queue.get()
            batch: list[tuple[Work[Any], asyncio.Future[Any]]] = []
            while True:
                if item is _STOP:
                    stopping = True
                    break
                batch.append(item)
                if len(batch) >= self.max_batch or self._queue.empty():
                    break
                item = self._queue.get_nowait()
            live = [(unit, fut) for unit, fut in batch if not fut.cancelled()]
            if live:
                await self._commit(live)

    async def _commit(self, live: list[tuple[Work[Any], asyncio.Future[Any]]]) -> None:
        assert self._writer is not None
        try:
            # One thread hop for the whole batch (aiosqlite's public API costs a hop per call).
            outcomes, queued = await in_thread(self._writer, _run_batch, [u for u, _ in live])
        except asyncio.CancelledError:
            # Torn down mid-batch: the outcome is unknown, but callers must not wait forever.
            for _, fut in live:
                fut.cancel()
            raise
        except Exception as exc:
            log.exception("write batch failed")
            for _, fut in live:
                if not fut.done():
                    fut.set_exception(exc)
            return
        self.batches += 1
        for (_, fut), (ok, value) in zip(live, outcomes, strict=True):
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
        while not self._queue.empty():
            item = self._queue.get_nowait()
            if item is not _STOP and not item[1].done():
                item[1].set_exception(exc)


def _read(conn: sqlite3.Connection, unit: Work[T]) -> T:
    conn.execute("BEGIN")
    try:
        return unit(conn)
    finally:
        conn.execute("COMMIT")
