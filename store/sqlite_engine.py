"""SQLite's side of the store: its connections and their settings, the file checked before it is trusted,
the writer's batch (one `BEGIN IMMEDIATE` transaction, a SAVEPOINT per unit), and its dialect.

store/db.py's `Database` runs SQLite through these; store/postgres.py is the other engine.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from store.connection import Connection, Params, Unit
from store.errors import DatabaseUnusable, deliverable

T = TypeVar("T")

BUSY_TIMEOUT_MS = 5000

PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=FULL",
    "PRAGMA foreign_keys=ON",
    f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
)

# The writer's own. A unit batched with others runs in a SAVEPOINT, whose sub-journal keeps the former
# content of every page the unit changes until the batch ends; past 64 KiB SQLite's default spills it to a
# file it creates, writes and deletes in the temp folder (a Chocobataille turn or a ranked battle's start
# batched with the deliverer's record: once a command). In memory it is as large as the pages one batch
# changes, and freed at its COMMIT. The read connections keep the default: a large read's sort may spill.
WRITER_PRAGMAS = ("PRAGMA temp_store=MEMORY",)


@dataclass(frozen=True)
class SqliteDialect:
    """One process, one writer: a claim needs no row lock, and a silent process is gone."""

    name: str = "sqlite"
    skip_locked: str = ""

    def still_connected(self, conn: Connection, process: str) -> bool:
        return False

    def send(self, conn: Connection, sql: str, params: Params) -> None:
        conn.execute(sql, params)


SQLITE = SqliteDialect()


class WriterConnection(sqlite3.Connection):
    """The writer's connection, carrying what the units of the current batch queued for later work."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queued: set[str] = set()


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


def check_integrity(conn: sqlite3.Connection, path: Path) -> None:
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
    return (*PRAGMAS, "PRAGMA query_only=ON") if query_only else (*PRAGMAS, *WRITER_PRAGMAS)


async def connect(path: Path, *, query_only: bool = False) -> aiosqlite.Connection:
    factory = sqlite3.Connection if query_only else WriterConnection
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


def connect_inline(path: Path) -> sqlite3.Connection:
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


def run_batch(
    conn: WriterConnection, units: list[Unit[Any]]
) -> tuple[list[tuple[bool, Any]], frozenset[str]]:
    """Runs in the writer's thread: one transaction, one savepoint per unit; returns each unit's outcome
    and the topics the committed units announced. A unit alone in its batch (every command's write, but
    under load) takes no savepoint: it fails by rolling the transaction back."""
    outcomes: list[tuple[bool, Any]] = []
    conn.queued = set()
    conn.execute("BEGIN IMMEDIATE")
    if len(units) == 1:
        return _run_alone(conn, units[0])
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


def _run_alone(conn: WriterConnection, unit: Unit[Any]) -> tuple[list[tuple[bool, Any]], frozenset[str]]:
    """`run_batch` of one unit, its transaction begun: two statements fewer than a savepoint's."""
    try:
        try:
            result = unit(conn)
        except BaseException as exc:  # the unit's failure is its outcome, as in a batch
            conn.execute("ROLLBACK")
            return [(False, deliverable(exc))], frozenset()
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        queued, conn.queued = frozenset(conn.queued), set()
    return [(True, result)], queued


def read(conn: sqlite3.Connection, unit: Unit[T]) -> T:
    conn.execute("BEGIN")
    try:
        return unit(conn)
    finally:
        conn.execute("COMMIT")
