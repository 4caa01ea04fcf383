"""The bare bots of benchmarks/side_by_side.py: `/ping`'s, and one that sends the real bot's very replies.

`BareBot` answers `/ping` with an ephemeral "pong": what answering an interaction costs at the least.
The real bot answers with embeds, views and pictures, which discord.py builds, serializes and uploads
whatever bot sends them. `MatchedBot` has no database, service, translation or rendering: each of its
commands and buttons replays, through the same discord.py calls (`response.send_message`,
`response.edit_message`, `response.defer`, `followup.send`, `edit_original_response`, a channel
message's `edit`), the requests the real bot made for one command of the load, captured from the
emulator's records (`Replay.of`); `check_replayed` verifies that its requests carry the same bodies and
files. Its embeds, views and files are built anew for every reply from that JSON, as the real bot builds
them from its specs, so "real / matched" is the bot's own work (database, services, rendering, checks),
and "matched / pong" what discord.py costs to send that payload.

Its buttons and selects are answered as the real bot's are: DynamicItems matching their custom ids.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import io
import logging
import re
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from benchmarks.bot_thread import BotThread
from benchmarks.command_latency import Act, Bench
from discord_app.bot import freeze_young, settle_collector
from emulator import DiscordEmulator, InteractionResult
from emulator.records import EPHEMERAL, RecordedMessage, RequestRecord, walk_components
from emulator.world import User

JsonDict = dict[str, Any]

RESPOND, UPDATE, DEFER_REPLY, DEFER_UPDATE = 4, 7, 5, 6
log = logging.getLogger("bare")

CALLBACKS = {RESPOND: "respond", UPDATE: "update", DEFER_REPLY: "defer_reply", DEFER_UPDATE: "defer_update"}
_CALLBACK = re.compile(r"/interactions/\d+/[^/]+/callback")
_FOLLOWUP = re.compile(r"/webhooks/\d+/[^/]+")
_ORIGINAL = re.compile(r"/webhooks/\d+/[^/]+/messages/@original")
_CHANNEL_EDIT = re.compile(r"/channels/\d+/messages/\d+")
_CHANNEL_SEND = re.compile(r"/channels/\d+/messages")


@dataclass(frozen=True)
class Step:
    """One request the real bot made: `kind` names the discord.py call, `body` what it sent."""

    kind: str  # respond, update, defer_reply, defer_update, followup, edit_original, edit_public, send
    body: JsonDict
    files: tuple[tuple[str, bytes], ...] = ()


@dataclass
class Replay:
    """The real bot's requests for one command of a load, grouped by the interaction that caused them."""

    exchanges: list[list[Step]]
    commands: dict[str, int] = field(default_factory=dict)  # slash command -> its exchange
    buttons: dict[str, int] = field(default_factory=dict)  # custom_id -> the exchange a click causes
    selects: dict[str, int] = field(default_factory=dict)
    public: JsonDict | None = None  # the channel message the bot edits at the end (a duel's), if any
    # Answered in order (benchmarks/command_costs.py): each user's n-th interaction gets exchange n (modulo
    # their number), whatever its command or custom_id; `shown` is then the public message the first click
    # is on, as it was before it, which the matched bot posts once ready and edits as the real bot edits its.
    ordered: bool = False
    shown: JsonDict | None = None
    script: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)  # (kind, name, values)

    @classmethod
    def of(cls, requests: list[RequestRecord], messages: list[RecordedMessage]) -> Replay:
        """The exchanges in `requests`; the files' bytes from the messages that carry them."""
        exchanges: list[list[Step]] = []
        public = None
        for request in requests:
            body = request.json if isinstance(request.json, dict) else {}
            files = tuple((name, _file_bytes(name, messages)) for name in request.files)
            if request.method == "POST" and _CALLBACK.fullmatch(request.path):
                kind = CALLBACKS.get(int(body.get("type", 0)))
                if kind is None:
                    raise SystemExit(f"matched bot: callback type {body.get('type')} not replayed")
                exchanges.append([Step(kind, dict(body.get("data") or {}), files)])
                continue
            if not exchanges:
                raise SystemExit(f"matched bot: {request.method} {request.path} before any interaction")
            if request.method == "PATCH" and _ORIGINAL.fullmatch(request.path):
                step = Step("edit_original", body, files)
            elif request.method == "POST" and _FOLLOWUP.fullmatch(request.path):
                step = Step("followup", body, files)
            elif request.method == "PATCH" and _CHANNEL_EDIT.fullmatch(request.path):
                step, public = Step("edit_public", body, files), body
            elif request.method == "POST" and _CHANNEL_SEND.fullmatch(request.path):
                # discord.py draws a new nonce for each message: not the payload's
                step = Step("send", {k: v for k, v in body.items() if k != "nonce"}, files)
            else:
                raise SystemExit(f"matched bot: {request.method} {request.path} not replayed")
            exchanges[-1].append(step)
        return cls(exchanges, public=public)

    def command(self, name: str) -> Replay:
        """A slash command answered by the first exchange."""
        self.commands[name] = 0
        return self

    def chain(self, first: str, first_is_public: bool = True) -> Replay:
        """Exchange 0 answers the click on `first` (a button of the public message); each next exchange
        answers the component of the previous reply that the real user used: its select, then its
        enabled button `Jouer (...)` (as benchmarks.side_by_side's Pillz move plays)."""
        self.buttons[first] = 0
        for index in range(1, len(self.exchanges)):
            reply = _message_body(self.exchanges[index - 1])
            components = list(walk_components(reply.get("components") or []))
            if index == 1:
                select = next(c for c in components if c.get("type") == 3)
                self.selects[str(select["custom_id"])] = index
            else:
                button = next(
                    c
                    for c in components
                    if c.get("type") == 2
                    and not c.get("disabled")
                    and str(c.get("label")).startswith("Jouer")
                )
                self.buttons[str(button["custom_id"])] = index
        return self


def _message_body(steps: list[Step]) -> JsonDict:
    """The body of the message an exchange leaves on screen (its last message-carrying step)."""
    bodies = [s.body for s in steps if s.kind in ("respond", "update", "edit_original", "followup")]
    return bodies[-1] if bodies else {}


def _file_bytes(name: str, messages: list[RecordedMessage]) -> bytes:
    for message in reversed(messages):
        for attachment in message.attachments:
            if attachment.filename == name:
                return attachment.data
    raise SystemExit(f"matched bot: the bytes of {name} are in no recorded message")


# --- building discord.py objects from the captured JSON, anew for each reply -----------------------------


def _view(components: list[JsonDict]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for row, action_row in enumerate(components):
        if action_row.get("type") != 1:
            raise SystemExit(f"matched bot: top-level component type {action_row.get('type')} not replayed")
        for c in action_row.get("components") or []:
            if c["type"] == 2:
                view.add_item(
                    discord.ui.Button(
                        style=discord.ButtonStyle(c["style"]),
                        label=c.get("label"),
                        custom_id=c.get("custom_id"),
                        url=c.get("url"),
                        disabled=bool(c.get("disabled")),
                        row=row,
                    )
                )
            elif c["type"] == 3:
                options = [
                    discord.SelectOption(
                        label=o["label"],
                        value=o["value"],
                        description=o.get("description"),
                        default=bool(o.get("default")),
                    )
                    for o in c.get("options") or []
                ]
                view.add_item(
                    discord.ui.Select(
                        custom_id=c["custom_id"],
                        placeholder=c.get("placeholder"),
                        min_values=c.get("min_values", 1),
                        max_values=c.get("max_values", 1),
                        options=options,
                        disabled=bool(c.get("disabled")),
                        row=row,
                    )
                )
            else:
                raise SystemExit(f"matched bot: component type {c['type']} not replayed")
    return view


def message_kwargs(body: JsonDict) -> dict[str, Any]:
    """discord.py's keyword arguments that send `body` again."""
    kwargs: dict[str, Any] = {}
    if "content" in body:
        kwargs["content"] = body["content"]
    if "embeds" in body:
        kwargs["embeds"] = [discord.Embed.from_dict(dict(e)) for e in body["embeds"]]
    if "components" in body:
        kwargs["view"] = _view(body["components"]) if body["components"] else None
    users = (body.get("allowed_mentions") or {}).get("users")
    if users:
        kwargs["allowed_mentions"] = discord.AllowedMentions(users=[discord.Object(id=int(u)) for u in users])
    return kwargs


def _files(step: Step) -> list[discord.File]:
    return [discord.File(io.BytesIO(data), filename=name) for name, data in step.files]


async def play(interaction: discord.Interaction[Any], steps: list[Step], public_id: int | None) -> None:
    """The exchange's requests, through the discord.py calls the real bot makes for them."""
    for step in steps:
        if step.kind == "defer_reply":
            await interaction.response.defer(
                ephemeral=bool(step.body.get("flags", 0) & EPHEMERAL), thinking=True
            )
            continue
        if step.kind == "defer_update":
            await interaction.response.defer()
            continue
        kwargs = message_kwargs(step.body)
        if (
            step.files
        ):  # no `files=[]`: discord.py would send `"attachments": []`, which the real bot does not
            kwargs["files" if step.kind in ("respond", "followup", "send") else "attachments"] = _files(step)
        elif step.body.get("attachments") == [] and step.kind in ("update", "edit_original", "edit_public"):
            kwargs["attachments"] = []  # an edit that drops the message's files
        ephemeral = bool(step.body.get("flags", 0) & EPHEMERAL)
        if step.kind == "respond":
            await interaction.response.send_message(**kwargs, ephemeral=ephemeral)
        elif step.kind == "update":
            await interaction.response.edit_message(**kwargs)
        elif step.kind == "followup":
            await interaction.followup.send(**kwargs, ephemeral=ephemeral)
        elif step.kind == "edit_original":
            await interaction.edit_original_response(**kwargs)
        elif step.kind == "edit_public":
            assert public_id is not None
            assert interaction.channel is not None
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            await channel.get_partial_message(public_id).edit(**kwargs)
        elif step.kind == "send":
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send(**kwargs)


# --- the bots ---------------------------------------------------------------------------------------------


class MatchedBot(commands.Bot):
    """The bare bot's settings (and the real bot's: no mentions allowed by default), `replay`'s commands
    and components, nothing else. `freeze_gc` as `BareBot`'s (its own process)."""

    def __init__(self, replay: Replay, *, freeze_gc: bool = False) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=0.01,
        )
        self.replay = replay
        self.failures: list[BaseException] = []
        self.publics: dict[int, int] = {}  # user id -> the public message their exchanges end by editing
        self.shown_id: int | None = None  # the copy of `replay.shown`, every user's
        self.turns: dict[int, int] = {}  # user id -> interactions answered (an ordered replay)
        self.freeze_gc = freeze_gc
        self.young_frozen = False

    async def setup_hook(self) -> None:
        groups: dict[str, app_commands.Group] = {}
        for name, index in self.replay.commands.items():
            *parents, leaf = name.split()
            command: app_commands.Command[Any, ..., None] = app_commands.Command(
                name=leaf, description="Replays the real bot's answer", callback=self._answer(index)
            )
            parent: app_commands.Group | None = None
            for depth in range(len(parents)):
                path = " ".join(parents[: depth + 1])
                if path not in groups:
                    groups[path] = app_commands.Group(name=parents[depth], description="Replayed commands")
                    if parent is None:
                        self.tree.add_command(groups[path])
                    else:
                        parent.add_command(groups[path])
                parent = groups[path]
            if parent is None:
                self.tree.add_command(command)
            else:
                parent.add_command(command)
        for ids, base in ((self.replay.buttons, _MatchedButton), (self.replay.selects, _MatchedSelect)):
            if ids:
                template = "|".join(re.escape(custom_id) for custom_id in ids)
                self.add_dynamic_items(type(base.__name__, (base,), {}, template=template))
        self.tree.on_error = self._tree_error  # type: ignore[method-assign]
        await self.tree.sync()
        if self.freeze_gc:
            settle_collector()

    async def on_ready(self) -> None:
        if self.replay.shown is not None and self.shown_id is None:
            channel = next(c for guild in self.guilds for c in guild.text_channels)
            self.shown_id = (await channel.send(**message_kwargs(self.replay.shown))).id
        if self.freeze_gc and not self.young_frozen:
            freeze_young()
            self.young_frozen = True
            log.info("ready, %d objects frozen", gc.get_freeze_count())

    def _answer(self, index: int) -> Any:
        async def answer(interaction: discord.Interaction[Any]) -> None:
            await self.answer(interaction, index)

        return answer

    async def answer(self, interaction: discord.Interaction[Any], index: int) -> None:
        user = interaction.user.id
        if self.replay.ordered:
            index = self.turns.get(user, 0) % len(self.replay.exchanges)
            self.turns[user] = self.turns.get(user, 0) + 1
        try:
            await play(interaction, self.replay.exchanges[index], self.publics.get(user, self.shown_id))
        except Exception as exc:
            self.failures.append(exc)
            raise

    async def _tree_error(self, interaction: discord.Interaction[Any], error: Exception) -> None:
        self.failures.append(error)


class _MatchedButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"__matched_button__"):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.key = custom_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> _MatchedButton:
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = interaction.client
        assert isinstance(bot, MatchedBot)
        await bot.answer(interaction, bot.replay.buttons[self.key])


class _MatchedSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"__matched_select__"):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="-")]))
        self.key = custom_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> _MatchedSelect:
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = interaction.client
        assert isinstance(bot, MatchedBot)
        await bot.answer(interaction, bot.replay.selects[self.key])


# --- the harness and the acts ----------------------------------------------------------------------------------------


class BareBot(commands.Bot):
    """discord.py and one command, nothing else: what answering an interaction costs at the least.

    With `guild_id` (its own process, benchmarks/bare_process.py) `/ping` is synced to that guild at
    start-up, as the real bot syncs its commands to DEV_GUILD_ID; without it, globally (the emulator
    answers either at once). `freeze_gc` (its own process) settles the collector at the end of start-up and
    freezes the first events' objects once ready, as bot.py's bot does (discord_app/bot.py)."""

    def __init__(self, guild_id: int | None = None, *, freeze_gc: bool = False) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # as the real bot
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents,
            guild_ready_timeout=0.01,
        )
        self.failures: list[BaseException] = []
        self.guild = None if guild_id is None else discord.Object(id=guild_id)
        self.freeze_gc = freeze_gc
        self.young_frozen = False

    async def setup_hook(self) -> None:
        @self.tree.command(name="ping", description="Answers pong, privately", guild=self.guild)
        async def ping(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

        self.tree.on_error = self._tree_error  # type: ignore[method-assign]
        await self.tree.sync(guild=self.guild)
        if self.freeze_gc:
            settle_collector()

    async def on_ready(self) -> None:
        if self.freeze_gc and not self.young_frozen:  # the first ready only, as bot.py's bot
            freeze_young()
            self.young_frozen = True
            log.info("ready in %d servers, %d objects frozen", len(self.guilds), gc.get_freeze_count())

    async def _tree_error(self, interaction: discord.Interaction[Any], error: Exception) -> None:
        self.failures.append(error)


class BareHarness:
    """A bare bot (`/ping`'s, or the matched one) on its own emulator, on a thread of its own like the
    real one (`ThreadedHarness`)."""

    def __init__(self, *, own_thread: bool = True, replay: Replay | None = None) -> None:
        self.emu = DiscordEmulator(app_name="Bare")
        # as sandbox.harness sets it for the real bot: the matched bot's deferred clicks end with an edit
        self.emu.bare_deferred_updates = False
        self.own_thread = own_thread
        self.replay = replay
        self.thread: BotThread | None = None
        self.bot: BareBot | MatchedBot | None = None
        self._running: asyncio.Future[None] | None = None

    @property
    def unexpected_errors(self) -> list[BaseException]:
        return [] if self.bot is None else list(self.bot.failures)

    async def start(self) -> None:
        await self.emu.start()
        self.emu.install()
        guild = self.emu.add_guild("Club des cartes", locale="fr")
        self.emu.add_channel(guild, "parties")

        async def build() -> BareBot | MatchedBot:
            return BareBot() if self.replay is None else MatchedBot(self.replay)

        self.thread = BotThread("bare-bot", own=self.own_thread)
        bot = self.bot = await self.thread.run(build())
        self._running = self.thread.start(bot.start(self.emu.bot_token))
        await self.emu.wait_ready(timeout=20)
        await self.thread.run(asyncio.wait_for(bot.wait_until_ready(), timeout=20))

    def user(self, name: str) -> User:
        return self.emu.world.user_named(name) or self.emu.add_user(name, locale="fr")

    async def settle(self) -> None:
        await self.emu.settle()

    async def stop(self) -> None:
        assert self.thread is not None
        if self.bot is not None:
            await self.thread.run(self.bot.close())
        if self._running is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._running
        await self.thread.close()
        self.emu.uninstall()
        await self.emu.stop()


def ping_of(bare: BareHarness, times: int) -> Act:
    async def act(user: User) -> None:
        for _ in range(times):
            check_pong(user, await bare.emu.run_command(user, "ping"))
        return None

    return act


def check_pong(user: User, reply: InteractionResult) -> None:
    """`BareBot`'s answer, not an error message: an ephemeral "pong"."""
    if not reply.ephemeral or reply.content != "pong":
        raise SystemExit(f"UNEXPECTED REPLY to {user.name}'s /ping: {reply.render()!r}")


async def post_publics(matched: BareHarness, drivers: list[User]) -> dict[int, RecordedMessage]:
    """The matched bot's copy of each driver's duel message, which its moves click and edit (untimed)."""
    bot, thread = matched.bot, matched.thread
    assert isinstance(bot, MatchedBot)
    assert thread is not None
    assert bot.replay.public is not None
    channel = matched.emu.world.channel_named("parties")
    assert channel is not None
    target = bot.get_channel(channel.id)
    assert isinstance(target, discord.TextChannel)
    publics: dict[int, RecordedMessage] = {}
    for driver in drivers:
        sent = await thread.run(target.send(**message_kwargs(bot.replay.public)))
        bot.publics[driver.id] = sent.id
        recorded = matched.emu.records.get(sent.id)
        assert recorded is not None
        publics[driver.id] = recorded
    return publics


def matched_of(matched: BareHarness, load: str, publics: dict[int, RecordedMessage]) -> Act:
    """The load's command, or its three clicks for a Pillz move, sent to the matched bot."""
    assert isinstance(matched.bot, MatchedBot)
    replay = matched.bot.replay
    emu = matched.emu
    if load != "pillz":
        name = next(iter(replay.commands))
        expected = replay.exchanges[0][0].body

        async def command(user: User) -> None:
            reply = await emu.run_command(user, name)
            expect(reply.content == (expected.get("content") or ""), f"matched /{name}", reply)
            return None

        return command
    (opener,) = [c for c, index in replay.buttons.items() if index == 0]
    (picker,) = replay.selects
    (player,) = [c for c, index in replay.buttons.items() if index == 2]
    select = next(c for c in walk_components(replay.exchanges[0][0].body["components"]) if c["type"] == 3)
    value = str(select["options"][0]["value"])

    async def move(user: User) -> None:
        controls = await emu.click(user, custom_id=opener, message=publics[user.id])
        expect(controls.message is not None and controls.ephemeral, "matched Jouer", controls)
        assert controls.message is not None
        picked = await emu.select(user, values=[value], custom_id=picker, message=controls.message)
        expect(picked.message is not None, "matched select", picked)
        assert picked.message is not None
        played = await emu.click(user, custom_id=player, message=picked.message)
        expect(played.message is not None and "0 pillz" in played.content, "matched Jouer (0 pillz)", played)
        return None

    return move


def expect(ok: bool, what: str, reply: InteractionResult) -> None:
    if not ok:
        raise SystemExit(f"UNEXPECTED REPLY to {what}: {reply.render()!r}")


async def check_replayed(matched: Bench, act: Act, user: User, replay: Replay) -> None:
    """One command, untimed: the matched bot's requests carry the very bodies and files captured."""
    await matched.settle()
    start = len(matched.emu.requests)
    await act(user)
    await matched.settle()
    again = Replay.of(matched.emu.requests[start:], matched.emu.messages)
    if again.exchanges != replay.exchanges:
        raise SystemExit(f"THE MATCHED BOT SENT OTHER REQUESTS: {again.exchanges!r} != {replay.exchanges!r}")
