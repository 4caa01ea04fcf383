"""``DiscordEmulator``: the public entry point tying server, world, records and actions together.

Typical use::

    emu = DiscordEmulator()
    guild = emu.add_guild("Test Server")
    alice = emu.add_user("alice", locale="fr")
    await emu.start()
    emu.install()                      # point discord.py at the emulator
    task = asyncio.create_task(bot.start(emu.bot_token))
    await emu.wait_ready()
    result = await emu.run_command(alice, "profile")
    ...
    await bot.close(); await task
    emu.uninstall()
    await emu.stop()

The bot should be created with a small ``guild_ready_timeout`` (e.g. ``0.01``): discord.py waits that long
after the last GUILD_CREATE before firing ``on_ready`` (default 2 s).  Interactions work before that.
Guilds, channels and users are best created before the bot connects: later additions are not announced
over the gateway (interactions still carry full user data).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from datetime import datetime
from types import TracebackType
from typing import Self

import discord.gateway
import discord.http
import yarl
from aiohttp import web

from emulator import rest_app, rest_channels, rest_interactions
from emulator.actions import ActionsMixin
from emulator.core import Fault
from emulator.errors import EmulatorError
from emulator.payloads import JsonDict
from emulator.records import RecordedMessage, RequestRecord
from emulator.render import render_message
from emulator.rest import API_PREFIX, RestServer, Router
from emulator.world import DEFAULT_EPOCH, Channel, Guild, Role, User

_UNAVAILABLE = re.compile(r"/channels/\d+/messages")


class DiscordEmulator(ActionsMixin):
    """An in-process Discord for one bot: REST + gateway on 127.0.0.1, scripted users, full records."""

    bot_token = "emulator-bot-token"
    """Any token is accepted; this one is provided for convenience."""

    def __init__(
        self,
        *,
        app_name: str = "TestBot",
        epoch: datetime = DEFAULT_EPOCH,
        clock: Callable[[], float] | None = None,
        action_timeout: float = 5.0,
        heartbeat_interval: float = 41.25,
    ) -> None:
        """``clock`` (Unix seconds) makes new ids carry that time instead of ``epoch`` + n ms."""
        super().__init__(
            app_name=app_name,
            epoch=epoch,
            clock=clock,
            action_timeout=action_timeout,
            heartbeat_interval=heartbeat_interval,
        )
        router = Router()
        rest_app.register(router, self)
        rest_channels.register(router, self)
        rest_interactions.register(router, self)
        self._rest = RestServer(self, router)
        self._runner: web.AppRunner | None = None
        self._previous: tuple[str, yarl.URL] | None = None
        self._unavailable_fault: Fault | None = None
        self.port = 0

    # -- lifecycle --------------------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_route("*", "/{tail:.*}", self._rest.handle)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.gateway.url = f"ws://127.0.0.1:{self.port}/gateway"

    async def stop(self) -> None:
        """Close the bot first: a bot still connected would try to reconnect to a dead server."""
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def rest_base(self) -> str:
        """The value for ``discord.http.Route.BASE``."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> yarl.URL:
        """The value for ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``."""
        return yarl.URL(self.gateway.url)

    def install(self) -> tuple[str, yarl.URL]:
        """Point discord.py (process-wide) at this emulator; returns the previous (REST base, gateway)."""
        if not self.base_url:
            raise EmulatorError("start() the emulator before install()")
        previous = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        if self._previous is None:
            self._previous = previous
        discord.http.Route.BASE = self.rest_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self.gateway_url
        return previous

    def uninstall(self) -> None:
        if self._previous is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._previous
            self._previous = None

    async def __aenter__(self) -> Self:
        await self.start()
        self.install()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.uninstall()
        await self.stop()

    async def wait_ready(
        self,
        timeout: float = 5.0,  # noqa: ASYNC109
        *,
        settle: bool = True,
        sessions: int | None = None,
    ) -> None:
        """Return once the bot identified, got every guild *and processed them*, then went idle.

        The bot syncs commands in ``setup_hook`` before connecting, so they are registered by now; with
        ``settle`` a sync done later (e.g. in ``on_ready``) is awaited too, as long as it starts within
        the idle window after the guilds were delivered. With ``sessions`` (a sharded bot, or several
        processes), wait for that many gateway sessions, one per shard, instead of the first.
        """
        try:
            async with asyncio.timeout(timeout):
                if sessions is None:
                    await self.gateway.ready.wait()
                else:
                    await self.gateway.wait_sessions(sessions)
        except TimeoutError:
            hint = "did you call install() before starting the bot?"
            raise EmulatorError(f"the bot did not identify within {timeout}s ({hint})") from None
        await self.gateway.barrier(timeout)
        if settle:
            await self.settle(timeout=timeout)

    def assert_no_errors(self) -> None:
        if self.errors:
            raise AssertionError("Discord emulator errors:\n" + "\n".join(f"- {e}" for e in self.errors))

    # -- world ------------------------------------------------------------------------------------------

    def add_guild(self, name: str, *, locale: str = "en-US") -> Guild:
        """A guild with a default ``#general`` text channel; ids are derived from the name."""
        return self.world.add_guild(name, locale=locale)

    def add_channel(self, guild: Guild, name: str, *, topic: str | None = None) -> Channel:
        return self.world.add_channel(guild, name, topic=topic)

    def add_user(
        self, name: str, *, locale: str = "en-US", admin: bool = False, dms_closed: bool = False
    ) -> User:
        """A member of every guild, with a stable id per name; ``admin`` grants every permission."""
        return self.world.add_user(name, locale=locale, admin=admin, dms_closed=dms_closed)

    def add_role(
        self, guild: Guild, name: str, *, permissions: int = 0, members: tuple[User, ...] = ()
    ) -> Role:
        role = self.world.add_role(guild, name, permissions=permissions)
        for user in members:
            user.roles.append(role)
        return role

    def dm_channel(self, user: User) -> Channel:
        """The user's DM channel with the bot; pass it as ``channel=`` to act in DMs."""
        return self.world.dm_channel(user)

    def user(self, name: str) -> User:
        found = self.world.user_named(name)
        if found is None:
            raise EmulatorError(f"no user named {name!r}")
        return found

    def guild(self, name: str) -> Guild:
        found = self.world.guild_named(name)
        if found is None:
            raise EmulatorError(f"no guild named {name!r}")
        return found

    def channel(self, name: str, guild: Guild | None = None) -> Channel:
        """A text channel or thread by name (first guild match when ``guild`` is omitted)."""
        found = self.world.channel_named(name, guild)
        if found is None:
            raise EmulatorError(f"no channel or thread named {name!r}")
        return found

    @property
    def bot_user(self) -> User:
        return self.world.bot

    @property
    def application_id(self) -> int:
        return self.world.application_id

    # -- failures ---------------------------------------------------------------------------------------

    def fail_requests(
        self,
        method: str | None,
        path_pattern: str,
        *,
        status: int = 503,
        code: int = 0,
        message: str = "Service Unavailable",
        times: int | None = None,
    ) -> Fault:
        """Answer matching requests (path relative to /api/v10, regex) with an error, ``times`` times.

        Prefer 503 for 5xx: discord.py's REST client retries 500/502/504 with 1 s+ sleeps, and its
        webhook client (interaction follow-ups) retries every 5xx.
        """
        fault = Fault(method, re.compile(path_pattern), status, code, message, times)
        self.faults.append(fault)
        return fault

    def rate_limit(
        self,
        path_pattern: str,
        *,
        method: str | None = None,
        times: int | None = 1,
        retry_after: float = 0.01,
        global_limit: bool = False,
        on_limit: Callable[[], None] | None = None,
    ) -> Fault:
        """Answer matching requests (path relative to /api/v10, regex) with 429, ``times`` times.

        discord.py sleeps ``retry_after`` *real* seconds before sending again (5 tries per call), so keep
        it small; a value over the bot's ``max_ratelimit_timeout`` makes discord.py raise ``RateLimited``
        without sleeping. ``on_limit`` runs at each 429: move the injected clock there to stand for a long
        wait without spending it.
        """
        fault = Fault(
            method,
            re.compile(path_pattern),
            429,
            0,
            "rate limited",
            times,
            retry_after=retry_after,
            global_limit=global_limit,
            on_limit=on_limit,
        )
        self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        self.faults.clear()
        self._unavailable_fault = None

    @property
    def unavailable(self) -> bool:
        return self._unavailable_fault is not None

    @unavailable.setter
    def unavailable(self, value: bool) -> None:
        """While set, ``POST /channels/{id}/messages`` answers 503 at once (discord.py does not retry 503)."""
        if value and self._unavailable_fault is None:
            self._unavailable_fault = self.fail_requests("POST", _UNAVAILABLE.pattern)
        elif not value and self._unavailable_fault is not None:
            self.faults.remove(self._unavailable_fault)
            self._unavailable_fault = None

    # -- records ----------------------------------------------------------------------------------------

    @property
    def requests(self) -> list[RequestRecord]:
        return self.records.requests

    @property
    def messages(self) -> list[RecordedMessage]:
        """Every message not deleted, oldest first, wherever it went."""
        return list(self.records.live())

    @property
    def threads(self) -> list[Channel]:
        return self.world.threads

    def channel_messages(self, channel: Channel) -> list[RecordedMessage]:
        return self.records.channel_messages(channel)

    def dm_messages(self, user: User) -> list[RecordedMessage]:
        channel = self.world.dm_channels.get(user.id)
        return [] if channel is None else self.records.channel_messages(channel)

    def ephemeral_messages(self, user: User) -> list[RecordedMessage]:
        return self.records.ephemeral_messages(user)

    def visible_to(self, user: User) -> list[RecordedMessage]:
        return self.records.visible_to(user, self.world.dm_channels.get(user.id))

    def registered_commands(self, guild: Guild | None = None) -> list[JsonDict]:
        """The commands as the bot last synced them, globally or for ``guild``."""
        return self.commands.payloads(None if guild is None else guild.id)

    def render(self, message: RecordedMessage, *, header: bool = False) -> str:
        return render_message(message, header=header)

    def transcript(self, user: User | None = None) -> str:
        """Every message (or those ``user`` can see), rendered with location headers."""
        messages = self.messages if user is None else self.visible_to(user)
        return "\n".join(render_message(message, header=True) for message in messages)

    def clear_records(self) -> None:
        """Forget messages, requests and answered interactions (the world, the commands and an interaction
        still waiting for its answer stay), e.g. between a benchmark's phases: what a run keeps is walked by
        every full collection of the process the bot shares with it."""
        self.records.clear()
        self.nonces.clear()
        self.errors.clear()
        self.forget_answered_interactions()
