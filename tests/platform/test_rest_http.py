"""discord.py's REST requests sent by `RestSession` (discord_app/rest_http.py) are the requests aiohttp
sends for them, to the byte, and a reused connection found closed sends a request again only when aiohttp
would, or when Discord enforces the post's nonce. A scripted local server records every byte."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator, Callable
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import HTTPClient, Route, handle_message_parameters

from discord_app.rate_limit import FleetRateLimit
from discord_app.rest_http import RestSession, install

USER = b'{"id":"1","username":"bot","discriminator":"0","avatar":null}'
MESSAGE = b'{"id":"7","channel_id":"5","content":""}'


def ok(body: bytes = MESSAGE) -> bytes:
    head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nVia: 1.1 google\r\n"
    return f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body


class Recorder:
    """Answers each request with `answer(n)` (n: the request's rank on its connection; None: close the
    connection without a word) and keeps the requests."""

    def __init__(self, answer: Callable[[int], bytes | None] = lambda _n: ok()) -> None:
        self.answer = answer
        self.requests: list[bytes] = []
        self.connections = 0

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            for rank in range(1_000):
                head = await reader.readuntil(b"\r\n\r\n")
                sizes = [
                    int(v)
                    for k, _, v in (line.partition(b":") for line in head.split(b"\r\n"))
                    if k.lower() == b"content-length"
                ]
                self.requests.append(head + await reader.readexactly(sizes[0] if sizes else 0))
                answer = self.answer(rank)
                if answer is None:
                    break
                writer.write(answer)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()


@pytest.fixture
async def base(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Callable[[Recorder], Any]]:
    servers: list[asyncio.Server] = []

    async def start(recorder: Recorder) -> None:
        server = await asyncio.start_server(recorder.handle, "127.0.0.1", 0)
        servers.append(server)
        monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/api/v10")

    yield start
    for server in servers:
        server.close()


async def client(ours: bool) -> tuple[HTTPClient, FleetRateLimit]:
    rate_limit = FleetRateLimit()
    http = HTTPClient(asyncio.get_running_loop(), http_trace=rate_limit.trace)
    await http.static_login("TOKEN.x.y")
    if ours:
        install(http, rate_limit)
    return http, rate_limit


def post(nonce: str | None = "n1", files: bool = False) -> Any:
    return handle_message_parameters(
        content="Tour de « Alice »",
        nonce=nonce,
        files=[discord.File(io.BytesIO(b"\x89PNG\x00" * 40), "carte [1].png")]
        if files
        else discord.utils.MISSING,
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def calls(http: HTTPClient) -> None:
    """One of each kind of request the bot sends with its token."""
    with post() as params:
        await http.send_message(5, params=params)
    with post(files=True) as params:
        await http.send_message(5, params=params)
    with handle_message_parameters(content="Manche 2", embeds=[discord.Embed(title="Plateau")]) as params:
        await http.edit_message(5, 7, params=params)
    await http.start_private_message(42)
    await http.logs_from(5, 50, before=9)
    await http.add_reaction(5, 7, "👍")
    await http.delete_message(5, 7, reason="partie terminée")
    await http.edit_channel(5, archived=True, locked=False)
    await http.send_typing(5)


BOUNDARY = re.compile(rb"boundary=([0-9a-f]{32})")
DEFAULTS = {b"accept: */*", b"accept-encoding: gzip, deflate"}  # aiohttp's; Discord answers alike without


def normal(request: bytes) -> tuple[bytes, frozenset[bytes], bytes]:
    """(request line, header lines, body), the random multipart boundary made one."""
    request = re.sub(rb"Host: 127\.0\.0\.1:\d+", b"Host: 127.0.0.1:PORT", request)  # each server's port
    found = BOUNDARY.search(request)
    if found:
        request = request.replace(found.group(1), b"B" * 32)
    head, _, body = request.partition(b"\r\n\r\n")
    line, *headers = head.split(b"\r\n")
    return line, frozenset(h for h in headers if h.lower() not in DEFAULTS), body


async def test_every_request_is_the_one_aiohttp_sends(base: Callable[[Recorder], Any]) -> None:
    theirs, ours = Recorder(), Recorder()
    for recorder, mine in ((theirs, False), (ours, True)):
        await base(recorder)
        http, _ = await client(mine)
        await calls(http)
        await http.close()
    session_requests = [normal(r) for r in ours.requests]
    assert len(session_requests) == 10
    assert session_requests == [normal(r) for r in theirs.requests]
    assert b'filename="carte [1].png"' in ours.requests[2]


async def test_the_requests_go_over_one_kept_alive_connection(base: Callable[[Recorder], Any]) -> None:
    recorder = Recorder()
    await base(recorder)
    http, _ = await client(True)
    session = http._HTTPClient__session  # type: ignore[attr-defined]
    assert isinstance(session, RestSession)
    await calls(http)
    await http.close()
    assert (session.sent, session.http.opened) == (9, 1)
    assert recorder.connections == 2  # the login's, on aiohttp's connection, and the bot's own


async def stale(base: Callable[[Recorder], Any]) -> tuple[HTTPClient, Recorder]:
    """A client whose kept connection the server closes on the next request, without answering."""
    recorder = Recorder(lambda rank: ok() if rank == 0 else None)
    await base(recorder)
    http, _ = await client(True)
    with handle_message_parameters(content="a") as params:
        await http.edit_message(5, 7, params=params)
    return http, recorder


async def test_a_post_without_a_nonce_is_not_sent_twice(base: Callable[[Recorder], Any]) -> None:
    http, recorder = await stale(base)
    sent = len(recorder.requests)
    with post(nonce=None) as params, pytest.raises(aiohttp.ServerDisconnectedError):
        await http.send_message(5, params=params)
    assert len(recorder.requests) == sent + 1
    await http.close()


async def test_a_post_with_an_enforced_nonce_and_an_idempotent_request_are_sent_again(
    base: Callable[[Recorder], Any],
) -> None:
    http, recorder = await stale(base)
    sent = len(recorder.requests)
    with post(nonce="n2") as params:
        assert (await http.send_message(5, params=params))["id"] == "7"
    assert len(recorder.requests) == sent + 2
    assert recorder.requests[-1] == recorder.requests[-2]
    http2, recorder2 = await stale(base)
    await http2.delete_message(5, 7)
    assert [r.split(b" ")[0] for r in recorder2.requests[-2:]] == [b"DELETE", b"DELETE"]
    await http.close()
    await http2.close()


async def test_a_global_429_pauses_the_limiter_and_discord_py_waits_it_out(
    base: Callable[[Recorder], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    limited = b'{"message":"You are being rate limited.","retry_after":0.01,"global":true}'
    head = "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nVia: 1.1 google\r\n"
    answers = [ok(USER), f"{head}Content-Length: {len(limited)}\r\n\r\n".encode() + limited, ok()]
    recorder = Recorder(lambda _rank: answers.pop(0))
    await base(recorder)
    http, rate_limit = await client(True)
    paused: list[float] = []
    monkeypatch.setattr(rate_limit.limiter, "pause", paused.append)
    with post() as params:
        assert (await http.send_message(5, params=params))["id"] == "7"
    assert len(paused) == 1
    assert len(recorder.requests) == 3
    assert recorder.requests[1] == recorder.requests[2]
    await http.close()


async def test_a_5xx_is_retried_or_raised_by_discord_py_as_before(
    base: Callable[[Recorder], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 500 waited out (1 s, counted here instead) and sent again; a 503 raised at once."""
    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(discord.http, "asyncio", SimpleNamespace(**{**vars(asyncio), "sleep": sleep}))
    down = "HTTP/1.1 {}\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\ndown"
    answers = [
        ok(USER),
        down.format("500 Internal Server Error").encode(),
        ok(),
        down.format("503 No").encode(),
    ]
    recorder = Recorder(lambda _rank: answers.pop(0))
    await base(recorder)
    http, _ = await client(True)
    with post() as params:
        assert (await http.send_message(5, params=params))["id"] == "7"
    assert [w for w in waits if w] == [1]  # discord.py also yields with sleep(0)
    assert recorder.requests[1] == recorder.requests[2]
    with post() as params, pytest.raises(discord.DiscordServerError) as error:
        await http.send_message(5, params=params)
    assert (error.value.status, error.value.text) == (503, "down")
    await http.close()
