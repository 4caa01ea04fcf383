"""The keep-alive connections that carry interaction callbacks (discord_app/callback_http.py), and the
adapter's handling of Discord's replies over them (discord_app/callbacks.py), against a scripted local
HTTP server: every byte the server sends is written here, so each case is exact."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, cast

import aiohttp
import discord
import orjson
import pytest
from discord.errors import DiscordServerError, Forbidden, HTTPException, NotFound
from discord.http import MultipartParameters, Route
from discord.webhook.async_ import interaction_message_response_params

from discord_app.callback_http import USER_AGENT, CallbackHttp, split
from discord_app.callbacks import CallbackAdapter, with_message

Answer = Callable[[bytes], bytes | None]  # request -> bytes to send back (None: say nothing)


def reply(status: str, body: bytes = b"", *headers: str) -> bytes:
    head = "".join(f"{h}\r\n" for h in headers)
    return f"HTTP/1.1 {status}\r\n{head}Content-Length: {len(body)}\r\n\r\n".encode() + body


def json_reply(status: str, data: object, *headers: str) -> bytes:
    return reply(status, json.dumps(data).encode(), "Content-Type: application/json", *headers)


NO_CONTENT = reply("204 No Content")


@dataclass
class Server:
    """Answers each request with the next of `answers`; `close_after` closes the connection after that
    many answers on it."""

    answers: list[Answer]
    close_after: int | None = None
    requests: list[bytes] = field(default_factory=list)
    connections: int = 0
    port: int = 0

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        answered = 0
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
                request = head + await reader.readexactly(length)
                self.requests.append(request)
                answer = self.answers.pop(0)(request)
                if answer is None:  # hold the request until the client gives up and closes
                    await reader.read()
                    break
                writer.write(answer)
                await writer.drain()
                answered += 1
                if self.close_after is not None and answered >= self.close_after:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10/interactions/1/tok/callback"


Serve = Callable[..., Awaitable[Server]]


@pytest.fixture
async def serve() -> AsyncIterator[Serve]:
    servers: list[asyncio.Server] = []

    async def start(*answers: Answer | bytes, close_after: int | None = None) -> Server:
        script = [a if callable(a) else (lambda _r, a=a: a) for a in answers]
        server = Server(script, close_after)
        listening = await asyncio.start_server(server.handle, "127.0.0.1", 0)
        server.port = listening.sockets[0].getsockname()[1]
        servers.append(listening)
        return server

    yield start
    for listening in servers:
        listening.close()


async def test_callbacks_share_one_kept_alive_connection_and_send_discords_headers(serve: Serve) -> None:
    server = await serve(NO_CONTENT, NO_CONTENT, NO_CONTENT)
    http = CallbackHttp()
    for n in range(3):
        answer = await http.post_json(server.url, b'{"type":4,"n":%d}' % n)
        assert (answer.status, answer.body) == (204, b"")
    await http.close()
    assert (server.connections, http.opened) == (1, 1)
    head, body = server.requests[2].split(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    assert lines[0] == "POST /api/v10/interactions/1/tok/callback HTTP/1.1"
    assert "Host: 127.0.0.1" in lines
    assert f"User-Agent: {USER_AGENT}" in lines
    assert "Content-Type: application/json" in lines
    assert f"Content-Length: {len(body)}" in lines
    assert body == b'{"type":4,"n":2}'


async def test_a_connection_the_server_closed_while_idle_is_replaced_without_an_error(serve: Serve) -> None:
    server = await serve(NO_CONTENT, NO_CONTENT, close_after=1)
    http = CallbackHttp()
    await http.post_json(server.url, b"{}")
    await asyncio.sleep(0.05)  # the server's close arrives while the connection is idle
    assert (await http.post_json(server.url, b"{}")).status == 204
    assert (server.connections, len(server.requests)) == (2, 2)


async def test_a_reply_saying_connection_close_is_not_reused(serve: Serve) -> None:
    server = await serve(reply("204 No Content", b"", "Connection: close"), NO_CONTENT)
    http = CallbackHttp()
    await http.post_json(server.url, b"{}")
    await http.post_json(server.url, b"{}")
    assert http.opened == 2


async def test_a_chunked_json_reply_is_read_whole(serve: Serve) -> None:
    chunked = (
        b"HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        b'6\r\n{"code\r\n9\r\n": 40060}\r\n0\r\n\r\n'
    )
    server = await serve(chunked, NO_CONTENT)
    http = CallbackHttp()
    answer = await http.post_json(server.url, b"{}")
    assert (answer.status, answer.reason, answer.body) == (400, "Bad Request", b'{"code": 40060}')
    assert answer.headers["content-type"] == "application/json"
    assert (await http.post_json(server.url, b"{}")).status == 204  # the same connection, read to its end
    assert http.opened == 1


async def test_no_reply_in_time_is_a_timeout_and_the_connection_is_dropped(serve: Serve) -> None:
    server = await serve(lambda _r: None, NO_CONTENT)
    http = CallbackHttp(reply_timeout=0.1)
    with pytest.raises(TimeoutError):
        await http.post_json(server.url, b"{}")
    assert (await http.post_json(server.url, b"{}")).status == 204
    assert http.opened == 2


async def test_an_unreadable_reply_is_a_connection_error(serve: Serve) -> None:
    server = await serve(b"NOT HTTP AT ALL\r\n\r\n")
    with pytest.raises(ConnectionError, match="unreadable"):
        await CallbackHttp().post_json(server.url, b"{}")


async def test_a_new_connection_closed_without_a_reply_is_not_sent_again(serve: Serve) -> None:
    """Only a reused connection's silent close is known to have reached nobody."""
    server = await serve(b"", close_after=1)
    with pytest.raises(ConnectionResetError):
        await CallbackHttp().post_json(server.url, b"{}")
    assert len(server.requests) == 1


def test_urls_are_split_into_origin_and_path() -> None:
    origin, path = split("https://discord.com/api/v10/interactions/1/t/callback?x=1")
    assert (origin.host, origin.port, origin.tls, path) == (
        "discord.com",
        443,
        True,
        "/api/v10/interactions/1/t/callback?x=1",
    )
    with pytest.raises(ValueError, match="not an http"):
        split("ftp://discord.com/x")


# --- the adapter: discord.py's handling of the reply ----------------------------------------------------


@pytest.fixture
def waits() -> list[float]:
    return []


@pytest.fixture
def adapter(waits: list[float]) -> CallbackAdapter:
    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    return CallbackAdapter(sleep=sleep)


async def post(adapter: CallbackAdapter, server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{server.port}/api/v10")
    route = Route(
        "POST", "/interactions/{webhook_id}/{webhook_token}/callback", webhook_id=1, webhook_token="tok"
    )
    await adapter._send(route, orjson.dumps({"type": 4, "data": {"content": "pong"}}), "application/json")


RATE_LIMITED = json_reply(
    "429 Too Many Requests",
    {"message": "You are being rate limited.", "retry_after": 0.25, "global": False},
    "Via: 1.1 google",
)


async def test_a_rate_limit_from_discords_proxies_is_waited_out_and_sent_again(
    serve: Serve, adapter: CallbackAdapter, waits: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await serve(RATE_LIMITED, NO_CONTENT)
    await post(adapter, server, monkeypatch)
    assert waits == [0.25]
    assert len(server.requests) == 2
    assert json.loads(server.requests[1].split(b"\r\n\r\n")[1]) == {"type": 4, "data": {"content": "pong"}}


async def test_a_429_without_via_is_a_cloudflare_ban_and_raises_at_once(
    serve: Serve, adapter: CallbackAdapter, waits: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await serve(json_reply("429 Too Many Requests", {"message": "banned", "retry_after": 5}))
    with pytest.raises(HTTPException) as raised:
        await post(adapter, server, monkeypatch)
    assert raised.value.status == 429
    assert waits == []
    assert len(server.requests) == 1


@pytest.mark.parametrize(
    ("status", "error"),
    [("403 Forbidden", Forbidden), ("404 Not Found", NotFound), ("400 Bad Request", HTTPException)],
)
async def test_a_refusal_raises_discord_pys_own_error_with_discords_code(
    serve: Serve,
    adapter: CallbackAdapter,
    waits: list[float],
    monkeypatch: pytest.MonkeyPatch,
    status: str,
    error: type[HTTPException],
) -> None:
    server = await serve(json_reply(status, {"message": "Unknown interaction", "code": 10062}))
    with pytest.raises(error) as raised:
        await post(adapter, server, monkeypatch)
    assert type(raised.value) is error
    assert (raised.value.status, raised.value.code, raised.value.text) == (
        int(status[:3]),
        10062,
        "Unknown interaction",
    )
    assert waits == []


async def test_a_server_error_is_tried_5_times_1_3_5_and_7_seconds_apart_then_raised(
    serve: Serve, adapter: CallbackAdapter, waits: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    failing = reply("503 Service Unavailable", b"upstream down", "Content-Type: text/plain")
    server = await serve(*[failing] * 5)
    with pytest.raises(DiscordServerError) as raised:
        await post(adapter, server, monkeypatch)
    assert raised.value.status == 503
    assert raised.value.text == "upstream down"
    assert waits == [1, 3, 5, 7]
    assert len(server.requests) == 5


async def test_a_server_error_then_success_answers(
    serve: Serve, adapter: CallbackAdapter, waits: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await serve(reply("502 Bad Gateway"), NO_CONTENT)
    await post(adapter, server, monkeypatch)
    assert waits == [1]
    assert len(server.requests) == 2


async def test_a_callback_cancelled_half_way_closes_its_connection(serve: Serve) -> None:
    received = asyncio.Event()

    def hold(_request: bytes) -> None:
        received.set()

    server = await serve(hold, NO_CONTENT)
    http = CallbackHttp()
    sending = asyncio.create_task(http.post_json(server.url, b"{}"))
    await received.wait()
    sending.cancel()
    with pytest.raises(asyncio.CancelledError):
        await sending
    assert (await http.post_json(server.url, b"{}")).status == 204  # not the half-used connection
    assert http.opened == 2


async def test_connections_beyond_the_idle_limit_are_closed_after_use(
    serve: Serve, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("discord_app.callback_http.MAX_IDLE", 2)
    server = await serve(*([NO_CONTENT] * 8))
    http = CallbackHttp()
    await asyncio.gather(*(http.post_json(server.url, b"{}") for _ in range(4)))
    assert http.opened == 4
    # four at once again: the two kept serve two of them, two new ones the others
    await asyncio.gather(*(http.post_json(server.url, b"{}") for _ in range(4)))
    assert http.opened == 6
    assert server.connections == 6


def test_an_origin_is_parsed_once_whatever_the_path() -> None:
    first, path = split("http://127.0.0.1:8080/api/v10/interactions/1/a/callback")
    second, _ = split("http://127.0.0.1:8080/api/v10/interactions/2/b/callback")
    assert first is second
    assert (first.host, first.port, first.tls) == ("127.0.0.1", 8080, False)
    assert path == "/api/v10/interactions/1/a/callback"
    assert split("https://discord.com")[1] == "/"
    with pytest.raises(ValueError, match="not an http"):
        split("discord.com/api")


async def test_a_connection_idle_for_longer_than_the_keepalive_is_not_reused(
    serve: Serve, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A connection silently dropped on the way (a NAT's table) would hold a callback past its 3 s."""
    monkeypatch.setattr("discord_app.callback_http.KEEPALIVE", 0.05)
    server = await serve(NO_CONTENT, NO_CONTENT, NO_CONTENT)
    http = CallbackHttp()
    await http.post_json(server.url, b"{}")
    await http.post_json(server.url, b"{}")  # at once: the same connection
    assert http.opened == 1
    await asyncio.sleep(0.1)
    await http.post_json(server.url, b"{}")
    assert http.opened == 2
    assert server.connections == 2


# --- a callback with files: the form aiohttp writes, over the kept-alive connection -----------------------


class _Sink:
    def __init__(self) -> None:
        self.data = bytearray()

    async def write(self, chunk: bytes) -> None:
        self.data += chunk


def _picture_params() -> object:
    picture = discord.File(io.BytesIO(b"\x89PNG picture"), filename='carte "é" \\ 1.png')
    return interaction_message_response_params(type=4, content="Votre carte « Orc »", files=[picture])


async def _aiohttp_form(multipart: list[dict[str, Any]], boundary: str) -> bytes:
    """What discord.py's own path sends (`AsyncWebhookAdapter.request`), its boundary set to `boundary`."""
    form = aiohttp.FormData(quote_fields=False)
    for part in multipart:
        form.add_field(**part)
    writer = form()
    sink = _Sink()
    await writer.write(sink)  # type: ignore[arg-type]
    theirs = writer.headers["Content-Type"].split("boundary=")[1]
    return bytes(sink.data).replace(theirs.encode(), boundary.encode())


async def test_a_callback_with_files_is_aiohttps_form_sent_over_the_kept_alive_connection(
    serve: Serve, adapter: CallbackAdapter, waits: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reply with a picture (a booster, a card) took aiohttp's whole request path; it is now the same
    bytes over the bot's connection, and a rate limit sends those bytes again, the file whole."""
    server = await serve(RATE_LIMITED, NO_CONTENT)
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{server.port}/api/v10")
    no_session = cast(aiohttp.ClientSession, None)  # discord.py's client is not used
    params = cast(MultipartParameters, _picture_params())
    await adapter.create_interaction_response(1, "tok", session=no_session, params=params)
    assert waits == [0.25]
    assert len(server.requests) == 2
    assert server.requests[0] == server.requests[1]
    head, body = server.requests[1].split(b"\r\n\r\n", 1)
    kind = next(line for line in head.split(b"\r\n") if line.lower().startswith(b"content-type"))
    boundary = kind.decode().split("boundary=")[1]
    expected = cast(MultipartParameters, _picture_params())
    assert expected.multipart
    assert body == await _aiohttp_form(expected.multipart, boundary)


# --- a deferred click's answer: the original response edited over the same connection -------------------

EDITED = {"id": "5", "channel_id": "7", "content": "Joué", "attachments": [], "embeds": []}


async def _edit(adapter: CallbackAdapter, server: Server, monkeypatch: pytest.MonkeyPatch) -> object:
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{server.port}/api/v10")
    no_session = cast(aiohttp.ClientSession, None)  # discord.py's client is not used
    payload = {"content": "Joué", "embeds": []}
    return await adapter.edit_original_interaction_response(1, "tok", session=no_session, payload=payload)


async def test_a_deferred_answer_is_patched_over_the_kept_alive_connection(
    serve: Serve, adapter: CallbackAdapter, waits: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Pillz move's or a bulk sale's answer edits the deferred response: discord.py reads the message
    Discord returns, as from its own client."""
    server = await serve(json_reply("200 OK", EDITED), json_reply("200 OK", EDITED))
    assert await _edit(adapter, server, monkeypatch) == EDITED
    assert await _edit(adapter, server, monkeypatch) == EDITED
    head, body = server.requests[0].split(b"\r\n\r\n", 1)
    assert head.startswith(b"PATCH /api/v10/webhooks/1/tok/messages/@original HTTP/1.1\r\n")
    assert b"Content-Type: application/json" in head
    assert json.loads(body) == {"content": "Joué", "embeds": []}
    assert (server.connections, adapter.http.opened, waits) == (1, 1, [])


async def test_an_edit_that_spends_the_tokens_bucket_waits_its_reset_before_the_next(
    serve: Serve, adapter: CallbackAdapter, waits: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    spent = json_reply("200 OK", EDITED, "X-RateLimit-Remaining: 0", "X-RateLimit-Reset-After: 1.5")
    server = await serve(spent)
    assert await _edit(adapter, server, monkeypatch) == EDITED
    assert waits == [1.5]


async def test_a_callback_asking_for_its_message_gets_it_over_the_kept_alive_connection(
    serve: Serve, adapter: CallbackAdapter, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The HOSS battle message asks for its id (`with_message()`): Discord's answer is handed back."""
    answered = {"interaction": {"id": "1", "type": 4}, "resource": {"type": 4, "message": EDITED}}
    server = await serve(json_reply("200 OK", answered))
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{server.port}/api/v10")
    no_session = cast(aiohttp.ClientSession, None)  # discord.py's client is not used
    params = interaction_message_response_params(type=4, content="Combat")
    with with_message():
        got = await adapter.create_interaction_response(1, "tok", session=no_session, params=params)
    assert got == answered
    assert server.requests[0].startswith(
        b"POST /api/v10/interactions/1/tok/callback?with_response=1 HTTP/1.1"
    )
