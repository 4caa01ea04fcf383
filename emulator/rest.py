"""REST plumbing: routing, body parsing, Discord-style responses, fault injection and request logging.

Responses set ``Content-Type`` to exactly ``application/json``: discord.py's ``json_or_text`` compares the
header verbatim and would hand a ``; charset=utf-8`` body back as a plain string.
"""

from __future__ import annotations

import asyncio
import json
import re
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from emulator import api_schema
from emulator.errors import ApiError
from emulator.global_limit import global_429
from emulator.messages import UploadedFile
from emulator.records import RequestRecord

if TYPE_CHECKING:
    from emulator.core import EmulatorCore

API_PREFIX = "/api/v10"


@dataclass
class Call:
    """A parsed request, as handlers see it."""

    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    files: list[UploadedFile] = field(default_factory=list)

    def id(self, name: str) -> int:
        """A snowflake path parameter; Discord answers 404 for ids that cannot exist."""
        try:
            return int(self.params[name])
        except ValueError:
            raise ApiError(404, 0, f"404: Not Found ({name} is not a snowflake)") from None

    def body(self) -> dict[str, Any]:
        if self.json is None:
            return {}
        if not isinstance(self.json, dict):
            raise ApiError(400, 50035, "Invalid Form Body: expected a JSON object", bot_bug=True)
        return self.json

    def flag(self, name: str) -> bool:
        return self.query.get(name, "").lower() in ("1", "true")


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    headers: dict[str, str] | None = None


NO_CONTENT = Reply(204)
Handler = Callable[[Call], Awaitable[Reply]]


class Router:
    def __init__(self) -> None:
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = []

    def add(self, method: str, template: str, handler: Handler) -> None:
        """``template`` uses ``{name}`` placeholders that match one path segment."""
        pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
        self._routes.append((method, re.compile(pattern), handler))

    def match(self, method: str, path: str) -> tuple[Handler, dict[str, str]] | None:
        for route_method, pattern, handler in self._routes:
            if route_method == method:
                found = pattern.fullmatch(path)
                if found is not None:
                    return handler, found.groupdict()
        return None


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    if status == 204 or body is None:
        return web.Response(status=204 if body is None else status, headers=headers)
    data = json.dumps(body).encode()
    return web.Response(status=status, body=data, content_type="application/json", headers=headers)


class RestServer:
    def __init__(self, core: EmulatorCore, router: Router) -> None:
        self._core = core
        self._router = router

    async def handle(self, request: web.Request) -> web.StreamResponse:
        core = self._core
        core.begin_request()
        record = RequestRecord(request.method, request.path, dict(request.query), None)
        record.at, record.token = asyncio.get_running_loop().time(), request.headers.get("Authorization")
        core.records.requests.append(record)
        try:
            reply = await self._serve(request, record)
        finally:
            core.end_request()
        record.status = reply.status
        return json_response(reply.status, reply.body, reply.headers)

    async def _serve(self, request: web.Request, record: RequestRecord) -> Reply:
        core = self._core
        method = request.method
        if not request.path.startswith(API_PREFIX + "/"):
            core.record_error(f"request outside the API base: {method} {request.path}")
            return Reply(404, {"code": 0, "message": "404: Not Found"})
        path = request.path[len(API_PREFIX) :]
        record.path = path
        if core.global_limit is not None:
            wait = core.global_limit.check(record.token, path)
            if wait is not None:
                status, body, headers = global_429(wait)
                return Reply(status, body, headers)
        found = self._router.match(method, path)
        token = found[1].get("token") if found is not None else None
        interaction = core.interaction_by_token(token) if token is not None else None
        if interaction is None:
            return await self._answer(request, record, method, path, found)
        # Per-interaction accounting, so an action waiting among others can tell when *its* exchange
        # with the bot is over without waiting for the whole loop to go idle (see EmulatorCore.quiesce).
        interaction.inflight += 1
        try:
            return await self._answer(request, record, method, path, found)
        finally:
            interaction.inflight -= 1
            interaction.last_request_end = asyncio.get_running_loop().time()

    async def _answer(
        self,
        request: web.Request,
        record: RequestRecord,
        method: str,
        path: str,
        found: tuple[Handler, dict[str, str]] | None,
    ) -> Reply:
        core = self._core
        try:
            body, files = await _read_body(request)
        except ValueError as exc:
            core.record_error(f"{method} {path}: unreadable body ({exc})")
            return Reply(400, {"code": 50109, "message": "The request body contains invalid JSON."})
        record.json, record.files = body, [f.filename for f in files]
        if core.check_api_schema:
            refused = api_schema.problems(method, path, dict(request.query), body)
            if refused:
                core.record_error(
                    f"{method} {path} breaks Discord's API description: {'; '.join(refused[:5])}"
                )
                errors = {"_errors": [{"code": "SCHEMA_MISMATCH", "message": text} for text in refused[:5]]}
                message = f"Invalid Form Body: {refused[0]}"
                return Reply(400, {"code": 50035, "message": message, "errors": errors})
        for fault in core.faults:
            if fault.matches(method, path):
                status, fault_body, headers = fault.answer(method, path, core.world.ids.now_ms())
                return Reply(status, fault_body, headers)
        if found is None:
            core.record_error(f"unknown route: {method} {path}")
            return Reply(404, {"code": 0, "message": "404: Not Found"})
        handler, params = found
        call = Call(method, path, params, dict(request.query), body, files)
        try:
            reply = await handler(call)
        except ApiError as exc:
            if exc.bot_bug:
                core.record_error(f"{method} {path} rejected: {exc.status} {exc.code} {exc.message}")
            return Reply(exc.status, exc.body())
        except Exception as exc:  # any emulator bug must surface in emu.errors
            trace = "".join(traceback.format_exception(exc, limit=-3))
            core.record_error(f"emulator crashed on {method} {path}: {exc!r}\n{trace}")
            # 400 rather than 500: discord.py sleeps and retries on 5xx, which would stall the test.
            return Reply(400, {"code": 0, "message": f"emulator internal error: {exc!r}"})
        return reply


async def _read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    """JSON bodies, or multipart bodies with a ``payload_json`` part and ``files[n]`` parts."""
    if not request.can_read_body:
        return None, []
    if request.content_type == "multipart/form-data":
        payload: Any = None
        files: list[UploadedFile] = []
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            if not isinstance(part, BodyPartReader):
                continue
            name = part.name or ""
            data = await part.read()
            if name == "payload_json":
                payload = json.loads(data)
            else:
                content_type = part.headers.get("Content-Type")
                files.append(UploadedFile(name, part.filename or name, bytes(data), content_type))
        return payload, files
    raw = await request.read()
    if not raw:
        return None, []
    return json.loads(raw), []
