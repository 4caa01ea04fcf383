"""discord.py's REST requests over the bot's own keep-alive connections (discord_app/callback_http.py).

Every request carrying the bot's token (the deliverer's posts and edits, DMs, DM channels, threads,
fetches, the command sync) goes through discord.py's `HTTPClient.request`, which keeps running whole: its
per-route buckets, its global lock, its handling of 429s, 5xx and errors. Only what it calls to send
each attempt changes: its aiohttp session's `request(method, url, **kwargs)`. `RestSession` stands in for
that session. A request without a proxy is written as the bytes aiohttp writes for it (the path and query
as yarl quotes them, discord.py's headers, the body: its JSON text, or its `FormData` written by aiohttp's
own multipart writer) and sent over a pool of kept-alive connections; the reply comes back as the few
things discord.py reads of aiohttp's response (`status`, `reason`, `headers`, `text()`). The fleet's
rate limit, which hooks aiohttp's trace (discord_app/rate_limit.py), is called at the same two points:
before each attempt is sent and when its reply's head is in. Anything else (a proxy, the gateway's
`ws_connect`, the CDN's `get`, `close`) is the aiohttp session's, as before.

aiohttp's client was most of a post's cost on the loop beyond discord.py's own: a request object,
headers as multidicts, cookie and trace machinery, timers, a response object and its stream. Measured
alone, a post through discord.py's `send_message` against a local server, limiter's pacing left out, the
client's CPU: 285 to 350 us through aiohttp, 135 us this way; in the bot, a Chocobataille turn's loop
(two posts) 3.91 → 3.22 ms (docs/performance.md).

A connection the server closed while it sat idle is found when the request sent on it gets no reply at
all. aiohttp sends again then only for idempotent methods (RFC 9112 §9.3.1); so does this, and also for
a message posted with a nonce Discord enforces (`enforce_nonce`, which discord.py sets with every
nonce): Discord answers a repeat with the message already created. Otherwise the error is aiohttp's
(`ServerDisconnectedError`), which callers already handle as a transient failure.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

import aiohttp
import orjson
from multidict import CIMultiDict
from yarl import URL

from discord_app.callback_http import CallbackHttp, Origin, Reply, StaleConnection, split
from discord_app.rate_limit import FleetRateLimit

# aiohttp's defaults for discord.py's session: `ClientTimeout(total=300, sock_connect=30)`
CONNECT_TIMEOUT = 30.0
REPLY_TIMEOUT = 300.0
IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"})  # aiohttp's, sent again
BODILESS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})  # no Content-Length without a body
TYPED = frozenset({"PATCH", "POST", "PUT"})  # application/octet-stream without a body or a type
OURS = frozenset({"headers", "data", "params"})  # what discord.py passes without a proxy
NONCE_ENFORCED = b'"enforce_nonce":true'


class RestResponse:
    """What discord.py's `HTTPClient.request`, its errors and its `Ratelimit.update` read of a response."""

    __slots__ = ("body", "headers", "reason", "status")

    def __init__(self, reply: Reply) -> None:
        self.status = reply.status
        self.reason = reply.reason
        self.headers: CIMultiDict[str] = CIMultiDict(reply.headers)
        self.body = reply.body

    @property
    def content_type(self) -> str:
        return self.headers.get("Content-Type", "").partition(";")[0].strip().lower()

    async def text(self, encoding: str | None = None) -> str:
        return self.body.decode(encoding or "utf-8")

    async def read(self) -> bytes:
        return self.body


class _Exchange:
    """`session.request(...)`'s async context manager: the reply is read whole on entry."""

    __slots__ = ("kwargs", "method", "session", "url")

    def __init__(self, session: RestSession, method: str, url: str, kwargs: dict[str, Any]) -> None:
        self.session, self.method, self.url, self.kwargs = session, method, url, kwargs

    async def __aenter__(self) -> RestResponse:
        return await self.session.send(self.method, self.url, self.kwargs)

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None


class RestSession:
    """discord.py's aiohttp session with its `request` sent over `CallbackHttp` (`install`)."""

    def __init__(self, session: aiohttp.ClientSession, rate_limit: FleetRateLimit) -> None:
        self.aiohttp = session
        self.rate_limit = rate_limit
        self.http = CallbackHttp(connect_timeout=CONNECT_TIMEOUT, reply_timeout=REPLY_TIMEOUT)
        self.sent = 0  # requests sent over `http`; tests and benchmarks read it

    def __getattr__(self, name: str) -> Any:
        return getattr(self.aiohttp, name)

    def __bool__(self) -> bool:
        return True

    @property
    def closed(self) -> bool:
        return self.aiohttp.closed

    async def close(self) -> None:
        await self.http.close()
        await self.aiohttp.close()

    def request(self, method: str, url: str, **kwargs: Any) -> Any:
        data = kwargs.get("data")
        if (
            not OURS.issuperset(kwargs)
            or not (data is None or isinstance(data, str | aiohttp.FormData))
            or method == "HEAD"  # a reply without the body its head announces: aiohttp's
        ):
            return self.aiohttp.request(method, url, **kwargs)
        return _Exchange(self, method, url, kwargs)

    async def send(self, method: str, url: str, kwargs: dict[str, Any]) -> RestResponse:
        headers: dict[str, str] = kwargs["headers"]
        target = URL(url)
        params = kwargs.get("params")
        if params:
            target = target.extend_query(params)
        origin, _ = split(url)
        body, content_type = await _body(kwargs.get("data"))
        head = [f"{method} {target.raw_path_qs} HTTP/1.1", f"Host: {target.host_port_subcomponent}"]
        head += [f"{name}: {value}" for name, value in headers.items()]
        if body or method not in BODILESS:
            head.append(f"Content-Length: {len(body)}")
        if content_type is not None and "Content-Type" not in headers:
            head.append(f"Content-Type: {content_type}")
        elif content_type is None and method in TYPED and "Content-Type" not in headers:
            head.append("Content-Type: application/octet-stream")
        request = ("\r\n".join(head) + "\r\n\r\n").encode("utf-8") + body
        counted = await self.rate_limit.before(headers, target.raw_path)
        resend = method in IDEMPOTENT or NONCE_ENFORCED in body
        reply = await self._exchange(origin, request, resend)
        self.sent += 1
        response = RestResponse(reply)
        if counted and reply.status == 429:
            data = _json(response) if response.content_type == "application/json" else None
            self.rate_limit.after(method, url, reply.status, response.headers, data)
        return response

    async def _exchange(self, origin: Origin, request: bytes, resend: bool) -> Reply:
        """The reply, with aiohttp's exceptions for what went wrong on the way."""
        try:
            return await self.http.request(origin, request, resend_stale=resend)
        except StaleConnection as exc:
            raise aiohttp.ServerDisconnectedError() from exc
        except TimeoutError as exc:
            raise aiohttp.ServerTimeoutError(str(exc)) from exc
        except ConnectionResetError as exc:
            raise aiohttp.ServerDisconnectedError() from exc
        except OSError as exc:
            if isinstance(exc, aiohttp.ClientError):
                raise
            raise aiohttp.ClientOSError(exc.errno, str(exc)) from exc


def install(client_http: Any, rate_limit: FleetRateLimit) -> RestSession:
    """Put a `RestSession` in place of discord.py's session, once `static_login` has opened it."""
    current = client_http._HTTPClient__session
    if isinstance(current, RestSession):
        return current
    session = RestSession(current, rate_limit)
    client_http._HTTPClient__session = session
    return session


class _Collected:
    """A stream aiohttp's payloads write into (`Payload.write(writer)`)."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    async def write(self, data: bytes | bytearray | memoryview) -> None:
        self.parts.append(bytes(data))


async def _body(data: str | aiohttp.FormData | None) -> tuple[bytes, str | None]:
    """(bytes, default content type) as aiohttp writes `data`; a form by aiohttp's own writer."""
    if data is None:
        return b"", None
    if isinstance(data, str):
        return data.encode("utf-8"), "text/plain; charset=utf-8"
    payload = data()
    stream = _Collected()
    await payload.write(stream)  # type: ignore[arg-type]
    return b"".join(stream.parts), payload.content_type


def _json(response: RestResponse) -> object:
    try:
        return orjson.loads(response.body)
    except orjson.JSONDecodeError:
        return None
