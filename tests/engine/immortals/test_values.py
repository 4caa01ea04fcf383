"""The values a duel's state holds are built without their constructors (`state.built`, `state.evolve`):
each must equal what the constructor or pydantic would make, and the state must still refuse bad JSON."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from engine.immortals.ai import random_policy
from engine.immortals.state import (
    Choose,
    Fighter,
    FightRecord,
    ImmortalsState,
    SpellCard,
    Unit,
    built,
    evolve,
)
from engine.protocol import Event
from tests.engine.immortals.helpers import ENGINE, catalog


def played(seed: int) -> tuple[list[ImmortalsState], list[Event]]:
    """Every state of a duel between two random players, and every event."""
    rng = random.Random(seed)
    setup = ENGINE.sample_setup(rng, catalog())
    states = [ENGINE.new_game(setup.players, seed, setup.options)]
    events: list[Event] = []
    while not states[-1].finished:
        for seat in ENGINE.current_players(states[-1]):
            state, more = ENGINE.apply(states[-1], seat, random_policy(states[-1], seat, rng))
            states.append(state)
            events += more
    return states, events


def values(state: ImmortalsState) -> list[Any]:
    found: list[Any] = [*state.units[0], *state.units[1], *state.spells[0], *state.spells[1]]
    for record in state.history:
        found += [record, *record.fighters]
    return found


@pytest.mark.parametrize("seed", range(30))
def test_built_values_equal_their_constructed_twins(seed: int) -> None:
    states, _ = played(seed)
    final = states[-1]
    assert final.history, "a duel plays at least one round"
    for value in values(final):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        assert vars(value) == fields  # every field, nothing else
        twin = type(value)(**fields)
        assert value == twin
        assert hash(value) == hash(twin)
        assert built(type(value), dict(fields)) == twin
        with pytest.raises(dataclasses.FrozenInstanceError):
            value.__setattr__(dataclasses.fields(value)[0].name, None)


@pytest.mark.parametrize("seed", range(30))
def test_every_state_is_what_pydantic_reads_back(seed: int) -> None:
    """The same values as the validated state, the same JSON text, and the types pydantic gives them."""
    for state in played(seed)[0]:
        text = ENGINE.to_json(state)
        back = ENGINE.from_json(text)
        assert back == state
        assert ENGINE.to_json(back) == text
        assert ImmortalsState.model_validate(state.model_dump()) == state


def test_evolve_is_model_copy() -> None:
    states, _ = played(3)
    first = states[0]
    update = {"round": 2, "pending": (Choose(unit="u0-1"), None)}
    copy = evolve(first, update)
    assert copy == first.model_copy(update=update)
    assert copy.model_dump_json() == first.model_copy(update=update).model_dump_json()
    assert copy.model_fields_set == set(ImmortalsState.model_fields)
    assert first.round == 1  # the original is untouched
    assert first.pending == (None, None)
    # pydantic's own copy of an evolved state works (the services' tests rely on it)
    assert copy.model_copy(update={"round": 3}).round == 3


def test_fight_events_hold_the_records_json() -> None:
    """The engine writes a fight event's data itself: it must be the record's JSON form, as before."""
    records = TypeAdapter(FightRecord)
    for seed in range(20):
        states, events = played(seed)
        fights = [e.data for e in events if e.kind == "fight"]
        assert fights == [records.dump_python(r, mode="json") for r in states[-1].history]
        assert json.loads(json.dumps(fights)) == fights


def test_stored_values_are_still_validated() -> None:
    state = played(4)[0][-1]
    raw = json.loads(ENGINE.to_json(state))
    bad_unit = json.loads(json.dumps(raw))
    bad_unit["units"][0][0]["spy"] = 1
    bad_fighter = json.loads(json.dumps(raw))
    bad_fighter["history"][0]["fighters"][1]["attack"] = "many"
    bad_choice = json.loads(json.dumps(raw))
    bad_choice["pending"] = [{"kind": "choose", "unit": "u0-1", "spell": None, "extra": 1}, None]
    wrong_kind = json.loads(json.dumps(raw))
    wrong_kind["pending"] = [{"kind": "pick", "unit": "u0-1", "spell": None}, None]
    for bad in (bad_unit, bad_fighter, bad_choice, wrong_kind):
        with pytest.raises(ValidationError):
            ENGINE.from_json(json.dumps(bad))


def test_the_values_keep_their_types() -> None:
    """A unit read back from JSON is the same class the engine builds, not a dict or a model."""
    state = ENGINE.from_json(ENGINE.to_json(played(5)[0][-1]))
    assert all(type(u) is Unit for side in state.units for u in side)
    assert all(type(s) is SpellCard for side in state.spells for s in side)
    assert all(type(f) is Fighter for r in state.history for f in r.fighters)
    assert all(type(r) is FightRecord for r in state.history)
