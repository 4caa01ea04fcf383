"""What a unit may ask of the connection it is handed, on either engine.

A unit is a synchronous function of a `Connection` (store/db.py). SQLite hands it a `sqlite3.Connection`,
PostgreSQL a `store.pg_connection.PgConnection`; both satisfy these protocols structurally, so a unit typed
against `Connection` runs on either and a call PostgreSQL does not offer (`executescript`, a `PRAGMA`
helper, `lastrowid`'s SQLite meaning) fails the type check instead of a PostgreSQL run.

Rows are `Any`: `sqlite3.Row` and `store.pg_connection.Row` are both indexed by position and by column name
and unpack like tuples, which is all the units do with them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeVar

# `?` placeholders take a sequence, `:name` placeholders a mapping.
Params = Sequence[Any] | Mapping[str, Any]


class Cursor(Protocol):
    """The part of a DB-API cursor the units read."""

    @property
    def rowcount(self) -> int: ...

    @property
    def description(self) -> Any: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """The part of `sqlite3.Connection` a unit may use: statements with `?` or `:name` placeholders."""

    def execute(self, sql: str, parameters: Params = ..., /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Params], /) -> Cursor: ...


T = TypeVar("T")
# A unit of work: run in one transaction, on whichever engine (store/db.py).
Work = Callable[[Connection], T]


# What `Database.write` and `read` take.
Unit = Work[T]


def as_work(unit: Unit[T]) -> Work[T]:
    return unit
