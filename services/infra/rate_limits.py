"""Discord's global rate limit, shared by the processes of a fleet (docs/deployment.md, "The global rate
limit").

Discord's "Rate Limits" page (discord-api-docs, developers/topics/rate-limits.mdx): "All bots can make up to
50 requests per second to our API", counted per bot token, whatever the route; interaction endpoints (the
callback, the follow-ups on the interaction's token) "are not bound to the bot's Global Rate Limit". Going
over it earns a 429 with `"global": true`, `X-RateLimit-Global: true` and `X-RateLimit-Scope: global`, and
every request of the bot must wait its `retry_after`. 429s count towards the invalid-request limit
(10,000 per 10 minutes per IP address, then a temporary ban), so the bot stays under rather than relies on
them.

- `Limiter`: each process sends at most `GLOBAL_PER_SECOND // N` counted requests in any `WINDOW` (N the
  processes of the fleet, `fleet_size`), so the fleet never sends more than 50 in a second. The window is a
  little longer than Discord's second: requests sent exactly a second apart may reach Discord closer
  together (a connection slower than the next), and the margin keeps them apart.
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
from collections import deque
from collections.abc import Awaitable, Callable
from functools import partial

from core.clock import SystemClock
from store.connection import Connection
from store.db import Database, Isolation, announce

log = logging.getLogger(__name__)

GLOBAL_PER_SECOND = 50  # Discord's global limit per bot (the "Rate Limits" page)
WINDOW = 1.1  # seconds in which a process sends at most its share: Discord's second and a 10 % margin
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
    """This process's share of the global limit, and the global pause it must honour."""

    def __init__(
        self,
        processes: int = 1,
        *,
        now: Callable[[], float] = wall_clock,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        window: float = WINDOW,
    ) -> None:
        self.now = now
        self.sleep = sleep
        self.window = window
        self.processes = processes
        self.paused_until = 0.0
        self._sent: deque[float] = deque(maxlen=GLOBAL_PER_SECOND)  # the last counted requests' times
        self.waited = 0  # requests that had to wait (a figure for logs and tests)

    @property
    def per_window(self) -> int:
        return max(1, GLOBAL_PER_SECOND // max(1, self.processes))

    def reserve(self) -> float:
        """The instant the next request may leave, counted from then: after the pause, and a window after
        the request `per_window` places before it. Reservations are handed out in order, so concurrent
        requests leave in the order they asked."""
        at = max(self.now(), self.paused_until)
        if self._sent:
            at = max(at, self._sent[-1])
        if len(self._sent) >= self.per_window:
            at = max(at, self._sent[-self.per_window] + self.window)
        self._sent.append(at)
        return at

    async def acquire(self) -> None:
        """Wait for this request's turn. No await at all when it is due now (the common case)."""
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
