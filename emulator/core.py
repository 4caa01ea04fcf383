"""State shared by the REST server, the gateway and the scripted actions.

Kept separate from the public class so the protocol modules can depend on it without depending on the
whole user-facing API.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from emulator.commands import CommandRegistry
from emulator.errors import EmulatorError, invalid_form
from emulator.gateway import Gateway
from emulator.global_limit import GlobalLimit
from emulator.interactions import InteractionRecord, InteractionResult
from emulator.messages import UploadedFile, fill_message
from emulator.payloads import JsonDict, user_payload
from emulator.records import EPHEMERAL, LOADING, RecordedMessage, Records
from emulator.world import DEFAULT_EPOCH, DISCORD_EPOCH_MS, Channel, User, World

GUILDS_INTENT = 1 << 0
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12
MESSAGE_CONTENT_INTENT = 1 << 15

NONCE_WINDOW_MS = 2 * 60 * 1000
"""How long a create-message nonce sent with ``enforce_nonce`` de-duplicates. Discord documents "a few
minutes"; the emulator takes the short end, so that it never hides a duplicate Discord could create."""
NONCE_MAX = 25  # characters of a string nonce

OWN_QUIET_PASSES = 20
"""Loop passes without a request of its own after which an action among several counts as settled.

With 50 users each sending a View and clicking it at once, 1 pass lets clicks reach the bot before it
registered the View and 2 passes suffice; 20 leaves a wide margin at little cost."""

QUIET_PASSES = 4
"""Loop passes in which no task moved after which the loop counts as idle (see ``quiesce``).

A response written on loopback takes two passes to show: in the first the socket is read and the
waiting future is set, in the second the task that awaited it runs. 4 leaves a margin at little cost."""


def _positions() -> frozenset[tuple[int, tuple[tuple[int, int], ...]]]:
    """Where every other task of the loop is suspended: each frame of its await chain and the instruction
    it stopped at. A task that ran between two calls is elsewhere in the second (or is gone, or new)."""
    current = asyncio.current_task()
    return frozenset(
        (id(task), tuple((id(frame), frame.f_lasti) for frame in task.get_stack()))
        for task in asyncio.all_tasks()
        if task is not current
    )


RATE_LIMITED = "You are being rate limited."
"""The ``message`` of a 429 body, as in the examples of Discord's "Rate Limits" page."""


@dataclass
class Fault:
    """A scripted failure: matching requests get this error instead of being served.

    With ``retry_after`` set it is a rate limit: a 429 with the body and headers Discord's "Rate Limits"
    page documents, which discord.py obeys (it sleeps ``retry_after`` real seconds and sends again, up to
    5 tries, or raises ``RateLimited`` at once when that is over its ``max_ratelimit_timeout``).
    ``on_limit`` runs at each 429, e.g. to move an injected clock by the wait the 429 stands for."""

    method: str | None
    pattern: re.Pattern[str]
    status: int
    code: int
    message: str
    remaining: int | None = None
    retry_after: float | None = None
    global_limit: bool = False
    on_limit: Callable[[], None] | None = None

    def matches(self, method: str, path: str) -> bool:
        if self.remaining is not None and self.remaining <= 0:
            return False
        return (self.method is None or self.method == method) and self.pattern.fullmatch(path) is not None

    def answer(self, method: str, path: str, now_ms: int) -> tuple[int, JsonDict, dict[str, str] | None]:
        """Status, JSON body and headers of one matching request; counts it against ``times``."""
        if self.remaining is not None:
            self.remaining -= 1
        if self.retry_after is None:
            return self.status, {"code": self.code, "message": self.message}, None
        if self.on_limit is not None:
            self.on_limit()
        wait = self.retry_after
        body: JsonDict = {"message": RATE_LIMITED, "retry_after": wait, "global": self.global_limit}
        headers = {
            # discord.py takes a 429 without ``Via`` for a Cloudflare ban and raises at once; Discord's own
            # 429s come through its front proxies, which set it.
            "Via": "1.1 google",
            "Retry-After": str(math.ceil(wait)),
            "X-RateLimit-Scope": "global" if self.global_limit else "user",
        }
        if self.global_limit:
            headers["X-RateLimit-Global"] = "true"
        else:
            reset = (now_ms + DISCORD_EPOCH_MS) / 1000 + wait
            headers |= {
                "X-RateLimit-Limit": "5",  # the figure of the page's examples; discord.py ignores it on a 429
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{reset:.3f}",
                "X-RateLimit-Reset-After": f"{wait:.3f}",
                "X-RateLimit-Bucket": hashlib.sha256(f"{method} {path}".encode()).hexdigest()[:16],
            }
        return 429, body, headers


class EmulatorCore:
    def __init__(
        self,
        *,
        app_name: str = "TestBot",
        epoch: datetime = DEFAULT_EPOCH,
        clock: Callable[[], float] | None = None,
        action_timeout: float = 5.0,
        heartbeat_interval: float = 41.25,
    ) -> None:
        self.world = World(app_name=app_name, epoch=epoch, clock=clock)
        # Set by a benchmark whose commands are answered once and never clicked (a profile, a page): how
        # many answered commands `run_command` keeps before forgetting the oldest (`answered`).
        self.keep_answers: int | None = None
        self._answered: list[InteractionResult] = []
        self.records = Records()
        self.commands = CommandRegistry(self.world)
        self.gateway = Gateway(self, heartbeat_interval=heartbeat_interval)
        self.action_timeout = action_timeout
        self.errors: list[str] = []
        self.faults: list[Fault] = []
        # Discord's 50 requests a second per bot token (emulator/global_limit.py); None: no limit
        self.global_limit: GlobalLimit | None = GlobalLimit()
        self.interactions: list[InteractionRecord] = []
        self.dispatch_message_events = True
        """Send MESSAGE_CREATE/UPDATE/DELETE for the bot's own messages too, as Discord does."""
        self.bare_deferred_updates = True
        """A deferred update (callback type 6) with no edit or follow-up yet counts as the answer once the
        bot is idle. A bot whose every deferred click ends with an edit or a follow-up turns this off, so
        that an action waits for that edit even while the bot computes without calling Discord."""
        self.check_api_schema = True
        """Check every request against Discord's published API description (emulator/api_schema.py)
        before it is served; a request it refuses is answered 400 and recorded as the bot's bug."""
        self.enforce_default_permissions = False
        """Refuse commands whose ``default_member_permissions`` the user lacks, as the Discord client
        hides them.  Off by default: server admins can override those defaults per guild, so a bot must
        re-check permissions at run time, and tests need to reach that check."""
        self._tokens: dict[str, InteractionRecord] = {}
        self.open_modals: dict[int, InteractionRecord] = {}
        self.acting_in: dict[int, Channel] = {}
        self._inflight = 0
        self._last_activity = 0.0
        self._waiting = 0
        """Actions currently waiting for the bot's answer (see ``quiesce``)."""
        self.base_url = ""
        self.nonces: dict[tuple[int, int, str], RecordedMessage] = {}
        """The first message each (author, channel, nonce) created, for ``enforce_nonce``."""

    # -- bookkeeping ------------------------------------------------------------------------------------

    def record_error(self, message: str) -> None:
        """Also fails every pending action at once, instead of letting each run into its timeout."""
        self.errors.append(message)
        for record in self.interactions:
            if not record.answered.is_set():
                record.failure = message
                record.answered.set()

    def touch(self) -> None:
        self._last_activity = asyncio.get_running_loop().time()

    def begin_request(self) -> None:
        self._inflight += 1
        self.touch()

    def end_request(self) -> None:
        self._inflight -= 1
        self.touch()

    async def settle(self, idle: float = 0.025, timeout: float | None = None) -> None:  # noqa: ASYNC109
        """Return once no request is in flight and none started for ``idle`` seconds.

        Idleness is measured on real traffic, so this returns after ``idle`` when the bot is quiet and
        keeps waiting while it works (e.g. an outbox loop posting several messages).
        """
        loop = asyncio.get_running_loop()
        limit = self.action_timeout if timeout is None else timeout
        deadline = loop.time() + limit
        while True:
            await self.quiesce()
            now = loop.time()
            wait = idle if self._inflight else self._last_activity + idle - now
            if wait <= 0:
                return
            if now + wait > deadline:
                raise EmulatorError(f"the bot was still busy after {limit}s")
            await asyncio.sleep(wait)

    async def quiesce(self, max_passes: int = 5000, *, record: InteractionRecord | None = None) -> None:
        """Let the event loop run until nothing moves: no request in flight, no task that ran.

        The bot shares our event loop, so a reply being "answered" on the server side does not mean the
        bot has read the response yet (discord.py registers a View only after the callback returns).
        Each pass compares where every task of the loop is suspended (``_positions``) with the pass
        before: ``QUIET_PASSES`` consecutive passes in which no task moved, with no request in flight,
        mean every response written on loopback was read and processed. Work parked on timers or
        threads is not covered; ``settle`` covers that with time. (The loop's own queue of ready
        callbacks would say it sooner, but it is private to CPython's event loop.)

        While several actions wait at once (users acting concurrently) the loop is never idle, so
        waiting for global idleness would make every action run into ``max_passes``.  Then an action
        (``record`` given) returns as soon as its own interaction has had no REST request in flight for
        ``OWN_QUIET_PASSES`` consecutive passes: reading a response written on loopback and running the
        code that follows it (e.g. registering the View) takes the bot a few passes.  A lone action keeps
        the global rule, which also covers what the bot does after answering outside the interaction.
        """
        quiet_passes = 0
        own_quiet_passes = 0
        before: frozenset[tuple[int, tuple[tuple[int, int], ...]]] | None = None
        for _ in range(max_passes):
            await asyncio.sleep(0)
            if record is not None:
                own_quiet_passes = own_quiet_passes + 1 if record.inflight == 0 else 0
                if self._waiting > 1:  # others act too: the loop is not idle, the own rule decides
                    if own_quiet_passes >= OWN_QUIET_PASSES:
                        return
                    before, quiet_passes = None, 0
                    continue
            if self._inflight:  # a request in flight: not idle, and no need to look where tasks wait
                before, quiet_passes = None, 0
                continue
            # Reading every task's await chain is the costly part: done only when the loop may be idle.
            now = _positions()
            quiet_passes = quiet_passes + 1 if now == before else 0
            if quiet_passes >= QUIET_PASSES:
                return
            before = now

    def interaction_by_token(self, token: str) -> InteractionRecord | None:
        return self._tokens.get(token)

    def register_interaction(self, record: InteractionRecord) -> None:
        self.interactions.append(record)
        self._tokens[record.token] = record

    def forget(self, results: list[InteractionResult]) -> None:
        """Drop everything these answered interactions left: their records, messages and requests, as
        `clear_records` does for all. Errors stay (`assert_no_errors`); one not answered yet is refused."""
        records = [result.interaction for result in results]
        waiting = [record for record in records if not record.answered.is_set()]
        if waiting:
            raise EmulatorError(f"{waiting[0]!r} is not answered yet")
        tokens = {record.token for record in records}
        self.records.forget([m for record in records for m in record.messages], tokens)
        self.interactions = [r for r in self.interactions if r.token not in tokens]
        for token in tokens:
            self._tokens.pop(token, None)

    def answered(self, result: InteractionResult) -> None:
        """With `keep_answers` set, forget the oldest answered commands beyond that many (`run_command`).

        A benchmark keeps the last few hundred (a follow-up, a game's welcome, comes milliseconds after
        the answer) rather than a whole run: what a phase keeps is walked by every collection of the
        process it shares with the bot, and 1,200 collection pages kept made one pause of 55 to 65 ms in
        a 4 s phase. Forgotten in batches of `keep_answers`, so each request is looked at once a batch."""
        if self.keep_answers is None:
            return
        self._answered.append(result)
        if len(self._answered) >= 2 * self.keep_answers:
            oldest = [r for r in self._answered[: self.keep_answers] if r.interaction.answered.is_set()]
            del self._answered[: self.keep_answers]
            self.forget(oldest)
            _release([result.interaction for result in oldest])

    def forget_answered_interactions(self) -> None:
        """Their tokens are unknown from now on (Unknown Webhook), as after Discord's 15 minutes."""
        self.interactions = [r for r in self.interactions if not r.answered.is_set()]
        self._tokens = {r.token: r for r in self.interactions}

    # -- messages ---------------------------------------------------------------------------------------

    def create_message(
        self,
        channel: Channel,
        author: User,
        payload: JsonDict,
        files: list[UploadedFile] | None = None,
        *,
        ephemeral_to: User | None = None,
        interaction: InteractionRecord | None = None,
        message_type: int = 0,
        loading: bool = False,
    ) -> RecordedMessage:
        """Validate first and record only on success, so rejected payloads leave no trace."""
        message = RecordedMessage(
            id=self.world.ids.next(),
            channel=channel,
            author=author,
            ephemeral_to=ephemeral_to,
            interaction=interaction,
            type=message_type,
            webhook_id=self.world.application_id if interaction is not None else None,
        )
        if loading:
            message.flags = LOADING
        fill_message(message, payload, files or [], self.world.ids)
        if ephemeral_to is not None:
            message.flags |= EPHEMERAL
        self.records.add(message)
        if channel.is_thread:
            channel.message_count += 1
        return message

    def create_message_once(
        self, channel: Channel, author: User, payload: JsonDict, files: list[UploadedFile] | None = None
    ) -> tuple[RecordedMessage, bool]:
        """Create a message, unless it repeats a recent one: ``(message, created)``.

        Discord's ``enforce_nonce``: when the same author created a message in this channel with the same
        nonce within the window, that message is returned and nothing new is created (a client re-sending
        after a lost response or a crash). Without ``enforce_nonce`` a nonce is only echoed back."""
        nonce = payload.get("nonce")
        if nonce is None:
            return self.create_message(channel, author, payload, files), True
        if isinstance(nonce, bool) or not isinstance(nonce, (str, int)) or len(str(nonce)) > NONCE_MAX:
            raise invalid_form(f"nonce must be an integer or a string of at most {NONCE_MAX} characters")
        key = (author.id, channel.id, str(nonce))
        earlier = self.nonces.get(key)
        now_ms = self.world.ids.now_ms()
        if (
            payload.get("enforce_nonce")
            and earlier is not None
            and now_ms - (earlier.id >> 22) <= NONCE_WINDOW_MS
        ):
            return earlier, False
        message = self.create_message(channel, author, payload, files)
        self.nonces[key] = message
        return message, True

    def message_event_payload(self, message: RecordedMessage) -> JsonDict:
        data = message.payload()
        if not message.author.bot and not self._sees_content(message):
            data.update(content="", embeds=[], attachments=[], components=[])
        return data

    def _sees_content(self, message: RecordedMessage) -> bool:
        """Without MESSAGE_CONTENT Discord blanks other users' guild messages that don't mention the bot."""
        if self.gateway.intents & MESSAGE_CONTENT_INTENT or message.channel.is_dm:
            return True
        return self.world.bot.mention in message.content

    async def emit_message(self, event: str, message: RecordedMessage) -> None:
        if message.ephemeral_to is not None or not self.gateway.connected:
            return
        if message.author.bot and not self.dispatch_message_events:
            return
        intent = DIRECT_MESSAGES_INTENT if message.channel.is_dm else GUILD_MESSAGES_INTENT
        if not self.gateway.intents & intent:
            return
        if event == "MESSAGE_DELETE":
            data: JsonDict = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild is not None:
                data["guild_id"] = str(message.channel.guild.id)
        else:
            data = self.message_event_payload(message)
        await self.gateway.dispatch(event, data)

    async def emit_thread(self, event: str, data: JsonDict) -> None:
        if self.gateway.connected and self.gateway.intents & GUILDS_INTENT:
            await self.gateway.dispatch(event, data)

    def bot_user_payload(self) -> JsonDict:
        extra = {"verified": True, "mfa_enabled": False, "flags": 0, "locale": "en-US"}
        return {**user_payload(self.world.bot), **extra}


def _release(records: list[InteractionRecord]) -> None:
    """A record and its messages point at each other: cut, they are freed at once, not by a collection."""
    for record in records:
        for message in record.messages:
            message.interaction = None
        record.messages, record.original, record.source_message = [], None, None
