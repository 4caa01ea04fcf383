"""The decisions a player takes between rounds, and which ones are legal now.

The battle pauses only when some seat owes a decision (a card to play, a Rang 2 path to choose, a
Défenseur to place); it then asks each seat its `Step`s in order. Legality is a pure function of the
steps and the answers given so far, so the protocol adapter (over frozen states) and the fast simulator
(over mutable objects) share it and can never disagree.

Moving a Défenseur is the rulebook's « quand tu veux »: a free action, legal at every step of a pause
(before a Rang 2 path or a placement is answered as well as with the card to play), never closing a step,
each Défenseur at most once per pause (a pause takes no battle time, so a second move would only undo
the first). It applies with the pause's other answers, before the first hit of the next round.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeAlias

from engine.errors import InvalidAction
from engine.hoss.state import Answer, Step

MAX_ID = 64


@dataclass(frozen=True, slots=True)
class ChoosePath:
    """Evolve `creature` into the Rang 2 card `card` (one of the two paths its line owns)."""

    creature: str
    card: str


@dataclass(frozen=True, slots=True)
class Place:
    """Put Défenseur `defender`, whose protégé died, on `protege`."""

    defender: str
    protege: str


@dataclass(frozen=True, slots=True)
class Move:
    """Move Défenseur `defender` onto `protege`: it guards that attacker from the next hit on."""

    defender: str
    protege: str


@dataclass(frozen=True, slots=True)
class Play:
    """Play hand card `card`; a Défenseur is played onto `protege`."""

    card: str
    protege: str | None = None


@dataclass(frozen=True, slots=True)
class Pass:
    """Play no card this round (and end this seat's decisions for the pause)."""


HossAction: TypeAlias = ChoosePath | Place | Move | Play | Pass


def answer_of(action: HossAction) -> Answer:
    """The compact form stored in the state until every seat has decided."""
    if isinstance(action, ChoosePath):
        return ("path", action.creature, action.card)
    if isinstance(action, Place):
        return ("place", action.defender, action.protege)
    if isinstance(action, Move):
        return ("move", action.defender, action.protege)
    if isinstance(action, Play):
        return ("play", action.card, action.protege or "")
    return ("pass", "", "")


def action_of(answer: Answer) -> HossAction:
    kind, first, second = answer
    if kind == "path":
        return ChoosePath(first, second)
    if kind == "place":
        return Place(first, second)
    if kind == "move":
        return Move(first, second)
    if kind == "play":
        return Play(first, second or None)
    return Pass()


def current_step(steps: Sequence[Step], answers: Sequence[Answer]) -> Step | None:
    """The step being answered: moves do not close the orders step, every other answer closes one."""
    index = 0
    for answer in answers:  # a plain loop: asked several times per answer, usually of 0 or 1 answer
        if answer[0] != "move":
            index += 1
    return steps[index] if index < len(steps) else None


def moves_of(steps: Sequence[Step], answers: Sequence[Answer]) -> list[Move]:
    """The Défenseur moves a seat may still make at this pause, whatever step it is answering."""
    if current_step(steps, answers) is None:
        return []
    return _moves(steps, answers)


def _moves(steps: Sequence[Step], answers: Sequence[Answer]) -> list[Move]:
    """`moves_of` once the pause's current step is known."""
    moved = {answer[1] for answer in answers if answer[0] == "move"}
    possible = next((step.moves for step in steps if step.kind == "orders"), ())
    return [Move(defender, protege) for defender, protege in possible if defender not in moved]


def legal(steps: Sequence[Step], answers: Sequence[Answer]) -> list[HossAction]:
    """Every legal action of a seat, in a stable order: the step's own answers (paths, placements or
    plays), then the moves, then Pass when the step is the orders."""
    step = current_step(steps, answers)
    if step is None:
        return []
    actions = list(_answers_to(step))
    actions += _moves(steps, answers)
    if step.kind == "orders":
        actions.append(Pass())
    return actions


@lru_cache(maxsize=4096)
def _answers_to(step: Step) -> tuple[HossAction, ...]:
    """A step's own answers (paths, placements or plays): every pause asks again steps equal to earlier
    ones (the same hand, the same creatures), and actions are frozen values."""
    if step.kind == "path":
        return tuple(ChoosePath(step.subject, card) for card in step.options)
    if step.kind == "place":
        return tuple(Place(step.subject, protege) for protege in step.options)
    return tuple(Play(card, protege) for card, protege in step.plays)


def to_json(action: HossAction) -> dict[str, Any]:
    if isinstance(action, ChoosePath):
        return {"kind": "path", "creature": action.creature, "card": action.card}
    if isinstance(action, Place | Move):
        kind = "place" if isinstance(action, Place) else "move"
        return {"kind": kind, "defender": action.defender, "protege": action.protege}
    if isinstance(action, Play):
        return {"kind": "play", "card": action.card, "protege": action.protege}
    return {"kind": "pass"}


_FIELDS: dict[str, tuple[str, ...]] = {
    "path": ("creature", "card"),
    "place": ("defender", "protege"),
    "move": ("defender", "protege"),
    "play": ("card", "protege"),
    "pass": (),
}


def _id(value: Any, optional: bool = False) -> bool:
    if value is None:
        return optional
    return isinstance(value, str) and 0 < len(value) <= MAX_ID


def from_json(raw: Any) -> HossAction:
    """Parse untrusted data (a button, the database); anything else raises `InvalidAction`."""
    if isinstance(raw, Mapping):
        kind = raw.get("kind")
        fields = _FIELDS.get(kind) if isinstance(kind, str) else None
        if fields is not None and set(raw) == {"kind", *fields}:
            values = [raw[name] for name in fields]
            if all(
                _id(v, optional=(kind == "play" and name == "protege"))
                for name, v in zip(fields, values, strict=True)
            ):
                if kind == "path":
                    return ChoosePath(values[0], values[1])
                if kind == "place":
                    return Place(values[0], values[1])
                if kind == "move":
                    return Move(values[0], values[1])
                if kind == "play":
                    return Play(values[0], values[1])
                return Pass()
    raise InvalidAction("error.invalid_action", action=json.dumps(raw, default=repr)[:100])
