"""Keep-alive HTTP/1.1 connections for interaction callbacks, without aiohttp's client.

Every command and click is answered by one POST to `/interactions/{id}/{token}/callback`. Through
aiohttp's `ClientSession.request` that POST was the largest single cost of a command in the bot's loop:
a request object, its headers as a multidict, the URL parsed by yarl, cookie and trace hooks, a timer,
then a response object. Measured at one user, sending `/profile`'s callback over a plain keep-alive
connection instead took 13 to 28 % off the bot's CPU per command (README, "The bot's own cost per
command"). The request here is written as bytes; the response is parsed by httptools (the llhttp
parser uvicorn uses), so no HTTP is parsed by hand. The same connections carry a deferred click's edit
of its response (a PATCH on the interaction's token, discord_app/callbacks.py).

What it keeps of aiohttp's behaviour: connections are reused while the server keeps them alive, a TLS
connection checks Discord's certificate with the system's trust store, and a connection the server
closed while it sat idle is replaced once, transparently (nothing reached the server). What it leaves
to discord_app/callbacks.py: the body (JSON, or the multipart form of a reply with files), proxies,
rate limits and error types, as discord.py handles them.
"""

from __future__ import annotations

import asyncio
import ssl
import sys
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

import discord
import httptools

CONNECT_TIMEOUT = 10.0  # seconds to open a connection (aiohttp's default for discord.py: 30)
REPLY_TIMEOUT = 30.0  # seconds from sending a callback to its whole reply; Discord answers in well under 1
# Idle connections kept per origin, as many as aiohttp's connector keeps for discord.py (100): at 50
# commands in flight, 32 opened about 240 new connections per 1,000 callbacks (and the bot's CPU per command
# rose 10 to 20 %); more are opened beyond it under load and closed after use.
MAX_IDLE = 100
# Seconds a connection may sit idle and still be reused, as aiohttp's connector (`keepalive_timeout`, 15):
# a connection idle for long may have been dropped on the way (a NAT's table) without a word, and a
# callback sent on it would wait for a reply that never comes, past its interaction's 3 seconds.
KEEPALIVE = 15.0
USER_AGENT = (
    f"DiscordBot (https://github.com/Rapptz/discord.py {discord.__version__}) "
    f"Python/{sys.version_info.major}.{sys.version_info.minor}"
)


@dataclass(frozen=True)
class Reply:
    """What discord.py's errors read of a response (`status`, `reason`), and what the adapter reads."""

    status: int
    reason: str
    headers: dict[str, str]  # names in lower case
    body: bytes


@dataclass(frozen=True)
class Origin:
    host: str
    port: int
    tls: bool


def split(url: str) -> tuple[Origin, str]:
    """(origin, path with query) of an absolute http(s) URL. Each callback's URL is new (it holds the
    interaction's id and token), so only its origin, which rarely changes, is parsed and remembered."""
    scheme, _, rest = url.partition("://")
    netloc, _, path = rest.partition("/")
    return _origin(scheme, netloc), "/" + path


@lru_cache(maxsize=16)
def _origin(scheme: str, netloc: str) -> Origin:
    parts = urlsplit(f"{scheme}://{netloc}")
    if scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) URL: {scheme}://{netloc}")
    tls = scheme == "https"
    return Origin(parts.hostname, parts.port or (443 if tls else 80), tls)


class StaleConnection(ConnectionError):
    """A reused connection the server had closed before it read the request: sending again is safe."""


class _Connection(asyncio.Protocol):
    """One keep-alive connection: one request at a time, its reply parsed as bytes arrive."""

    def __init__(self, reply_timeout: float) -> None:
        self.reply_timeout = reply_timeout
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.closed = False
        self.uses = 0  # requests sent; a reused connection's silent close is `StaleConnection`
        self.idle_since = 0.0  # the loop's time when it last went back to the pool
        self._waiter: asyncio.Future[Reply] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._received = False
        self._reason = ""
        self._headers: dict[str, str] = {}
        self._body: list[bytes] = []

    # asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self._received = True
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            self._fail(ConnectionError(f"unreadable HTTP reply: {exc}"))

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self._waiter is not None and not self._waiter.done():
            stale = self.uses > 0 and not self._received
            error = StaleConnection("closed before replying") if stale else ConnectionResetError("closed")
            self._fail(exc if exc is not None and not stale else error)

    # httptools callbacks
    def on_status(self, status: bytes) -> None:
        self._reason = status.decode("latin-1")

    def on_header(self, name: bytes, value: bytes) -> None:
        self._headers[name.decode("latin-1").lower()] = value.decode("latin-1")

    def on_body(self, body: bytes) -> None:
        self._body.append(body)

    def on_message_complete(self) -> None:
        reply = Reply(self.parser.get_status_code(), self._reason, self._headers, b"".join(self._body))
        if not self.parser.should_keep_alive():
            self.close()
        self._settle()
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(reply)

    # use
    async def send(self, request: bytes) -> Reply:
        assert self.transport is not None
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[Reply] = loop.create_future()
        self._waiter = waiter
        self._received, self._reason, self._headers, self._body = False, "", {}, []
        limit = self.reply_timeout
        self._timer = loop.call_later(limit, self._fail, TimeoutError(f"no reply within {limit} s"))
        self.transport.write(request)
        try:
            return await waiter
        finally:
            self._settle()
            self.uses += 1

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()

    def _settle(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _fail(self, exc: BaseException) -> None:
        self.close()  # a connection in an unknown state is never reused
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_exception(exc)


class CallbackHttp:
    """A pool of keep-alive connections per origin, for one event loop (discord_app/callbacks.py)."""

    def __init__(
        self, *, connect_timeout: float = CONNECT_TIMEOUT, reply_timeout: float = REPLY_TIMEOUT
    ) -> None:
        self.connect_timeout = connect_timeout
        self.reply_timeout = reply_timeout
        self.opened = 0  # connections opened so far; tests and benchmarks read it
        self._idle: dict[Origin, list[_Connection]] = {}
        self._tls: ssl.SSLContext | None = None

    async def post_json(self, url: str, body: bytes) -> Reply:
        return await self.send("POST", url, body, "application/json")

    async def send(self, method: str, url: str, body: bytes, content_type: str) -> Reply:
        """`body` (JSON, or a multipart form: discord_app/callbacks.py `multipart_body`) and its reply."""
        origin, path = split(url)
        request = (
            f"{method} {path} HTTP/1.1\r\nHost: {origin.host}\r\nUser-Agent: {USER_AGENT}\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode("latin-1") + body
        return await self.request(origin, request)

    async def request(self, origin: Origin, request: bytes, *, resend_stale: bool = True) -> Reply:
        """The reply to `request` (its bytes whole). A reused connection closed before any reply is
        `StaleConnection` unless `resend_stale`: the request goes again on a new connection then."""
        conn = self._take(origin)
        if conn is not None:
            try:
                return await self._exchange(origin, conn, request)
            except StaleConnection:
                if not resend_stale:
                    raise
        return await self._exchange(origin, await self._open(origin), request)

    async def close(self) -> None:
        idle, self._idle = self._idle, {}
        for connections in idle.values():
            for conn in connections:
                conn.close()

    def _take(self, origin: Origin) -> _Connection | None:
        """The most recently used idle connection; those idle for over `KEEPALIVE` are closed."""
        connections = self._idle.get(origin)
        if not connections:
            return None
        oldest_kept = asyncio.get_running_loop().time() - KEEPALIVE
        while connections and connections[0].idle_since < oldest_kept:  # in return order: oldest first
            connections.pop(0).close()
        while connections:
            conn = connections.pop()
            if not conn.closed:
                return conn
        return None

    async def _exchange(self, origin: Origin, conn: _Connection, request: bytes) -> Reply:
        try:
            reply = await conn.send(request)
        except BaseException:
            conn.close()  # failed, timed out or cancelled half-way: its state is unknown
            raise
        if not conn.closed:
            connections = self._idle.setdefault(origin, [])
            if len(connections) < MAX_IDLE:
                conn.idle_since = asyncio.get_running_loop().time()
                connections.append(conn)
            else:
                conn.close()
        return reply

    async def _open(self, origin: Origin) -> _Connection:
        loop = asyncio.get_running_loop()
        tls: ssl.SSLContext | None = None
        if origin.tls:
            if self._tls is None:
                self._tls = ssl.create_default_context()
            tls = self._tls
        async with asyncio.timeout(self.connect_timeout):
            _, conn = await loop.create_connection(
                lambda: _Connection(self.reply_timeout),
                origin.host,
                origin.port,
                ssl=tls,
                server_hostname=origin.host if tls else None,
            )
        self.opened += 1  # asyncio's TCP transports already set TCP_NODELAY
        return conn
