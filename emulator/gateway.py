"""The gateway websocket: HELLO, IDENTIFY/READY, GUILD_CREATE, heartbeats, RESUME, dispatches and shards.

Payloads go out as uncompressed JSON text frames.  discord.py asks for ``compress=zlib-stream`` in the URL
but only runs its decompressor on *binary* frames (``DiscordWebSocket.received_message``), so text frames
are read directly and no zlib implementation is needed.

Sharding (Discord's gateway page, "Sharding"): an IDENTIFY may carry ``shard: [shard_id, num_shards]``;
a server's events go only to the sessions whose ``shard_id == (guild_id >> 22) % num_shards``, events
without a server (DMs) only to shard 0, and an unsharded session gets everything. READY lists only the
session's servers. A shard id outside ``0..num_shards-1`` is closed with 4010 (Invalid shard). Sessions
with different ``num_shards`` are accepted, as Discord documents ("sessions with different num_shards
values"); 4011 (Sharding required) is about a session with too many servers, which no test reaches.
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

Shard = tuple[int, int]
"""``(shard_id, num_shards)`` as sent in IDENTIFY."""

INVALID_SHARD = 4010  # close code: "You sent us an invalid shard when identifying"
GUILDS_PER_SHARD = 1000  # what GET /gateway/bot's ``shards`` recommends: Discord caps a shard at 2,500

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT, REQUEST_MEMBERS = 0, 1, 2, 3, 4, 6, 7, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11


class Session:
    """One identified session: the whole bot, or one shard. Successive sockets may carry it (RESUME)."""

    def __init__(self, shard: Shard | None, number: int, identify: JsonDict) -> None:
        self.shard = shard
        self.session_id = f"emulator-session-{number}"
        self.identify_payload = identify
        self.intents = int(identify.get("intents") or 0)
        self.seq = 0
        self.socket: web.WebSocketResponse | None = None
        self._backlog: deque[tuple[int, str]] = deque(maxlen=2000)
        self._lock = asyncio.Lock()
        self._barriers: list[tuple[int, asyncio.Future[None]]] = []
        self.ready = asyncio.Event()
        """Set once READY and every GUILD_CREATE of the session were written to the socket."""

    @property
    def connected(self) -> bool:
        return self.socket is not None and not self.socket.closed

    def receives(self, guild_id: int | None) -> bool:
        """Discord's routing: a server's events to its shard, the rest (DMs) to shard 0."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id

    async def attach(self, socket: web.WebSocketResponse, since: int | None = None) -> None:
        """Make `socket` the session's; with `since` (a RESUME), replay what came after that sequence."""
        async with self._lock:
            self.socket = socket
            if since is not None:
                for seq, text in list(self._backlog):
                    if seq > since:
                        await socket.send_str(text)

    async def dispatch(self, event: str, data: Any) -> int:
        """Send a DISPATCH; while no socket is attached it is kept for the RESUME replay."""
        async with self._lock:
            self.seq += 1
            text = json.dumps({"op": DISPATCH, "t": event, "s": self.seq, "d": data})
            self._backlog.append((self.seq, text))
            socket = self.socket
            if socket is not None and not socket.closed:
                try:
                    await socket.send_str(text)
                except ConnectionError:
                    self.socket = None
            return self.seq

    async def barrier(self, limit: float) -> None:
        """Wait until the client has *processed* every dispatch sent so far.

        The server asks for a heartbeat (op 1); discord.py answers from its receive loop with the last
        sequence it handled, and it handles frames in order, so the answer proves the earlier ones ran.
        """
        if self.socket is None:
            raise EmulatorError("the bot is not connected to the gateway")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._barriers.append((self.seq, future))
        await _send(self.socket, {"op": HEARTBEAT, "d": None})
        try:
            async with asyncio.timeout(limit):
                await future
        except TimeoutError:
            raise EmulatorError(f"the bot did not answer a gateway heartbeat within {limit}s") from None

    def release_barriers(self, acknowledged_seq: int) -> None:
        remaining = []
        for target, future in self._barriers:
            if acknowledged_seq >= target:
                if not future.done():
                    future.set_result(None)
            else:
                remaining.append((target, future))
        self._barriers = remaining


def guild_of(event: str, data: Any) -> int | None:
    """The server an event belongs to, for routing: its ``guild_id``, or a GUILD_CREATE's own ``id``."""
    if not isinstance(data, dict):
        return None
    if data.get("guild_id") is not None:
        return int(data["guild_id"])
    if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE") and data.get("id") is not None:
        return int(data["id"])
    return None


def parse_shard(value: Any) -> Shard | None:
    """IDENTIFY's ``shard``; raises ValueError for what Discord closes with 4010."""
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in value)
    ):
        raise ValueError(f"shard must be [shard_id, num_shards], got {value!r}")
    shard_id, count = value
    if count < 1 or not 0 <= shard_id < count:
        raise ValueError(f"shard {shard_id} is not in 0..{count - 1}")
    return shard_id, count


class Gateway:
    """Every session of the bot, at most one per shard (the unsharded whole counts as one): a new IDENTIFY
    replaces the session of the same shard, a RESUME reattaches a socket to its session and replays."""

    def __init__(self, core: EmulatorCore, *, heartbeat_interval: float) -> None:
        self._core = core
        self._heartbeat_ms = int(heartbeat_interval * 1000)
        self.url = ""
        self.live: dict[Shard | None, Session] = {}
        """The current session of each shard (None: unsharded)."""
        self.sessions = 0
        """IDENTIFYs answered with READY, over all shards."""
        self.resumes = 0
        self.refused: list[tuple[int, str]] = []
        """(close code, reason) of every IDENTIFY refused."""
        self.recommended_shards: int | None = None
        """GET /gateway/bot's ``shards``; None: one per GUILDS_PER_SHARD servers, at least one."""
        self.ready = asyncio.Event()
        """Set each time a session's READY and GUILD_CREATEs were written (cleared by each IDENTIFY)."""
        self._latest: Session | None = None
        self._of_socket: dict[web.WebSocketResponse, Session] = {}
        self._sockets: set[web.WebSocketResponse] = set()
        self._identified = asyncio.Condition()

    # -- the latest session, as seen by a bot with one connection -------------------------------------

    @property
    def session_id(self) -> str | None:
        return None if self._latest is None else self._latest.session_id

    @property
    def identify_payload(self) -> JsonDict | None:
        return None if self._latest is None else self._latest.identify_payload

    @property
    def intents(self) -> int:
        """The latest IDENTIFY's intents (the processes of one bot all send the same)."""
        return 0 if self._latest is None else self._latest.intents

    @property
    def connected(self) -> bool:
        return any(session.connected for session in self.live.values())

    def connected_for(self, guild_id: int | None) -> bool:
        """Whether a connected session receives the events of `guild_id` (None: DMs)."""
        return any(s.connected and s.receives(guild_id) for s in self.live.values())

    def shard_count(self) -> int:
        if self.recommended_shards is not None:
            return self.recommended_shards
        return max(1, -(-len(self._core.world.guilds) // GUILDS_PER_SHARD))

    # -- sockets ----------------------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(max_msg_size=0, compress=False)
        await socket.prepare(request)
        self._sockets.add(socket)
        try:
            await _send(socket, {"op": HELLO, "d": {"heartbeat_interval": self._heartbeat_ms}})
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
            session = self._of_socket.pop(socket, None)
            if session is not None and session.socket is socket:
                session.socket = None
        return socket

    async def close(self) -> None:
        for socket in list(self._sockets):
            await socket.close(code=1001, message=b"emulator stopping")
        self._sockets.clear()
        for session in self.live.values():
            session.socket = None

    # -- outgoing ---------------------------------------------------------------------------------------

    async def dispatch(self, event: str, data: Any) -> list[Shard | None]:
        """Send an event to every session that receives it (its server's shard, shard 0 for DMs); returns
        their shards. A session without a socket keeps the event for its RESUME."""
        guild_id = guild_of(event, data)
        targets = [session for session in self.live.values() if session.receives(guild_id)]
        for session in targets:
            await session.dispatch(event, data)
        self._core.touch()
        return [session.shard for session in targets]

    async def barrier(self, limit: float = 5.0) -> None:
        """Wait until every connected session's client has *processed* every dispatch sent so far."""
        connected = [session for session in self.live.values() if session.connected]
        if not connected:
            raise EmulatorError("the bot is not connected to the gateway")
        await asyncio.gather(*(session.barrier(limit) for session in connected))

    async def wait_sessions(self, count: int) -> None:
        """Until `count` sessions (e.g. one per shard) have each received READY and their servers."""
        async with self._identified:
            await self._identified.wait_for(
                lambda: sum(s.ready.is_set() and s.connected for s in self.live.values()) >= count
            )

    # -- incoming ---------------------------------------------------------------------------------------

    async def _receive(self, socket: web.WebSocketResponse, payload: JsonDict) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if op == HEARTBEAT:
            await _send(socket, {"op": HEARTBEAT_ACK})
            session = self._of_socket.get(socket)
            if session is not None:
                session.release_barriers(data if isinstance(data, int) else 0)
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

    async def _identify(self, socket: web.WebSocketResponse, data: JsonDict) -> None:
        try:
            shard = parse_shard(data.get("shard"))
        except ValueError as exc:
            self.refused.append((INVALID_SHARD, str(exc)))
            await socket.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return
        world = self._core.world
        self.sessions += 1
        self.ready.clear()
        session = Session(shard, self.sessions, data)
        self.live[shard] = session
        self._latest = session
        self._of_socket[socket] = session
        await session.attach(socket)
        guilds = [guild for guild in world.guilds if session.receives(guild.id)]
        ready: JsonDict = {
            "v": 10,
            "user": self._core.bot_user_payload(),
            "guilds": [{"id": str(guild.id), "unavailable": True} for guild in guilds],
            "session_id": session.session_id,
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
        if shard is not None:
            ready["shard"] = list(shard)
        await session.dispatch("READY", ready)
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", guild_payload(world, guild))
        self._core.touch()
        session.ready.set()
        self.ready.set()
        async with self._identified:
            self._identified.notify_all()

    async def _resume(self, socket: web.WebSocketResponse, data: JsonDict) -> None:
        wanted = data.get("session_id")
        session = next((s for s in self.live.values() if s.session_id == wanted), None)
        if session is None:
            await _send(socket, {"op": INVALID_SESSION, "d": False})
            return
        self.resumes += 1
        self._of_socket[socket] = session
        await session.attach(socket, since=int(data.get("seq") or 0))
        await session.dispatch("RESUMED", {})
        self._core.touch()

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


async def _send(socket: web.WebSocketResponse, payload: JsonDict) -> None:
    if not socket.closed:
        with contextlib.suppress(ConnectionError):
            await socket.send_str(json.dumps(payload))
