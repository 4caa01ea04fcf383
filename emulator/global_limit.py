"""Discord's global rate limit, as the emulator enforces it: 50 requests a second per bot token, over every
connection (two processes of one bot share it), interaction endpoints excepted.

From Discord's "Rate Limits" page: "All bots can make up to 50 requests per second to our API";
individuals are "determined using a request's authentication"; "Interaction endpoints are not bound to the
bot's Global Rate Limit" (the callback, and the webhook routes on an interaction's token). A request over
the limit is answered as the page's "Example Exceeded Global Rate Limit Response": 429, `X-RateLimit-Global:
true`, `X-RateLimit-Scope: global`, `"global": true` and the `retry_after` until the token's oldest request
of the last second leaves it. A refused request is not counted.
"""

from __future__ import annotations

import math
import re
import time
from collections import deque
from collections.abc import Callable

from emulator.payloads import JsonDict

PER_SECOND = 50
INTERACTION_ENDPOINT = re.compile(r"/interactions/\d+/[^/]+/callback|/webhooks/\d+/[^/]+(/.*)?")


def exempt(path: str) -> bool:
    """An interaction endpoint (path relative to /api/v10)."""
    return INTERACTION_ENDPOINT.fullmatch(path) is not None


class GlobalLimit:
    def __init__(self, per_second: int = PER_SECOND, *, now: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_second
        self.now = now
        self._recent: dict[str, deque[float]] = {}
        self.refused = 0

    def check(self, token: str | None, path: str) -> float | None:
        """Count a request; None if it may be served, else the seconds the token must wait."""
        if token is None or exempt(path):
            return None
        now = self.now()
        recent = self._recent.setdefault(token, deque())
        while recent and recent[0] <= now - 1.0:
            recent.popleft()
        if len(recent) >= self.per_second:
            self.refused += 1
            return max(recent[0] + 1.0 - now, 0.001)
        recent.append(now)
        return None


def global_429(retry_after: float) -> tuple[int, JsonDict, dict[str, str]]:
    body: JsonDict = {"message": "You are being rate limited.", "retry_after": retry_after, "global": True}
    headers = {
        "Via": "1.1 google",  # discord.py takes a 429 without it for a Cloudflare ban
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Global": "true",
        "X-RateLimit-Scope": "global",
    }
    return 429, body, headers
