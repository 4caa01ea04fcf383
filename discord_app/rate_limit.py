"""Every REST request of the bot through the fleet's global rate limit (services/infra/rate_limits.py).

One place: an aiohttp trace on discord.py's HTTP session (the client's `http_trace`), whose request-start
hook is awaited before each attempt is sent, retries included, and whose request-end hook sees each
answer's status and headers. So every call discord.py makes with the bot's token (posts, edits, DMs,
fetches, the command sync) waits for its turn, whatever code asked for it. The requests sent over the
bot's own connections instead of aiohttp's client (discord_app/rest_http.py) call the same hooks'
logic at the same two points (`FleetRateLimit.before`, `after`).

Counted: requests carrying the bot's `Authorization` (Discord counts the global limit per token). Not
counted: interaction callbacks and follow-ups (the page exempts interaction endpoints; discord.py sends
follow-ups on the interaction's token, without the bot's, and callbacks through
discord_app/callback_http.py), the gateway's connection and the CDN.

A 429 whose scope is global (`X-RateLimit-Global: true` or `X-RateLimit-Scope: global`, or `"global": true`)
pauses every process until its `retry_after` has passed. discord.py still handles it too (it sleeps that
long and sends again, and blocks the process's other requests meanwhile); a per-route 429 (scope `user`
or `shared`) stays discord.py's alone, as its buckets do.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from types import SimpleNamespace

import aiohttp

from services.infra.rate_limits import Limiter

log = logging.getLogger("bot.rate_limit")

EXEMPT = "/interactions/"  # an interaction callback sent through discord.py (one with files)


def counted(params: aiohttp.TraceRequestStartParams | aiohttp.TraceRequestEndParams) -> bool:
    """Whether the global limit counts this request."""
    return is_counted(params.headers, params.url.path)


def is_counted(headers: Mapping[str, str], path: str) -> bool:
    """Whether the global limit counts a request with these headers to this path."""
    return "Authorization" in headers and EXEMPT not in path


async def global_wait(response: aiohttp.ClientResponse) -> float | None:
    """The seconds a 429 asks the whole bot to wait, or None when it is not the global limit."""
    data: object = None
    if response.content_type == "application/json":
        try:
            data = json.loads(await response.read())
        except (ValueError, aiohttp.ClientError):
            data = None
    return global_wait_of(response.headers, data)


def global_wait_of(headers: Mapping[str, str], data: object) -> float | None:
    """`global_wait` from a 429's headers (case-insensitive) and its JSON body (None if it has none)."""
    body = data if isinstance(data, dict) else {}
    scope_global = headers.get("X-RateLimit-Scope", "").lower() == "global"
    if not (scope_global or headers.get("X-RateLimit-Global", "").lower() == "true" or body.get("global")):
        return None
    retry_after = body.get("retry_after")
    if isinstance(retry_after, int | float):
        return float(retry_after)
    try:
        return float(headers.get("Retry-After", "1"))
    except ValueError:
        return 1.0


def paused(limiter: Limiter, on_global: Callable[[float], None], method: str, url: str, wait: float) -> None:
    """This process's limiter paused for a global 429's `wait`, then the fleet told (`on_global`)."""
    until = limiter.now() + wait
    log.warning("global rate limit: %s %s, every process waits %.2f s", method, url, wait)
    limiter.pause(until)
    on_global(until)


def trace_config(limiter: Limiter, on_global: Callable[[float], None]) -> aiohttp.TraceConfig:
    """The trace for discord.py's client: `on_global(until)` is called at each global 429 (wall-clock
    instant, the limiter's clock), after this process's limiter was paused."""

    async def start(
        session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestStartParams
    ) -> None:
        if counted(params):
            await limiter.acquire()

    async def end(
        session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
    ) -> None:
        if params.response.status != 429 or not counted(params):
            return
        wait = await global_wait(params.response)
        if wait is not None:
            paused(limiter, on_global, params.method, str(params.url), wait)

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(start)
    trace.on_request_end.append(end)
    return trace


class FleetRateLimit:
    """The bot's limiter and its trace; shared with the fleet once the database is open (`share`)."""

    def __init__(self, limiter: Limiter | None = None) -> None:
        self.limiter = limiter or Limiter()
        self.trace = trace_config(self.limiter, self._global)
        self._publish: Callable[[float], None] | None = None

    async def before(self, headers: Mapping[str, str], path: str) -> bool:
        """The trace's request-start hook, for a request sent without aiohttp (discord_app/rest_http.py):
        whether the request is counted, once its turn has come."""
        if not is_counted(headers, path):
            return False
        await self.limiter.acquire()
        return True

    def after(self, method: str, url: str, status: int, headers: Mapping[str, str], data: object) -> None:
        """The trace's request-end hook for a counted request sent the same way: `headers` the reply's
        (case-insensitive), `data` its JSON body (None if it has none)."""
        if status != 429:
            return
        wait = global_wait_of(headers, data)
        if wait is not None:
            paused(self.limiter, self._global, method, url, wait)

    def share(self, publish: Callable[[float], None] | None) -> None:
        """Where a global 429 is told to the fleet (None: this process only, e.g. once the database closed)."""
        self._publish = publish

    def _global(self, until: float) -> None:
        if self._publish is not None:
            self._publish(until)
