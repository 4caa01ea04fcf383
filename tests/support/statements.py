"""The SQL statements a write unit runs, seen by SQLite's trace callback: for tests that pin how many reads
or writes a use case costs (issue 39). SQLite only; a test using it is marked `sqlite_only`."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, cast

import pytest

from store.connection import Connection
from store.db import Database


def trace_writes(db: Database, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, every statement of every unit `db.write` runs is appended to the returned list."""
    return _trace(db, "write", monkeypatch)


def trace_reads(db: Database, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, every statement of every read unit `db.read` runs is appended to the returned list."""
    return _trace(db, "read", monkeypatch)


def _trace(db: Database, method: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    statements: list[str] = []
    run = getattr(db, method)

    async def traced(unit: Callable[[Connection], Any], **kwargs: Any) -> Any:
        def tracing(conn: Connection) -> Any:
            raw = cast(sqlite3.Connection, conn)
            raw.set_trace_callback(statements.append)
            try:
                return unit(conn)
            finally:
                raw.set_trace_callback(None)

        return await run(tracing, **kwargs)

    monkeypatch.setattr(db, method, traced)
    return statements
