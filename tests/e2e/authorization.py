"""The authorization matrix's vocabulary (tests/e2e/test_authorization_matrix.py): a scene builds what a
command or button acts on, a row names the action and the roles that must be refused.

Each game declares its own rows in `tests/e2e/<game>/authorization.py` (`ROWS`), beside its other
end-to-end tests; `game_rows()` finds every such module, so a new game's commands join the matrix without
an edit of the matrix.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from emulator.interactions import InteractionResult
from emulator.records import RecordedMessage
from emulator.world import Channel, User
from sandbox.harness import BotHarness
from tests.e2e.messages import public_answer

HERE = Path(__file__).resolve().parent


@dataclass
class Scene:
    """What a row acts on: ids, the player entitled to act (`owner`), the other seat (`opponent`), and how
    the game ends (for the "after the end" try)."""

    ids: dict[str, int]
    owner: str
    opponent: str | None = None
    end: Callable[[World], Awaitable[None]] | None = None


@dataclass
class World:
    h: BotHarness
    here: Channel
    there: Channel

    def user(self, name: str) -> User:
        return self.h.user(name)

    def channel(self, where: str) -> Channel:
        return self.here if where == "here" else self.there


@dataclass(frozen=True)
class Role:
    name: str
    who: str  # "owner", "opponent" or a user name
    where: str  # "here" (the scene's server) or "there" (another server)
    ended: bool = False


STRANGER = Role("stranger", "carol", "here")
OTHER_SERVER = Role("from another server", "owner", "there")
STRANGER_ELSEWHERE = Role("stranger from another server", "carol", "there")
ADMIN_ELSEWHERE = Role("admin of another server", "olivia", "there")
OPPONENT = Role("opponent", "opponent", "here")
AFTER_END = Role("after the end", "owner", "here", ended=True)
STRANGER_AFTER_END_ELSEWHERE = Role("stranger from another server, game over", "carol", "there", ended=True)

Act = Callable[[World, User, Channel, dict[str, int]], Awaitable[InteractionResult]]


def click(template: str, values: list[str] | None = None) -> Act:
    """A forged component click: `template` is formatted with the scene's ids and `me` (the actor)."""

    async def act(w: World, user: User, channel: Channel, ids: dict[str, int]) -> InteractionResult:
        custom_id = template.format(me=user.id, **ids)
        chosen = None if values is None else [v.format(**ids) for v in values]
        return await w.h.emu.forge_component(user, custom_id, channel=channel, values=chosen)

    return act


def command(path: str, **options: str) -> Act:
    """A slash command whose options name scene ids ("{battle}") or plain values."""

    async def act(w: World, user: User, channel: Channel, ids: dict[str, int]) -> InteractionResult:
        values: dict[str, Any] = {}
        for name, value in options.items():
            text = value.format(**ids)
            values[name] = int(text) if text.isdigit() else text
        return await w.h.emu.run_command(user, path, values, channel=channel)

    return act


def id_in(message: RecordedMessage, prefix: str) -> int:
    """The id a button of `message` carries after `prefix`."""
    ids = [str(c.get("custom_id", "")) for c in message.all_components()]
    return int(next(i for i in ids if i.startswith(prefix)).removeprefix(prefix))


async def challenge_scene(w: World, command: str, game: str) -> Scene:
    """Alice's pending challenge of Bob by `command` (a duel of secret choices), Bob entitled to answer;
    the game ends when Alice withdraws it."""
    alice, bob = w.user("alice"), w.user("bob")
    made = public_answer(await w.h.emu.run_command(alice, command, {"joueur": bob}, channel=w.here))
    duel = id_in(made, f"{game}:accept:")

    async def end(w: World) -> None:
        await w.h.emu.click(alice, "Refuser", message=made)
        await w.h.settle()

    return Scene({"duel": duel}, "bob", "alice", end=end)


async def accepted_duel(w: World, command: str, game: str) -> tuple[Any, Any]:
    """Alice's challenge of Bob by `command`, accepted: the game's duel service and the live duel."""
    alice, bob = w.user("alice"), w.user("bob")
    made = public_answer(await w.h.emu.run_command(alice, command, {"joueur": bob}, channel=w.here))
    await w.h.emu.click(bob, "Accepter", message=made)
    await w.h.settle()
    assert w.h.bot is not None
    duels = w.h.bot.services.games[game].duels
    (duel,) = await duels.live(alice.id)
    return duels, duel


Setup = Callable[[World], Awaitable[Scene]]


@dataclass(frozen=True)
class Row:
    name: str
    scene: Setup
    act: Act
    roles: tuple[Role, ...]
    # The scene ends by this very action of its owner: the owner's try after the end is that action's
    # second click, answered with the first one's result as any double click is (privately, changing
    # nothing), not refused.
    replayed_after_end: bool = False


TWO_SEATS = (STRANGER, OTHER_SERVER, OPPONENT, AFTER_END)


def game_rows() -> tuple[Row, ...]:
    """The rows every game declares in its own `tests/e2e/<game>/authorization.py`, in the games' order."""
    rows: list[Row] = []
    for info in sorted(pkgutil.iter_modules([str(HERE)]), key=lambda i: i.name):
        if not info.ispkg:
            continue
        try:
            module = importlib.import_module(f"tests.e2e.{info.name}.authorization")
        except ModuleNotFoundError as error:
            if error.name != f"tests.e2e.{info.name}.authorization":
                raise
            continue
        rows.extend(module.ROWS)
    return tuple(rows)
