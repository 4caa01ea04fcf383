"""A state's JSON, its card effects written once per game.

`ChocoState.effects` holds the effects of the cards in play, copied from the catalog at `new_game` and
never changed afterwards: about 4 kB of a 10 kB state, and half of the time pydantic takes to write the
state that every move saves (issue 39). Every state of a game shares that one dict (a copy of a frozen
model shares its fields), and the service keeps the state it saved for the next move
(services/shared/kept_states.py), so the dict met at the next move is the same object: its JSON is kept
beside it and put in its place, between the fields written before it and those after it. The text is
the one `model_dump_json` writes (tests/engine/choco/test_state_json.py).
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from engine.choco.state import ChocoState

_FIELDS = tuple(ChocoState.model_fields)
_AFTER = _FIELDS[_FIELDS.index("effects") + 1 :]  # the fields written after the effects, in order
_APART: set[str] = {"effects", *_AFTER}  # never changed: pydantic only reads it


def _adapter(name: str) -> TypeAdapter[Any]:
    annotation = ChocoState.model_fields[name].annotation
    assert annotation is not None
    return TypeAdapter(annotation)


_ADAPTERS = {name: _adapter(name) for name in ("effects", *_AFTER)}
KEPT_EFFECTS = 64  # about the games played at once in one process, as the kept states; dropped beyond it

# The effects dicts met last (the newest first) with their JSON, found by identity: the entry holds the
# dict, so it stays the dict it was written from.
_kept: list[tuple[dict[str, Any], str]] = []


def state_json(state: ChocoState) -> str:
    """`state.model_dump_json()`, the effects' part written once per game. Like the state, the effects
    dict is never changed once made (the engine only ever builds a new state)."""
    head = state.model_dump_json(exclude=_APART)  # "{...}": every field written before the effects
    after = "".join(f',"{name}":{_field(state, name)}' for name in _AFTER)
    return f'{head[:-1]},"effects":{_effects_json(state.effects)}{after}}}'


def _effects_json(effects: dict[str, Any]) -> str:
    for kept, text in _kept:
        if kept is effects:
            return text
    text = _ADAPTERS["effects"].dump_json(effects).decode()
    if len(_kept) >= KEPT_EFFECTS:
        _kept.clear()
    _kept.insert(0, (effects, text))
    return text


def _field(state: ChocoState, name: str) -> str:
    value = getattr(state, name)
    return "[]" if value == () else _ADAPTERS[name].dump_json(value).decode()  # mostly none
