"""What differs between the engines inside a unit, asked of the connection the unit was handed.

Each engine's connection names its `Dialect` (store/sqlite_engine.py, store/postgres.py); a unit never
asks which engine it runs on, only for the piece of SQL or the fact it needs: the clause of a claim that
passes over rows another transaction holds, whether a silent process still holds its connection.
"""

from __future__ import annotations

from typing import Protocol

from store.connection import Connection, Params
from store.sqlite_engine import SQLITE


class Dialect(Protocol):
    @property
    def name(self) -> str:
        """'sqlite' or 'postgresql': for the rare statement the two engines cannot share (a JSON function)."""
        ...

    @property
    def skip_locked(self) -> str:
        """The clause that locks the rows a claim selects and passes over those another transaction holds."""
        ...

    def still_connected(self, conn: Connection, process: str) -> bool:
        """Whether the process named `process` still holds its connection to the database, so that a silent
        heartbeat means a slow process (its beats queued behind a storm of units), not a dead one."""
        ...

    def send(self, conn: Connection, sql: str, params: Params) -> None:
        """Run a statement whose answer the unit does not read: PostgreSQL sends it ahead, to leave with
        the unit's next statement in one round trip (store/postgres.py, `PgConnection.send`)."""
        ...


def of(conn: Connection) -> Dialect:
    """The connection's engine: PostgreSQL's connection names its own; a plain `sqlite3.Connection` (the
    writer's, a migration's, a test's) is SQLite's."""
    found: Dialect = getattr(conn, "dialect", SQLITE)
    return found


def dialect(conn: Connection) -> str:
    return of(conn).name


def skip_locked(conn: Connection) -> str:
    return of(conn).skip_locked


def still_connected(conn: Connection, process: str) -> bool:
    return of(conn).still_connected(conn, process)


def send(conn: Connection, sql: str, params: Params) -> None:
    of(conn).send(conn, sql, params)
