"""The platform's sign of life, so that at start-up a game can tell how long the bot was down.

It is written every minute while the bot runs and once more at a clean shutdown; the time between the
last one and the next start-up is the downtime (a server may choose to give it back to its players'
deadlines, see services/choco/deadlines.py).
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta

from core.clock import Clock, from_db, to_db
from store.db import Database

PERIOD = timedelta(minutes=1)


def beat(conn: sqlite3.Connection, now: datetime) -> datetime | None:
    """Record a sign of life; returns the previous one (None on a fresh database)."""
    row = conn.execute("SELECT last_seen FROM heartbeat WHERE id = 1").fetchone()
    conn.execute(
        "INSERT INTO heartbeat (id, last_seen) VALUES (1, ?)"
        " ON CONFLICT (id) DO UPDATE SET last_seen = excluded.last_seen",
        (to_db(now),),
    )
    return None if row is None else from_db(row[0])


class Heartbeat:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def beat(self) -> datetime | None:
        now = self.clock.now()
        return await self.db.write(lambda conn: beat(conn, now))
