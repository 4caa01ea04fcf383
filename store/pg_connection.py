"""What a write or read unit is handed on PostgreSQL (`PgConnection`), and what it meets there.

`PgConnection` is a `store.connection.Connection`, as `sqlite3.Connection` is: SQLite's placeholders
translated once per SQL text, rows indexed by position and by name, errors raised as the `sqlite3` classes
the code already catches. The writer's transactions, their batches and their retries are
store/postgres.py's.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import psycopg.errors
from psycopg.adapt import Buffer, Dumper, Loader
from psycopg.pq import Format

from store.connection import Connection

RETRYABLE = frozenset({"40001", "40P01"})  # serialization_failure, deadlock_detected


class SerializationConflict(BaseException):
    """PostgreSQL refused the transaction because it raced another; the whole unit runs again."""


class SentFailed(BaseException):
    """A statement sent ahead (`PgConnection.send`) failed, its error surfacing at a later statement, maybe
    another unit's: a `BaseException`, so that the unit that happens to be running cannot take it for its
    own statement's error (`except sqlite3.IntegrityError`) and go on; the batch runs again, with
    savepoints and nothing sent ahead, where the failure is its own unit's."""


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


def raise_translated(exc: psycopg.Error) -> None:
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

    def send(self, conn: Connection, sql: str, params: Params) -> None:
        """Sent ahead in a batch's pipeline (`PgConnection.send`)."""
        send = getattr(conn, "send", None)
        if send is None:
            conn.execute(sql, params)
        else:
            send(sql, params)

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
        self._pipeline: psycopg.Pipeline | None = None  # see `send`
        self._sender = self._cursor
        self._sent = False  # statements sent ahead whose answers have not come back yet

    def execute(self, sql: str, params: Params | None = ()) -> Cursor:
        """`params=None` runs `sql` as written, several statements allowed (a migration's text)."""
        return self._answered(
            lambda cursor: cursor.execute(sql if params is None else translate(sql), params)
        )

    def send(self, sql: str, params: Params) -> None:
        """Run a statement whose answer the unit does not read (a ledger row, an idempotency key). In a
        batch's pipeline (`pipelined`) it leaves with the next statement whose answer is read, in the same
        round trip to the server: a debit costs two round trips instead of four. Elsewhere it is
        `execute`."""
        if self._pipeline is None:
            self.execute(sql, params)
            return
        try:
            self._sender.execute(translate(sql), params)
        except psycopg.Error as exc:
            self._raise_sent(exc)
            raise
        self._sent = True

    @contextlib.contextmanager
    def pipelined(self) -> Iterator[None]:
        """Statements sent ahead within: an error of theirs surfaces at the next statement whose answer is
        read, or on leaving, as `SentFailed` (a conflict as `SerializationConflict`). Leaving waits for
        every answer, and refuses a transaction one of them left failed."""
        try:
            with self.raw.pipeline() as pipeline:
                self._pipeline, self._sender = pipeline, self.raw.cursor()
                try:
                    yield
                finally:
                    self._pipeline = None
        except psycopg.Error as exc:
            self._sent = True
            self._raise_sent(exc)
            raise
        self._sent = False
        if self.raw.info.transaction_status == psycopg.pq.TransactionStatus.INERROR:
            raise SentFailed("a statement sent ahead failed")

    def _sync(self) -> None:
        assert self._pipeline is not None
        self._pipeline.sync()
        self._sent = False

    def _raise_sent(self, exc: psycopg.Error) -> None:
        """An error while statements sent ahead were pending may be theirs: nobody can tell which."""
        if self._sent or isinstance(exc, psycopg.errors.PipelineAborted):
            self._sent = False
            if exc.sqlstate in RETRYABLE:
                raise SerializationConflict(exc.sqlstate) from exc
            raise SentFailed(str(exc).strip()) from exc

    def executemany(self, sql: str, seq: Iterable[Params]) -> Cursor:
        return self._answered(lambda cursor: cursor.executemany(translate(sql), list(seq)))

    def _answered(self, run: Callable[[psycopg.Cursor[Any]], object]) -> Cursor:
        """Run a statement whose answer the unit reads: in a pipeline, everything sent ahead leaves with it."""
        cursor = self._cursor
        try:
            run(cursor)
            if self._pipeline is not None:
                self._sync()
        except psycopg.Error as exc:
            self._raise_sent(exc)
            raise_translated(exc)
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


def configure_types(conn: psycopg.Connection[Any]) -> None:
    conn.adapters.register_dumper(bool, _BoolAsInteger)
    conn.adapters.register_loader("numeric", _NumericAsNumber)


def connect(url: str) -> PgConnection:
    """A connection of its own, outside any pool and in autocommit (tools, tests reading a bot's database);
    close it with `.raw.close()`."""
    raw = psycopg.connect(url, autocommit=True)
    configure_types(raw)
    return PgConnection(raw)
