"""The loads of benchmarks/command_costs.py: one main command of each game, its state made beforehand.

A load's `grant` writes, through this process's own services on the bot's database and before the bot
starts, what its commands need (gold, copies, decks) for `count` of them; `before` does what only the
bot can do (a duel accepted), untimed, through the emulator; `act` is the `index`-th command,
its reply checked (the command did what it should, not an error message). Acts go through `Context.ui`:
the emulator, or during the capture a `Recorder` of it, which notes each interaction so that the matched
bare bot's user replays the same ones (`matched_act`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from benchmarks.bare_bots import Replay, expect
from emulator import DiscordEmulator, InteractionResult
from emulator.records import RecordedMessage, RequestRecord
from emulator.world import Channel, User
from services.hoss.gold import GOLD
from services.infra import ledger
from services.infra.container import Services
from services.infra.players import ensure_player
from store.connection import Connection

WARM = 2  # untimed commands before the measured ones: a game's welcome, first reads kept
GRANT = ledger.Movement("benchmark.grant")
BASIC = {"rarity": "basique", "stars": 0, "holo": False}
LINES = ["sq_guerrier", "orc_mage", "syl_archer", "hum_cavalier", "sq_defenseur", "orc_defenseur"]
COLLECTION_SIZE = 24
RICH = 100_000_000


class Recorder:
    """The emulator as an act uses it, noting each interaction: (kind, command or custom_id, values)."""

    def __init__(self, emu: DiscordEmulator) -> None:
        self.emu = emu
        self.script: list[tuple[str, str, tuple[str, ...]]] = []
        self.shown: dict[str, Any] | None = None
        self.made: set[int] = set()  # the messages the act's own interactions made

    def _note(
        self, kind: str, result: InteractionResult, clicked: RecordedMessage | None, name: str = ""
    ) -> None:
        record = result.interaction
        values = tuple(str(v) for v in (record.payload.get("data") or {}).get("values") or ())
        self.script.append((kind, name or record.name, values))
        source = clicked or record.source_message
        if kind != "command" and source is not None and source.id not in self.made and self.shown is None:
            self.shown = {"content": source.content, "embeds": source.embeds, "components": source.components}
        self.made.update(m.id for m in result.messages)

    async def run_command(
        self,
        user: User,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: Channel | None = None,
    ) -> InteractionResult:
        result = await self.emu.run_command(user, command, options, channel=channel)
        self._note("command", result, None, command)
        return result

    async def click(
        self,
        user: User,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        message: RecordedMessage | None = None,
    ) -> InteractionResult:
        before = _state(message)
        result = await self.emu.click(user, label, custom_id=custom_id, message=message)
        self._note("click", result, before)
        return result

    async def select(
        self,
        user: User,
        option_label: str | None = None,
        *,
        values: Sequence[str] | None = None,
        custom_id: str | None = None,
        message: RecordedMessage | None = None,
    ) -> InteractionResult:
        before = _state(message)
        result = await self.emu.select(
            user, option_label, values=values, custom_id=custom_id, message=message
        )
        self._note("select", result, before)
        return result

    def replay(self, requests: list[RequestRecord], messages: list[RecordedMessage]) -> Replay:
        replay = Replay.of(requests, messages)
        if len(replay.exchanges) != len(self.script):
            raise SystemExit(f"{len(self.script)} interactions answered by {len(replay.exchanges)} exchanges")
        for kind, name, _ in self.script:
            {"command": replay.commands, "click": replay.buttons, "select": replay.selects}[kind][name] = 0
        replay.ordered, replay.shown, replay.script = True, self.shown, list(self.script)
        return replay


def _state(message: RecordedMessage | None) -> RecordedMessage | None:
    """A copy of the message as it is before the interaction edits it."""
    if message is None:
        return None
    return RecordedMessage(
        message.id,
        message.channel,
        message.author,
        message.content,
        list(message.embeds),
        list(message.components),
    )


def matched_act(emu: DiscordEmulator, replay: Replay) -> Callable[[User, int], Awaitable[None]]:
    """The captured interactions, sent to the matched bot: commands by name, components by custom_id on
    the newest message that has them (its own reply, or the public copy it posted once ready)."""

    async def act(user: User, index: int) -> None:
        for kind, name, values in replay.script:
            if kind == "command":
                result = await emu.run_command(user, name)
            elif kind == "click":
                result = await emu.click(user, custom_id=name)
            else:
                result = await emu.select(user, values=list(values), custom_id=name)
            expect(result.interaction.failure is None, f"matched {kind} {name}", result)

    return act


@dataclass
class Context:
    """What a load's steps see: the emulator (or its recorder), the users, what `grant` returned."""

    count: int
    given: Any = None
    ui: Any = None
    emu: DiscordEmulator | None = None
    users: list[User] = field(default_factory=list)
    services: Services | None = None
    state: dict[str, Any] = field(default_factory=dict)  # what a load's `before` leaves to its `act`

    def bind(self, ui: Any, emu: DiscordEmulator, users: list[User], services: Services) -> None:
        self.ui, self.emu, self.users, self.services = ui, emu, users, services


Grant = Callable[[Services, list[int], int], Awaitable[Any]]
Step = Callable[[Context, int], Awaitable[None]]


@dataclass(frozen=True)
class Load:
    name: str
    title: str  # the table's row
    grant: Grant
    act: Step
    users: int = 1  # 0: one per command
    before: Step | None = None  # untimed, through `Context.emu`: what the `index`-th command needs


def text(reply: InteractionResult) -> str:
    """Every message of the reply as rendered, narrow no-break spaces as plain ones."""
    return "\n".join(str(m.render()) for m in reply.messages).replace("\u202f", " ").replace("\u00a0", " ")


async def _write(services: Services, unit: Callable[[Connection], Any]) -> Any:
    return await services.db.write(unit)


def known_players(services: Services, players: list[int], conn: Connection) -> None:
    for player in players:
        ensure_player(conn, player, services.clock.now(), services.registry)


def _mint(services: Services, conn: Connection, player: int, card: str, **attrs: Any) -> int:
    return ledger.mint_card(conn, services.clock.now(), player, "hoss", card, GRANT, {**BASIC, **attrs})


# --- HOSS ------------------------------------------------------------------------------------------------


async def rich(services: Services, players: list[int], count: int) -> None:
    def unit(conn: Connection) -> None:
        known_players(services, players, conn)
        for player in players:
            ledger.credit(conn, services.clock.now(), player, GOLD, RICH, GRANT)

    await _write(services, unit)


def booster_act(count: int | None) -> Step:
    async def act(context: Context, index: int) -> None:
        options = None if count is None else {"nombre": count}
        reply = await context.ui.run_command(context.users[0], "hoss booster", options)
        message = reply.message
        expect(reply.ephemeral and message is not None and bool(message.components), "/hoss booster", reply)

    return act


async def collection(services: Services, players: list[int], count: int) -> None:
    cards = sorted(services.games["hoss"].collection.cards)[:COLLECTION_SIZE]

    def unit(conn: Connection) -> None:
        known_players(services, players, conn)
        for player in players:
            for card in cards:
                _mint(services, conn, player, card)

    await _write(services, unit)


async def collection_act(context: Context, index: int) -> None:
    reply = await context.ui.run_command(context.users[0], "hoss collection")
    expect(reply.ephemeral and f"({COLLECTION_SIZE} cartes)" in text(reply), "/hoss collection", reply)


async def for_sale(services: Services, players: list[int], count: int) -> list[int]:
    """Six Rank 1 copies kept, and one more copy to sell per command."""

    def unit(conn: Connection) -> list[int]:
        known_players(services, players, conn)
        for line in LINES:
            _mint(services, conn, players[0], f"{line}_1")
        return [_mint(services, conn, players[0], "orc_mage_1") for _ in range(count)]

    result: list[int] = await _write(services, unit)
    return result


async def sale_act(context: Context, index: int) -> None:
    copy = context.given[index]
    reply = await context.ui.run_command(context.users[0], "hoss vendre carte", {"exemplaire": copy})
    expect("Vendu : " in text(reply), "/hoss vendre carte", reply)


async def fusable(services: Services, players: list[int], count: int) -> list[str]:
    """Two 0★ copies of a different card per command: each fusion is of one pair."""
    cards = sorted(services.games["hoss"].collection.cards)[:count]
    if len(cards) < count:
        raise SystemExit(f"fusion: {len(cards)} HOSS cards, {count} commands asked")

    def unit(conn: Connection) -> None:
        known_players(services, players, conn)
        for card in cards:
            for _ in range(2):
                _mint(services, conn, players[0], card)

    await _write(services, unit)
    return cards


async def fusion_act(context: Context, index: int) -> None:
    user = context.users[0]
    preview = await context.ui.run_command(user, "hoss fusion", {"carte": context.given[index]})
    expect(preview.message is not None and "1 paire" in text(preview), "/hoss fusion", preview)
    done = await context.ui.click(user, "Fusionner", message=preview.message)
    expect("1 réussie" in text(done) or "0/1 réussie" in text(done), "Fusionner", done)


# --- platform --------------------------------------------------------------------------------------------


async def known(services: Services, players: list[int], count: int) -> None:
    await _write(services, lambda conn: known_players(services, players, conn))


async def daily_act(context: Context, index: int) -> None:
    """Each command by another player: a daily is claimed once a day."""
    user = context.users[index]
    reply = await context.ui.run_command(user, "quotidien")
    expect(reply.ephemeral and "HOSS" in text(reply), "/quotidien", reply)


async def card_act(context: Context, index: int) -> None:
    reply = await context.ui.run_command(context.users[0], "carte", {"nom": "Chaman des cendres"})
    expect(reply.ephemeral and "Chaman des cendres" in text(reply), "/carte", reply)


LOADS = (
    Load("booster", "HOSS booster ×1", rich, booster_act(None)),
    Load("booster10", "HOSS booster ×10", rich, booster_act(10)),
    Load("collection", "HOSS collection page", collection, collection_act),
    Load("sale", "HOSS sale (one copy)", for_sale, sale_act),
    Load("fusion", "HOSS fusion (one pair, confirmed)", fusable, fusion_act),
    Load("daily", "/quotidien (every game's daily)", known, daily_act, users=0),
    Load("card", "/carte (its picture cached)", known, card_act),
)
