"""The fleet's signs of life: one row per process, so that a game can tell how long the whole bot was down,
and a process can tell that another one died.

Each process (`Database.process`) writes its own row every `period` (a minute) while it runs and once more
at a clean shutdown. At start-up, the time since the last beat of ANY process is the downtime (a server
may choose to give it back to its players' deadlines, see services/choco/deadlines.py): a process
restarted while another one runs sees none; after an outage of the whole fleet, the first process up sees
all of it, and only that one, because reading the last sign and writing its own are one unit. With one
process (SQLite) this is the single row it always was.

A peer whose connection is gone (`store.db.still_connected`: its live lock is free) and that has not
beaten for `DEAD_AFTER` period is taken for dead: the outbox items its deliverer had claimed are released
at once (services/infra/outbox.py `release_claims`) rather than when the claims run out. The lock is
what tells a dead process from a slow one (a process slowed down by a storm of units beats late, but is
still connected), so the silence asked for is one period, not more; it is kept as a second witness for
a live process whose LISTEN connection alone is down (the lock goes with it, while its beats, through
the pool, go on): docs/deployment.md, "Several processes". A peer silent but connected (hung) keeps its
claims until they run out.
Its jobs need nothing: a job fires in one transaction, which the dead process's lost connection rolled
back. Rows silent for `FORGET_AFTER` are deleted, never the beating process's own, which is then the
newest: the fleet's last sign of life is never lost.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from core.clock import Clock, from_db, to_db
from services.infra.outbox import release_claims
from services.infra.shards import Shards
from store.connection import Connection
from store.db import Database, still_connected

log = logging.getLogger(__name__)

PERIOD = timedelta(minutes=1)
DEAD_AFTER = 1  # periods without a beat after which a peer without its live lock is taken for dead
FORGET_AFTER = timedelta(days=7)


@dataclass(frozen=True)
class Beat:
    previous: datetime | None  # the fleet's last sign of life before this beat (None: a fresh database)
    taken_over: dict[str, int]  # silent peers whose claimed outbox items were released, and how many
    fleet: int = 1  # processes connected to the database (`still_connected`), this one included


def beat(
    conn: Connection, process: str, now: datetime, dead_after: timedelta, shards: Shards | None = None
) -> Beat:
    """Record this process's sign of life and the shards it holds (services/infra/shards.py), release
    what silent peers held, forget long-gone ones."""
    row = conn.execute("SELECT MAX(last_seen) FROM heartbeats").fetchone()
    count, ids = (None, None) if shards is None else (shards.count, shards.text())
    conn.execute(
        "INSERT INTO heartbeats (process, started_at, last_seen, shard_count, shard_ids) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (process) DO UPDATE SET last_seen = excluded.last_seen,"
        " shard_count = excluded.shard_count, shard_ids = excluded.shard_ids",
        (process, to_db(now), to_db(now), count, ids),
    )
    peers = conn.execute(
        "SELECT process, last_seen FROM heartbeats WHERE process <> ? ORDER BY process", (process,)
    ).fetchall()
    connected = {str(peer) for peer, _ in peers if still_connected(conn, str(peer))}
    silent = [str(peer) for peer, seen in peers if from_db(seen) < now - dead_after]
    dead = [peer for peer in silent if peer not in connected]
    taken_over = {peer: n for peer in dead if (n := release_claims(conn, [peer]))}
    conn.execute(
        "DELETE FROM heartbeats WHERE process <> ? AND last_seen < ?", (process, to_db(now - FORGET_AFTER))
    )
    previous = None if row is None or row[0] is None else from_db(row[0])
    return Beat(previous, taken_over, 1 + len(connected))


class Heartbeat:
    def __init__(
        self, db: Database, clock: Clock, *, period: timedelta = PERIOD, shards: Shards | None = None
    ) -> None:
        """`period`: how often the caller beats (a minute; tests run faster); a disconnected peer is dead
        after `DEAD_AFTER` of them. `shards`: those this process holds, written with each beat."""
        self.db = db
        self.clock = clock
        self.period = period
        self.shards = shards
        self.fleet = (
            1  # processes beating, as of the last beat: their share of the rate limit (rate_limits.py)
        )

    async def beat(self) -> datetime | None:
        """Beat; returns the fleet's previous sign of life."""
        now, process, dead_after = self.clock.now(), self.db.process, DEAD_AFTER * self.period
        done = await self.db.write(lambda conn: beat(conn, process, now, dead_after, self.shards))
        self.fleet = done.fleet
        for peer, items in done.taken_over.items():
            log.warning("process %s silent for %s: took over %d outbox item(s)", peer, dead_after, items)
        return done.previous
