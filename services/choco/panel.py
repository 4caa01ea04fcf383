"""The guided panel: a turn built step by step from the engine's own list of legal next steps.

The draft is stored per game and seat (`choco_drafts`) for the game version it was built on, so it
survives a restart and dies with the turn. Each pick must be one of the steps the engine lists as legal
after the draft (`legal_actions` is exact), so a panel can never build an illegal turn; "Valider" is
offered only when the engine allows the turn to end, and sends the draft through the same declaration as
the text form. Choices go through select values: a compact, opaque encoding of one step.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from core.clock import Clock
from core.errors import BadInput, NotAllowed
from engine.choco import (
    Attack,
    ChocoCatalog,
    ChocoState,
    DeckAttack,
    Discard,
    EndTurn,
    Move,
    PlayEffect,
    Prepare,
    Summon,
)
from engine.errors import IllegalAction
from services.choco.game_store import ENGINE, RULES, GameRow, draft, live_here, save_draft
from services.choco.games import ChocoGames, Declared
from services.choco.notation import describe
from services.choco.text import enemy_labels, own_labels
from services.infra.messages import Text
from services.shared.matches import StaleMatch
from store.connection import Connection
from store.db import Database

MAX_OPTIONS = 25  # Discord's limit per select
MAX_DRAFT = 40


def encode(step: Any) -> str:
    """A step as a select value (at most 100 characters): kind letter and instance ids."""
    if isinstance(step, Prepare):
        return f"p:{step.card}:{step.line}"
    if isinstance(step, Summon):
        return ":".join(["s", step.card, step.line, *step.targets])
    if isinstance(step, PlayEffect):
        return ":".join(["e", step.card, *step.targets])
    if isinstance(step, Move):
        return f"m:{step.card}:{step.line}"
    if isinstance(step, Attack):
        return f"a:{step.attacker}:{step.target}"
    if isinstance(step, DeckAttack):
        return f"d:{step.attacker}"
    if isinstance(step, Discard):
        return f"x:{step.card}"
    raise ValueError(step)


def decode(value: str) -> Any:
    parts = value.split(":")
    try:
        kind, rest = parts[0], parts[1:]
        if kind == "p":
            return Prepare(card=rest[0], line=rest[1])
        if kind == "s":
            return Summon(card=rest[0], line=rest[1], targets=tuple(rest[2:]))
        if kind == "e":
            return PlayEffect(card=rest[0], targets=tuple(rest[1:]))
        if kind == "m":
            return Move(card=rest[0], line=rest[1])
        if kind == "a":
            return Attack(attacker=rest[0], target=rest[1])
        if kind == "d":
            return DeckAttack(attacker=rest[0])
        if kind == "x":
            return Discard(card=rest[0])
    except (IndexError, ValueError) as error:
        raise BadInput("choco.error.panel_value") from error
    raise BadInput("choco.error.panel_value")


@dataclass(frozen=True)
class Option:
    value: str
    label: Text
    hint: str = ""  # the positions (`code`), shown under the label


@dataclass(frozen=True)
class Group:
    code: str  # "s" summons (and the preparatory placement), "e" effects and moves, "a" attacks, "d" discards
    placeholder: Text
    options: tuple[Option, ...]
    truncated: int = 0  # options beyond Discord's 25 (the text form can still declare them)


GROUPS: tuple[tuple[str, str, tuple[type, ...]], ...] = (
    ("s", "choco.panel.pick_summon", (Prepare, Summon)),
    ("e", "choco.panel.pick_effect", (PlayEffect, Move)),
    ("a", "choco.panel.pick_attack", (Attack, DeckAttack)),
    ("d", "choco.panel.pick_discard", (Discard,)),
)


def code(step: Any, labels: dict[str, str]) -> str:
    """The step in positions as the turn began (M hand, F/R own lines, AF/AR the opponent's: the labels
    of the hand DM, the board post and the text form), so two copies of one card are told apart."""

    def at(uid: str) -> str:
        return labels.get(uid, "?")

    if isinstance(step, Prepare):
        return f"{at(step.card)} → {'F' if step.line == 'front' else 'R'}"
    if isinstance(step, Summon):
        head = f"{at(step.card)} → {'F' if step.line == 'front' else 'R'}"
        return head + "".join(f" ⇢ {at(t)}" for t in step.targets)
    if isinstance(step, PlayEffect):
        return at(step.card) + "".join(f" ⇢ {at(t)}" for t in step.targets)
    if isinstance(step, Move):
        return f"{at(step.card)} → {'F' if step.line == 'front' else 'R'}"
    if isinstance(step, Attack):
        return f"{at(step.attacker)} → {at(step.target)}"
    if isinstance(step, DeckAttack):
        return f"{at(step.attacker)} → ❑"
    return at(step.card)


@dataclass(frozen=True)
class Panel:
    game_id: int
    version: int
    preparatory: bool
    steps: tuple[Text, ...]
    groups: tuple[Group, ...]  # one select each, in the turn's order; empty groups are left out
    can_submit: bool
    declared: Declared | None = None


def _targeted(state: ChocoState, seat: int, step: Any) -> list[Any]:
    """The engine lists effects with their targets left to chance; the panel also offers each single
    chosen target the engine accepts (two chosen targets: the text form names them)."""
    if not isinstance(step, PlayEffect | Summon) or step.targets:
        return []
    found = []
    for side in state.sides:
        for card in side.board():
            candidate = step.model_copy(update={"targets": (card.uid,)})
            try:
                ENGINE.apply(state, seat, candidate)
            except IllegalAction:
                continue
            found.append(candidate)
    return found


def replay(game: GameRow, seat: int, steps: list[Any]) -> ChocoState:
    state = game.state
    for step in steps:
        state, _ = ENGINE.apply(state, seat, step)
    return state


def build_panel(game: GameRow, seat: int, steps: list[Any], catalog: ChocoCatalog) -> Panel:
    state = replay(game, seat, steps)
    legal = ENGINE.legal_actions(state, seat)
    options: list[Any] = []
    for step in legal:
        if isinstance(step, EndTurn):
            continue
        options.append(step)
        options += _targeted(state, seat, step)
    texts = describe(options, state, seat, catalog) if options else []
    start = game.state
    labels = {**own_labels(start.sides[seat]), **enemy_labels(start.sides[1 - seat])}
    groups = []
    for group, placeholder, kinds in GROUPS:
        found = [
            Option(encode(s), texts[i], code(s, labels))
            for i, s in enumerate(options)
            if isinstance(s, kinds)
        ]
        if found:
            extra = max(len(found) - MAX_OPTIONS, 0)
            groups.append(Group(group, Text(placeholder), tuple(found[:MAX_OPTIONS]), extra))
    return Panel(
        game_id=game.id,
        version=game.version,
        preparatory=game.state.turn == 0,
        steps=tuple(describe(steps, game.state, seat, catalog)) if steps else (),
        groups=tuple(groups),
        can_submit=state.finished or any(isinstance(s, EndTurn) for s in legal),  # a winning draft ends it
    )


class ChocoPanel:
    def __init__(self, db: Database, clock: Clock, catalog: ChocoCatalog, games: ChocoGames) -> None:
        self.db = db
        self.clock = clock
        self.catalog = catalog
        self.games = games

    def _mine(
        self,
        conn: Connection,
        game_id: int,
        player: int,
        guild_id: int | None,
        version: int | None = None,
    ) -> tuple[GameRow, int]:
        """The game and the player's seat when it is their turn (a game of another server does not exist
        here: `load_here`). A panel built on an older version is stale first of all (its turn may be
        over): the player is told the game changed meanwhile."""
        game = live_here(conn, game_id, guild_id, player)
        seat = game.seat_of(player)
        if version is not None and version != game.version:
            raise StaleMatch(RULES.texts.stale)
        if seat not in game.to_act():
            raise NotAllowed("choco.error.not_your_turn")
        return game, seat

    async def show(self, game_id: int, player: int, guild_id: int | None = None) -> Panel:
        def unit(conn: Connection) -> Panel:
            game, seat = self._mine(conn, game_id, player, guild_id)
            return build_panel(game, seat, draft(conn, game, seat), self.catalog)

        return await self.db.read(unit)

    async def _edit(
        self, game_id: int, player: int, version: int, change: Any, guild_id: int | None
    ) -> Panel:
        now: datetime = self.clock.now()

        def unit(conn: Connection) -> Panel:
            game, seat = self._mine(conn, game_id, player, guild_id, version)
            steps = change(game, seat, draft(conn, game, seat))
            save_draft(conn, game, seat, steps, now)
            return build_panel(game, seat, steps, self.catalog)

        return await self.db.write(unit)

    async def pick(
        self, game_id: int, player: int, version: int, value: str, guild_id: int | None = None
    ) -> Panel | Declared:
        """Add one step. In the preparatory turn the pick IS the placement, sent at once."""
        step = decode(value)
        if isinstance(step, Prepare):
            return await self.games.declare(game_id, player, [step], version, guild_id)

        def add(game: GameRow, seat: int, steps: list[Any]) -> list[Any]:
            state = replay(game, seat, steps)
            if len(steps) >= MAX_DRAFT:
                raise BadInput("choco.error.panel_full")
            try:
                ENGINE.apply(state, seat, step)
            except IllegalAction as error:
                raise BadInput("choco.error.panel_illegal") from error
            return [*steps, step]

        return await self._edit(game_id, player, version, add, guild_id)

    async def undo(self, game_id: int, player: int, version: int, guild_id: int | None = None) -> Panel:
        return await self._edit(game_id, player, version, lambda g, s, steps: steps[:-1], guild_id)

    async def clear(self, game_id: int, player: int, version: int, guild_id: int | None = None) -> Panel:
        return await self._edit(game_id, player, version, lambda g, s, steps: [], guild_id)

    async def submit(self, game_id: int, player: int, version: int, guild_id: int | None = None) -> Declared:
        def unit(conn: Connection) -> list[Any]:
            game, seat = self._mine(conn, game_id, player, guild_id, version)
            return draft(conn, game, seat)

        steps = await self.db.read(unit)
        return await self.games.declare(game_id, player, steps, version, guild_id)
