"""The gateway websocket: HELLO, IDENTIFY/READY, GUILD_CREATE, heartbeats, RESUME and dispatches.

Payloads go out as uncompressed JSON text frames.  discord.py asks for ``compress=zlib-stream`` in the URL
but only runs its decompressor on *binary* frames (``DiscordWebSocket.received_message``), so text frames
are read directly and no zlib implementation is needed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from emulator.errors import EmulatorError
from emulator.payloads import JsonDict, guild_payload, member_payload

if TYPE_CHECKING:
    from emulator.core import EmulatorCore

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT, REQUEST_MEMBERS = 0, 1, 2, 3, 4, 6, 7, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11


class Gateway:
    """One logical session shared by successive sockets, so RESUME replays what a dropped socket missed."""

    def __init__(self, core: EmulatorCore, *, heartbeat_interval: float) -> None:
        self._core = core
        self._heartbeat_ms = int(heartbeat_interval * 1000)
        self.url = ""
        self.session_id: str | None = None
        self.seq = 0
        self.intents = 0
        self.identify_payload: JsonDict | None = None
        self.sessions = 0
        self.resumes = 0
        self._socket: web.WebSocketResponse | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._backlog: deque[tuple[int, str]] = deque(maxlen=2000)
        self._lock = asyncio.Lock()
        self._barriers: list[tuple[int, asyncio.Future[None]]] = []
        self.ready = asyncio.Event()
        """Set once READY and every GUILD_CREATE of the current session were written to the socket."""

    @property
    def connected(self) -> bool:
        return self._socket is not None and not self._socket.closed and self.session_id is not None

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(max_msg_size=0, compress=False)
        await socket.prepare(request)
        self._sockets.add(socket)
        try:
            await self._send(socket, {"op": HELLO, "d": {"heartbeat_interval": self._heartbeat_ms}})
            async for frame in socket:
                if frame.type is WSMsgType.TEXT:
                    try:
                        payload = json.loads(frame.data)
                    except ValueError:
                        self._core.record_error(f"gateway: invalid JSON frame {frame.data[:200]!r}")
                        continue
                    await self._receive(socket, payload)
                elif frame.type is WSMsgType.BINARY:
                    self._core.record_error("gateway: binary (ETF/compressed) frames are not supported")
        finally:
            self._sockets.discard(socket)
            if self._socket is socket:
                self._socket = None
        return socket

    async def close(self) -> None:
        for socket in list(self._sockets):
            await socket.close(code=1001, message=b"emulator stopping")
        self._sockets.clear()
        self._socket = None

    async def dispatch(self, event: str, data: Any) -> int:
        """Send a DISPATCH; while no socket is attached it is kept for the RESUME replay."""
        async with self._lock:
            self.seq += 1
            text = json.dumps({"op": DISPATCH, "t": event, "s": self.seq, "d": data})
            self._backlog.append((self.seq, text))
            socket = self._socket
            if socket is not None and not socket.closed:
                try:
                    await socket.send_str(text)
                except ConnectionError:
                    self._socket = None
            self._core.touch()
            return self.seq

    async def barrier(self, limit: float = 5.0) -> None:
        """Wait until the client has *processed* every dispatch sent so far.

        The server asks for a heartbeat (op 1); discord.py answers from its receive loop with the last
        sequence it handled, and it handles frames in order, so the answer proves the earlier ones ran.
        """
        if not self.connected:
            raise EmulatorError("the bot is not connected to the gateway")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._barriers.append((self.seq, future))
        assert self._socket is not None
        await self._send(self._socket, {"op": HEARTBEAT, "d": None})
        try:
            async with asyncio.timeout(limit):
                await future
        except TimeoutError:
            raise EmulatorError(f"the bot did not answer a gateway heartbeat within {limit}s") from None

    # -- incoming ---------------------------------------------------------------------------------------

    async def _receive(self, socket: web.WebSocketResponse, payload: JsonDict) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if op == HEARTBEAT:
            await self._send(socket, {"op": HEARTBEAT_ACK})
            self._release_barriers(data if isinstance(data, int) else 0)
        elif op == IDENTIFY:
            await self._identify(socket, data or {})
        elif op == RESUME:
            await self._resume(socket, data or {})
        elif op == REQUEST_MEMBERS:
            await self._send_member_chunk(data or {})
        elif op in (PRESENCE, VOICE):
            pass
        else:
            self._core.record_error(f"gateway: unexpected opcode {op!r}")

    def _release_barriers(self, acknowledged_seq: int) -> None:
        remaining = []
        for target, future in self._barriers:
            if acknowledged_seq >= target:
                if not future.done():
                    future.set_result(None)
            else:
                remaining.append((target, future))
        self._barriers = remaining

    async def _identify(self, socket: web.WebSocketResponse, data: JsonDict) -> None:
        world = self._core.world
        self.sessions += 1
        self.ready.clear()
        async with self._lock:
            self.session_id = f"emulator-session-{self.sessions}"
            self.seq = 0
            self._backlog.clear()
            self._socket = socket
        self.identify_payload = data
        self.intents = int(data.get("intents") or 0)
        ready: JsonDict = {
            "v": 10,
            "user": self._core.bot_user_payload(),
            "guilds": [{"id": str(guild.id), "unavailable": True} for guild in world.guilds],
            "session_id": self.session_id,
            "resume_gateway_url": self.url,
            "session_type": "normal",
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "auth": {},
        }
        if data.get("shard") is not None:
            ready["shard"] = data["shard"]
        await self.dispatch("READY", ready)
        for guild in world.guilds:
            await self.dispatch("GUILD_CREATE", guild_payload(world, guild))
        self.ready.set()

    async def _resume(self, socket: web.WebSocketResponse, data: JsonDict) -> None:
        if data.get("session_id") != self.session_id or self.session_id is None:
            await self._send(socket, {"op": INVALID_SESSION, "d": False})
            return
        self.resumes += 1
        since = int(data.get("seq") or 0)
        async with self._lock:
            self._socket = socket
            for seq, text in list(self._backlog):
                if seq > since:
                    await socket.send_str(text)
        await self.dispatch("RESUMED", {})

    async def _send_member_chunk(self, data: JsonDict) -> None:
        world = self._core.world
        guild = world.guild_by_id(int(data.get("guild_id") or 0))
        if guild is None:
            return
        members = [world.bot, *world.members]
        wanted = data.get("user_ids")
        if wanted:
            ids = {int(i) for i in (wanted if isinstance(wanted, list) else [wanted])}
            members = [m for m in members if m.id in ids]
        chunk: JsonDict = {
            "guild_id": str(guild.id),
            "members": [member_payload(world, m, guild) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def _send(self, socket: web.WebSocketResponse, payload: JsonDict) -> None:
        if not socket.closed:
            with contextlib.suppress(ConnectionError):
                await socket.send_str(json.dumps(payload))
