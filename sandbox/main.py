"""`python bot.py --sandbox`: the real bot against the emulator, driven from a prompt or a script.

Transcript lines start with where the output went: `[#channel]`, `[thread: name]`, `[DM alice]`
or `[alice only]` (ephemeral). A script line fails when its command is unknown, the bot raises,
Discord is asked something the emulator does not know, or nothing answers; any failure makes the
exit code 1.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from core.errors import DomainError
from emulator.errors import EmulatorError
from emulator.records import RecordedMessage
from emulator.world import Channel
from sandbox.fixtures import Place, fixtures
from sandbox.harness import BotHarness
from sandbox.script import (
    ChannelMention,
    Click,
    Command,
    Each,
    Given,
    Mention,
    Modal,
    Restart,
    ScriptError,
    Select,
    Step,
    UserSetup,
    Wait,
    parse_line,
)

_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")
_USER_MENTION = re.compile(r"<@!?(\d+)>")
_CHANNEL_MENTION = re.compile(r"<#(\d+)>")
PROMPT_HELP = (
    'Type a line such as  alice: /profile  or  alice: click "Accepter"  or  wait 25h  '
    "(see the README's Sandbox section). Ctrl-D or 'quit' leaves."
)

ANSWER_TIMEOUT = 60.0  # seconds


def place(message: RecordedMessage) -> str:
    kind, name = message.where
    return {"channel": f"[#{name}]", "thread": f"[thread: {name}]", "dm": f"[DM {name}]"}.get(
        kind, f"[{name} only]"
    )


class Sandbox:
    def __init__(self, harness: BotHarness, out: Callable[[str], None] = print) -> None:
        self.h = harness
        self.out = out
        self.failures = 0
        self._seen: dict[int, tuple[int | None, str]] = {}  # a message's last edit and state printed
        self._errors_seen = 0
        self._unexpected_seen = 0
        self._animation_noted: datetime | None = None

    # -- rendering ---------------------------------------------------------------------------------------

    def _readable(self, text: str) -> str:
        world = self.h.emu.world

        def stamp(match: re.Match[str]) -> str:
            when = datetime.fromtimestamp(int(match.group(1)), tz=UTC)
            style = match.group(2) or "f"
            return when.strftime("%Y-%m-%d") if style in "dD" else when.strftime("%Y-%m-%d %H:%M UTC")

        def user(match: re.Match[str]) -> str:
            found = world.users.get(int(match.group(1)))
            return f"@{found.name}" if found else match.group(0)

        def channel(match: re.Match[str]) -> str:
            found = world.channels.get(int(match.group(1)))
            return f"#{found.name}" if found else match.group(0)

        return _CHANNEL_MENTION.sub(channel, _USER_MENTION.sub(user, _TIMESTAMP.sub(stamp, text)))

    def flush_output(self) -> None:
        """Print every message that is new or changed since the last flush: first the answers to the
        interaction (the actor's own view), then every other message in the order it was created.

        The bot answers an interaction while its outbox posts the public consequences concurrently, so
        creation order alone differs between two runs of the same script.

        A message changes only by an edit, which gives it a new `edited_id`: one whose last edit was seen
        is not serialized again (a tournament's transcript holds thousands of messages, most of them
        unchanged at each of its lines); an edit to the same state still prints nothing."""
        messages = sorted(self.h.emu.messages, key=lambda message: message.interaction is None)
        for message in messages:
            if message.loading:
                continue
            seen = self._seen.get(message.id)
            if seen is not None and seen[0] == message.edited_id:
                continue
            state = json.dumps(message.snapshot(), sort_keys=True, default=str)
            self._seen[message.id] = (message.edited_id, state)
            if seen is not None and seen[1] == state:
                continue
            lines = self._readable(message.render()).splitlines() or [""]
            self.out(f"{place(message)} {lines[0]}")
            for line in lines[1:]:
                self.out(f"    {line}")

    def _fail(self, reason: str) -> None:
        self.failures += 1
        self.out(f"!! {reason}")

    def _check_health(self) -> None:
        errors = self.h.emu.errors
        for error in errors[self._errors_seen :]:
            self._fail(f"Discord emulator: {error}")
        self._errors_seen = len(errors)
        unexpected = self.h.unexpected_errors
        for exc in unexpected[self._unexpected_seen :]:
            self._fail(f"the bot raised {type(exc).__name__}: {exc}")
        self._unexpected_seen = len(unexpected)

    # -- running -----------------------------------------------------------------------------------------

    async def run_line(self, line: str) -> None:
        try:
            step = parse_line(line)
        except ScriptError as exc:
            self._fail(str(exc))
            return
        if step is None:
            return
        try:
            await self._run(step)
        except (EmulatorError, ScriptError) as exc:
            self._fail(str(exc))
        await self.h.settle()
        self.flush_output()
        await self._note_animation(isinstance(step, Wait | Restart))
        self._check_health()

    async def _note_animation(self, clock_moved: bool) -> None:
        """A message shown step by step (a battle's rounds, 5 s apart) moves on only with the clock, which
        the sandbox moves only on `wait`: the transcript says how long to wait to see it to its end, once
        per animation and again after a wait that did not reach it."""
        assert self.h.bot is not None
        end = await self.h.bot.services.outbox.paced_until()
        if end is None or (end == self._animation_noted and not clock_moved):
            return
        self._animation_noted = end
        left = timedelta(seconds=math.ceil((end - self.h.clock.now()).total_seconds()))
        self.out(f"(animation : `wait {_duration(left)}` pour la suite)")

    async def _run(self, step: Step) -> None:
        h, emu = self.h, self.h.emu
        if isinstance(step, Each):
            for one in step.steps:
                await self._run(one)
                await h.settle()
        elif isinstance(step, UserSetup):
            emu.add_user(step.name, locale=step.locale, admin=step.admin, dms_closed=step.dms_closed)
        elif isinstance(step, Wait):
            fired = await h.advance(step.delta)
            self.out(
                f"-- {_duration(step.delta)} later ({h.clock.now():%Y-%m-%d %H:%M} UTC), {fired} job(s) ran"
            )
        elif isinstance(step, Restart):
            fired = await h.restart(step.down)
            self.out(
                f"-- restarted after {_duration(step.down)} down ({h.clock.now():%Y-%m-%d %H:%M} UTC),"
                f" {fired} job(s) ran at start-up"
            )
        elif isinstance(step, Given):
            fixture = fixtures().get(step.fixture)
            if fixture is None:
                raise ScriptError(f"unknown fixture {step.fixture!r}: {', '.join(sorted(fixtures()))}")
            assert h.bot is not None
            assert h.guild is not None
            assert h.games_channel is not None
            try:
                done = await fixture(
                    h.bot.services, h.user(step.user).id, Place(h.guild.id, h.games_channel.id)
                )
            except DomainError as exc:
                raise ScriptError(f"fixture {step.fixture!r} refused: {exc}") from None
            self.out(f"-- given {step.user}: {done}")
        elif isinstance(step, Command):
            options: dict[str, Any] = {k: self._option(v) for k, v in step.options.items()}
            await emu.run_command(h.user(step.user), step.path, options, channel=self._channel())
        elif isinstance(step, Click):
            await emu.click(h.user(step.user), step.label)
        elif isinstance(step, Select):
            await emu.select(h.user(step.user), step.option)
        elif isinstance(step, Modal):
            await emu.submit_modal(h.user(step.user), step.values)

    def _option(self, value: str | Mention | ChannelMention) -> Any:
        if isinstance(value, Mention):
            return self.h.user(value.name)
        if isinstance(value, ChannelMention):
            return self._channel_named(value.name)
        return value

    def _channel_named(self, name: str) -> Channel:
        guild = self.h.guild
        assert guild is not None
        found = self.h.emu.world.channel_named(name, guild)
        if found is None:
            known = ", ".join(f"#{channel.name}" for channel in guild.channels)
            raise ScriptError(f"no channel #{name} on the server ({known})")
        return found

    def _channel(self) -> Any:
        return self.h.games_channel


def _duration(delta: Any) -> str:
    seconds = int(delta.total_seconds())
    for size, unit in ((86400, "d"), (3600, "h"), (60, "m")):
        if seconds % size == 0 and seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


async def run_sandbox(
    *,
    script: str | None,
    db_path: str | None,
    out: Callable[[str], None] = print,
    seed: int | None = None,
    harness_options: dict[str, Any] | None = None,
) -> int:
    """`seed` makes the games' random draws (frogs, boosters, game seeds, rewards) repeatable; without
    it they are unpredictable, as in production. `harness_options` lets tests plug a test-only game in;
    the command line never sets it."""
    logging.basicConfig(
        level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr
    )
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # voice libraries are irrelevant here
    with tempfile.TemporaryDirectory(prefix="sandbox-") as scratch:
        path = Path(db_path) if db_path else Path(scratch) / "sandbox.sqlite3"
        if script is not None:
            try:
                lines = (await asyncio.to_thread(Path(script).read_text, encoding="utf-8")).splitlines()
            except OSError as exc:
                print(f"Cannot read the script {script}: {exc.strerror}.", file=sys.stderr)
                return 2
        harness = BotHarness(path, seed=seed, **(harness_options or {}))
        # A deferred answer may come seconds later (a lab's batch on a busy machine; Discord waits 15
        # minutes after a deferral): a command is reported unanswered only after a minute.
        harness.emu.action_timeout = ANSWER_TIMEOUT
        # The sandbox's Discord is the emulator: the bot's pace under Discord's global rate limit
        # (docs/deployment.md) would only slow the examples down (the tournament's 2,300 requests by 20 s).
        harness.emu.global_limit = None
        await harness.start()
        assert harness.bot is not None
        harness.bot.rate_limit.limiter.bounded = False
        sandbox = Sandbox(harness, out)
        try:
            if script is not None:
                for line in lines:
                    if line.strip() and not line.strip().startswith("#"):
                        out(f"> {line.strip()}")
                    await sandbox.run_line(line)
            else:
                await _interactive(sandbox, out)
        finally:
            await harness.stop()
    if sandbox.failures:
        out(f"!! {sandbox.failures} line(s) failed")
        return 1
    return 0


async def _interactive(sandbox: Sandbox, out: Callable[[str], None]) -> None:
    out(PROMPT_HELP)
    while True:
        try:
            line = await asyncio.to_thread(input, "> ")
        except EOFError:
            return
        if line.strip() in {"quit", "exit"}:
            return
        if line.strip() in {"help", "?"}:
            out(PROMPT_HELP)
            continue
        await sandbox.run_line(line)
