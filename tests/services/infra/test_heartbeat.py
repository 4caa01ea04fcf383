"""One sign of life per process: the downtime is the whole fleet's, a silent peer's outbox claims are taken
over, long-gone rows are forgotten. Runs on SQLite and, with `TEST_DATABASE=postgresql`, on PostgreSQL."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from core.clock import ManualClock, from_db, to_db
from services.infra import outbox
from services.infra.heartbeat import DEAD_AFTER, FORGET_AFTER, PERIOD, Heartbeat, beat
from services.infra.messages import MessageSpec, Target, Text
from store.connection import Connection
from store.db import Database

DEAD = DEAD_AFTER * PERIOD


async def _beat(db: Database, process: str, now: datetime) -> datetime | None:
    return (await db.write(partial(beat, process=process, now=now, dead_after=DEAD))).previous


async def test_the_downtime_is_the_whole_fleets(db: Database) -> None:
    clock = ManualClock()
    t0 = clock.now()
    assert await _beat(db, "a", t0) is None  # a fresh database
    assert await _beat(db, "b", t0 + timedelta(seconds=30)) == t0
    # "a" restarts under a new name while "b" runs: the fleet was never down
    assert await _beat(db, "a2", t0 + timedelta(seconds=50)) == t0 + timedelta(seconds=30)
    # every process stops; two hours later the first one up sees the whole outage, the next one does not
    back = t0 + timedelta(hours=2)
    assert await _beat(db, "a3", back) == t0 + timedelta(seconds=50)
    assert await _beat(db, "b2", back + timedelta(seconds=5)) == back


async def test_the_heartbeat_of_one_process_is_what_it_always_was(db: Database) -> None:
    """One process (SQLite's deployment): each beat returns the previous one, whatever restarts between."""
    clock = ManualClock()
    heart = Heartbeat(db, clock)
    assert await heart.beat() is None
    first = clock.now()
    clock.advance(PERIOD)
    assert await heart.beat() == first
    restarted = Heartbeat(db, clock)  # the same process name: one handle, one row
    clock.advance(timedelta(hours=3))
    assert await restarted.beat() == first + PERIOD
    rows = await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM heartbeats").fetchone()[0])
    assert rows == 1


def _claimed_item(conn: Connection, now: datetime, process: str) -> int:
    item = outbox.enqueue(conn, now, Target("channel", 5, guild_id=None), MessageSpec(content=Text.raw("hi")))
    conn.execute(
        "UPDATE outbox SET claimed_until = ?, claimed_by = ? WHERE id = ?",
        (to_db(now + outbox.CLAIM), process, item),
    )
    return item


async def test_a_silent_peers_claims_are_released_after_dead_after_periods(db: Database) -> None:
    clock = ManualClock()
    t0 = clock.now()
    await _beat(db, "dead", t0)
    item = await db.write(partial(_claimed_item, now=t0, process="dead"))
    kept = await db.write(partial(_claimed_item, now=t0, process="alive"))
    woken: list[None] = []
    db.subscribe(outbox.TOPIC, lambda: woken.append(None))

    await _beat(db, "alive", t0 + DEAD)  # silent for exactly DEAD_AFTER periods: not yet
    claims = "SELECT id, claimed_by FROM outbox ORDER BY id"
    assert await db.read(lambda c: [tuple(r) for r in c.execute(claims)]) == [(item, "dead"), (kept, "alive")]
    assert woken == []

    done = await db.write(
        partial(beat, process="alive", now=t0 + DEAD + timedelta(seconds=1), dead_after=DEAD)
    )
    assert done.taken_over == {"dead": 1}
    assert await db.read(lambda c: [tuple(r) for r in c.execute(claims)]) == [(item, None), (kept, "alive")]
    assert woken == [None]  # this process's deliverer looks at once
    again = await db.write(partial(beat, process="alive", now=t0 + 2 * DEAD, dead_after=DEAD))
    assert again.taken_over == {}  # nothing left to take


async def test_long_gone_rows_are_forgotten_but_not_the_last_sign_of_life(db: Database) -> None:
    clock = ManualClock()
    t0 = clock.now()
    await _beat(db, "old", t0)
    await _beat(db, "older", t0 - timedelta(hours=1))
    later = t0 + FORGET_AFTER - timedelta(minutes=30)  # "older" is past FORGET_AFTER, "old" is not
    assert await _beat(db, "new", later) == t0
    heartbeats = "SELECT process, last_seen FROM heartbeats ORDER BY process"
    rows = await db.read(lambda c: [tuple(r) for r in c.execute(heartbeats)])
    assert rows == [("new", to_db(later)), ("old", to_db(t0))]
    # a whole fleet down for longer than FORGET_AFTER: the outage still counts from its last beat
    back = later + FORGET_AFTER * 2
    assert await _beat(db, "back", back) == later
    rows = await db.read(lambda c: [tuple(r) for r in c.execute(heartbeats)])
    assert [(name, from_db(seen)) for name, seen in rows] == [("back", back)]
