"""Discord's global rate limit, shared by the processes of a fleet (docs/deployment.md, "The global rate
limit").

Discord's "Rate Limits" page (discord-api-docs, developers/topics/rate-limits.mdx): "All bots can make up to
50 requests per second to our API", counted per bot token, whatever the route; interaction endpoints (the
callback, the follow-ups on the interaction's token) "are not bound to the bot's Global Rate Limit". Going
over it earns a 429 with `"global": true`, `X-RateLimit-Global: true` and `X-RateLimit-Scope: global`, and
every request of the bot must wait its `retry_after`. 429s count towards the invalid-request limit
(10,000 per 10 minutes per IP address, then a temporary ban), so the bot stays under rather than relies on
them.

- `Limiter`: each process's share is `GLOBAL_PER_SECOND / N` (N the processes of the fleet, `fleet_size`):
  a small burst (`burst`, 5 % of the share, at least 1) and then evenly spaced requests at 85 % of the
  share (`rate`), so that in any second a process sends at most `burst + rate`, about 90 % of its share,
  and the fleet about 45 requests. The other 10 % absorb the network's jitter: requests that left evenly
  spaced may arrive closer together. Evenly spaced rather than a whole second's share at once: a burst of
  25 requests opens 25 connections and reaches Discord spread over a fraction of a second, closer to the
  next second's than they left (the two-process test drew a 429 from the emulator that way); spaced
  requests keep the margin whatever the connections do.
- A global 429 seen by one process (discord_app/rate_limit.py) pauses its own limiter until the instant
  Discord named, and is written to the `rate_limit_pauses` row (`record_pause`) with a notification
  (`TOPIC`): every other process reads it (`SharedPause.refresh`) and pauses too. Nothing is polled: on
  PostgreSQL the notification reaches the other processes within milliseconds (their LISTEN connection),
  and a process whose LISTEN connection was down is told "anything may have changed" on reconnecting
  and reads the row again; a process starting reads it once.

Times are wall-clock seconds since the epoch (`now`, injected; `wall_clock` in the bot): the instant a
pause ends is shared between processes, possibly on different machines, which agree on the wall clock and
not on a monotonic one. Not the bot's injected `Clock`, which tests move by hand: the limit is Discord's,
in real seconds.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable
from functools import partial

from core.clock import SystemClock
from store.connection import Connection
from store.db import Database, Isolation, announce

log = logging.getLogger(__name__)

GLOBAL_PER_SECOND = 50  # Discord's global limit per bot (the "Rate Limits" page)
RATE_PART = 0.85  # of a process's share: its steady rate
BURST_PART = 0.05  # of a process's share: what may leave at once after a quiet moment
TOPIC = "rate_limit"  # announced when a process records a global pause
SCOPE = "global"  # the row of `rate_limit_pauses` a global 429 writes
_SYSTEM = SystemClock()


def wall_clock() -> float:
    """Real seconds since the epoch."""
    return _SYSTEM.now().timestamp()


def fleet_size(shard_count: int | None, shards: tuple[int, ...] | None, live: int = 1) -> int:
    """How many processes share the bot's global limit, as this process can tell.

    From the settings: SHARD_COUNT shards, this process holding `len(shards)` of them, so the fleet has
    `ceil(SHARD_COUNT / len(SHARD_IDS))` processes when each holds as many (bot.py's deployment: one
    shard each). From the heartbeats: `live` processes connected to the database (services/infra/heartbeat.py,
    counted at each beat). The larger one: a process started beside the planned fleet (a rolling restart)
    shows in the heartbeats before the settings know of it, and a planned process not up yet will be."""
    planned = 1 if shard_count is None or not shards else math.ceil(shard_count / len(shards))
    return max(1, planned, live)


class Limiter:
    """This process's share of the global limit, and the global pause it must honour.

    A generic cell rate algorithm: `_next` is when the next request would leave if requests left one
    every `1 / rate` seconds; a request may leave up to `burst - 1` intervals before it."""

    def __init__(
        self,
        processes: int = 1,
        *,
        now: Callable[[], float] = wall_clock,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.now = now
        self.sleep = sleep
        self.processes = processes
        self.paused_until = 0.0
        self._next = 0.0
        self.bounded = True  # False: every request goes at once (the sandbox, whose Discord is the emulator)
        self.requests = 0  # requests that asked for their turn
        self.waited = 0  # of them, those that had to wait

    @property
    def share(self) -> float:
        """Requests a second this process may send."""
        return GLOBAL_PER_SECOND / max(1, self.processes)

    @property
    def rate(self) -> float:
        return self.share * RATE_PART

    @property
    def burst(self) -> int:
        return max(1, math.floor(self.share * BURST_PART))

    def reserve(self) -> float:
        """The instant the next request may leave. Handed out in order: concurrent requests leave in the
        order they asked."""
        interval = 1 / self.rate
        at = max(self.now(), self.paused_until, self._next - (self.burst - 1) * interval)
        self._next = max(self._next, at) + interval
        return at

    async def acquire(self) -> None:
        """Wait for this request's turn. No await at all when it is due now (the common case)."""
        self.requests += 1
        if not self.bounded:
            return
        at = self.reserve()
        while True:
            wait = at - self.now()
            if wait > 0:
                self.waited += 1
                await self.sleep(wait)
            if self.now() >= self.paused_until:
                return
            at = self.reserve()  # a global pause came while this request waited: queued behind it

    def pause(self, until: float) -> bool:
        """Send nothing before `until`; True if that moved the pause later."""
        if until <= self.paused_until:
            return False
        self.paused_until = until
        return True


def record_pause(conn: Connection, until: float, process: str) -> None:
    """Write a global pause for every process; a later pause already written is kept."""
    conn.execute(
        "INSERT INTO rate_limit_pauses (scope, until_s, set_by) VALUES (?, ?, ?)"
        " ON CONFLICT (scope) DO UPDATE SET until_s = excluded.until_s, set_by = excluded.set_by"
        " WHERE rate_limit_pauses.until_s < excluded.until_s",
        (SCOPE, until, process),
    )
    announce(conn, TOPIC)


def read_pause(conn: Connection) -> float:
    row = conn.execute("SELECT until_s FROM rate_limit_pauses WHERE scope = ?", (SCOPE,)).fetchone()
    return 0.0 if row is None else float(row[0])


class SharedPause:
    """Carries global pauses between this process's limiter and the fleet's database."""

    def __init__(self, db: Database, limiter: Limiter) -> None:
        self.db = db
        self.limiter = limiter
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self.db.subscribe(TOPIC, self._changed)
        await self.refresh()

    async def close(self) -> None:
        self.db.unsubscribe(TOPIC, self._changed)
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def refresh(self) -> None:
        until = await self.db.read(read_pause)
        if self.limiter.pause(until):
            log.warning("the fleet is globally rate limited for %.2f s", until - self.limiter.now())

    def publish(self, until: float) -> None:
        """A global 429 here: pause this process now, and the others through the database."""
        self.limiter.pause(until)
        unit = partial(record_pause, until=until, process=self.db.process)
        self._spawn(self.db.write(unit, isolation=Isolation.READ_COMMITTED))

    def _changed(self) -> None:
        self._spawn(self.refresh())

    def _spawn(self, work: Awaitable[object]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:  # the limiter still paces, and this process's own pause stands
                log.exception("could not share the global rate limit")

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
