"""Interaction callbacks that do not ask Discord for the message they create.

discord.py asks for it on every callback (`with_response=1`) and turns the returned message back into
objects: its author, its embeds, its components (a collection page's select of 24 options is parsed
back option by option). The bot reads it in one place only: the HOSS battle message, whose id the
outbox needs to edit it later. Everything else answers and moves on, so that work was wasted on each
command and click: measured over 1,000 `/hoss collection` at one user, the bot's loop spent 15 % less
CPU without it (profiled calls 2.33M → 2.11M), `/profile` 14 % less.

The adapter is installed in the context in which each interaction is parsed (discord_app/bot.py), so the
tasks discord.py starts for it inherit it and nothing else in the process is touched (another client in
the same process, a benchmark's bare bot, keeps discord.py's default). A path that needs the message
asks for it with `with_message()`.

A callback is sent over the adapter's own keep-alive connections (discord_app/callback_http.py) rather
than aiohttp's client, with discord.py's handling of what comes back: a 429 from Discord's proxies is
waited out and sent again, a 5xx is retried after 1, 3, 5 and 7 s, a reset connection likewise, and a
refusal raises discord.py's own `Forbidden`, `NotFound` or `HTTPException`, so the error handlers see
what they saw before. A callback with files (a booster's picture, a card's) is written as the multipart
form aiohttp writes (`multipart_body`). A callback that asks for its message (`with_message()`) and a
deferred click's answer (the original response edited) go the same way, the latter one at a time per
interaction token as discord.py sends it. Proxies keep discord.py's path.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextvars import ContextVar
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

import aiohttp
import discord
import orjson
from discord.errors import DiscordServerError, Forbidden, HTTPException, NotFound
from discord.http import MultipartParameters, Route
from discord.webhook.async_ import AsyncWebhookAdapter
from multidict import CIMultiDict

from discord_app.callback_http import CallbackHttp, Reply

if TYPE_CHECKING:  # discord.types imported first, before discord itself, is a circular import
    from discord.types.interactions import InteractionCallback

_with_message: ContextVar[bool] = ContextVar("with_message", default=False)


@contextlib.contextmanager
def with_message() -> Iterator[None]:
    """Callbacks sent inside this block return the message they created (`response.message_id`)."""
    token = _with_message.set(True)
    try:
        yield
    finally:
        _with_message.reset(token)


class CallbackAdapter(AsyncWebhookAdapter):
    """discord.py's webhook adapter, whose interaction callbacks leave out `with_response` unless asked.

    Discord then answers 204 with no body; discord.py still builds its `InteractionCallbackResponse`
    from what is returned, so the adapter returns the one field it reads (the interaction's id), and
    `message_id` and `resource` are None."""

    def __init__(self, *, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.http = CallbackHttp()
        self.sleep = sleep  # how a retry waits (tests count the waits instead)

    async def close(self) -> None:
        await self.http.close()

    def create_interaction_response(
        self,
        interaction_id: int,
        token: str,
        *,
        session: aiohttp.ClientSession,
        proxy: str | None = None,
        proxy_auth: aiohttp.BasicAuth | None = None,
        params: MultipartParameters,
    ) -> Any:
        if _with_message.get():
            if proxy is None:
                return self._answered(interaction_id, token, params)
            return super().create_interaction_response(
                interaction_id, token, session=session, proxy=proxy, proxy_auth=proxy_auth, params=params
            )
        return self._callback(interaction_id, token, session, proxy, proxy_auth, params)

    async def _answered(self, interaction_id: int, token: str, params: MultipartParameters) -> Any:
        """A callback that asks for the message it creates (`with_message()`), over the same connections:
        Discord's answer goes back to discord.py, which reads it as from its own client."""
        route = Route(
            "POST",
            "/interactions/{webhook_id}/{webhook_token}/callback",
            webhook_id=interaction_id,
            webhook_token=token,
        )
        body, content_type = body_of(params.payload, params.multipart)
        return await self._send(route, body, content_type, query="?with_response=1")

    async def _callback(
        self,
        interaction_id: int,
        token: str,
        session: aiohttp.ClientSession,
        proxy: str | None,
        proxy_auth: aiohttp.BasicAuth | None,
        params: MultipartParameters,
    ) -> InteractionCallback:
        route = Route(
            "POST",
            "/interactions/{webhook_id}/{webhook_token}/callback",
            webhook_id=interaction_id,
            webhook_token=token,
        )
        if proxy is not None:
            await self.request(
                route,
                session=session,
                proxy=proxy,
                proxy_auth=proxy_auth,
                files=params.files,
                multipart=params.multipart,
                payload=None if params.files else params.payload,
            )
        else:
            await self._send(route, *body_of(params.payload, params.multipart))
        return cast("InteractionCallback", {"interaction": {"id": str(interaction_id)}})

    def edit_original_interaction_response(
        self,
        application_id: int,
        token: str,
        *,
        session: aiohttp.ClientSession,
        proxy: str | None = None,
        proxy_auth: aiohttp.BasicAuth | None = None,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        files: Sequence[discord.File] | None = None,
    ) -> Any:
        """A deferred click's answer (discord_app/deferral.py `update`), over the same connections; the
        message Discord returns is returned to discord.py, which reads it as before."""
        if proxy is not None:
            return super().edit_original_interaction_response(
                application_id,
                token,
                session=session,
                proxy=proxy,
                proxy_auth=proxy_auth,
                payload=payload,
                multipart=multipart,
                files=files,
            )
        route = Route(
            "PATCH",
            "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
            webhook_id=application_id,
            webhook_token=token,
        )
        return self._edit(route, *body_of(payload, multipart))

    async def _edit(self, route: Route, body: bytes, content_type: str) -> Any:
        """As discord.py's webhook requests: one at a time per interaction token, and a reply saying the
        token's bucket is spent (`X-RateLimit-Remaining: 0`) holds the next for its reset, waited out
        before the lock is released."""
        bucket = (route.webhook_id, route.webhook_token)
        lock = self._locks.get(bucket)
        if lock is None:
            self._locks[bucket] = lock = asyncio.Lock()
        async with lock:
            spent: list[float] = []
            try:
                return await self._send(route, body, content_type, spent)
            finally:
                if spent:
                    await self.sleep(spent[-1])

    async def _send(
        self, route: Route, body: bytes, content_type: str, spent: list[float] | None = None, query: str = ""
    ) -> Any:
        """discord.py's `AsyncWebhookAdapter.request` over `CallbackHttp`: the body is written once, and
        each attempt sends it again (discord.py rewinds the files and writes the form anew). Returns what
        Discord answered (a callback's 204: an empty text)."""
        reply: Reply | None = None
        data: Any = None
        for attempt in range(ATTEMPTS):
            try:
                reply = await self.http.send(route.method, route.url + query, body, content_type)
            except OSError as exc:
                if attempt < ATTEMPTS - 1 and exc.errno in RESET_ERRNOS:
                    await self.sleep(1 + attempt * 2)
                    continue
                raise
            data = json_or_text(reply)
            if (
                spent is not None
                and reply.headers.get("x-ratelimit-remaining") == "0"
                and reply.status != 429
            ):
                spent.append(reset_after(reply))
            if 200 <= reply.status < 300:
                return data
            last = attempt == ATTEMPTS - 1  # discord.py waits once more before raising; this does not
            if reply.status == 429:
                if not reply.headers.get("via"):  # not Discord's own proxies: a Cloudflare ban
                    raise HTTPException(reply, data)
                if not last:
                    await self.sleep(float(data["retry_after"]))
                continue
            if reply.status >= 500:
                if not last:
                    await self.sleep(1 + attempt * 2)
                continue
            if reply.status == 403:
                raise Forbidden(reply, data)
            if reply.status == 404:
                raise NotFound(reply, data)
            raise HTTPException(reply, data)
        assert reply is not None
        if reply.status >= 500:
            raise DiscordServerError(reply, data)
        raise HTTPException(reply, data)


ATTEMPTS = 5  # as discord.py's webhook adapter
RESET_ERRNOS = (54, 10054)  # "connection reset by peer" on BSD/macOS and Windows, retried as discord.py does


def json_or_text(reply: Reply) -> Any:
    """The reply's body as discord.py's `json_or_text` reads it: JSON when it says so, else text."""
    text = reply.body.decode("utf-8")
    if reply.headers.get("content-type", "").startswith("application/json"):
        return orjson.loads(text)
    return text


def reset_after(reply: Reply) -> float:
    """Seconds until a spent bucket refills, read by discord.py's own `_parse_ratelimit_header`."""
    return float(discord.utils._parse_ratelimit_header(SimpleNamespace(headers=CIMultiDict(reply.headers))))


def body_of(payload: Any, multipart: list[dict[str, Any]] | None) -> tuple[bytes, str]:
    """(body, content type): discord.py's multipart parts when it has files, else its JSON payload."""
    if multipart:  # files: `payload_json` first, then each file
        return multipart_body(multipart)
    return orjson.dumps(payload), "application/json"


def multipart_body(multipart: list[dict[str, Any]]) -> tuple[bytes, str]:
    """(body, content type) of the multipart/form-data request aiohttp's `FormData(quote_fields=False)`
    writes for discord.py's parts (`payload_json`, then `files[n]` with their file objects), byte for
    byte but for the random boundary: aiohttp's request machinery was most of a reply with a picture's
    cost on the loop (a booster's, a card's)."""
    boundary = uuid.uuid4().hex
    parts: list[bytes] = []
    for part in multipart:
        disposition = f'form-data; name="{_quoted(part["name"])}"'
        value = part["value"]
        if "filename" in part:
            disposition += f'; filename="{_quoted(part["filename"])}"'
            kind = part.get("content_type", "application/octet-stream")
            data = value.read()
        else:
            kind = "text/plain; charset=utf-8"
            data = value.encode("utf-8")
        head = f"--{boundary}\r\nContent-Type: {kind}\r\nContent-Disposition: {disposition}\r\n\r\n"
        parts += (head.encode("utf-8"), data, b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode("latin-1"))
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def _quoted(value: str) -> str:
    """A Content-Disposition parameter as aiohttp quotes it when `quote_fields` is False."""
    return value.replace("\\", "\\\\").replace('"', '\\"')
