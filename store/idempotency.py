"""Exactly-once results for operations a double click could repeat."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from core.clock import to_db
from store.connection import Connection
from store.dialect import send


def once(conn: Connection, key: str, now: datetime, work: Callable[[], Any]) -> tuple[Any, bool]:
    """Run `work` unless `key` already ran; returns (result, fresh). Call inside a write unit.

    The stored result is JSON, so `work` must return JSON-serialisable data. The first caller gets the
    result as decoded from that JSON too, so it sees exactly what a replay sees (tuples become lists,
    int keys become strings) and code that works on the first click cannot break on the second.
    The UNIQUE key is the last line of defence: even a second writer could not record the same
    operation twice.
    """
    row = conn.execute("SELECT result FROM idempotency WHERE key = ?", (key,)).fetchone()
    if row is not None:
        return json.loads(row[0]), False
    result = work()
    stored = json.dumps(result)
    send(
        conn,
        "INSERT INTO idempotency (key, result, created_at) VALUES (?, ?, ?)",
        (key, stored, to_db(now)),
    )
    if type(result) in _SAME_DECODED:  # a balance, a flag: decoding gives it back as it is
        return result, True
    return json.loads(stored), True


_SAME_DECODED = (
    int,
    str,
    bool,
    type(None),
)  # not float: JSON writes NaN and infinities Python reads back differently
