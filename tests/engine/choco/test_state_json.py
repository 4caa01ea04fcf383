"""A state's JSON with its effects written once per game (engine/choco/state_json.py) is the text pydantic
writes for the whole state, at every step of real games (effects in play, timed steps and active effects
included), and an effects dict made anew (a state parsed again) is written anew."""

from __future__ import annotations

import random

from engine.choco import ENGINE
from engine.choco import state_json as stored
from engine.choco.state import ChocoState, evolve
from engine.protocol import CATALOG_OPTION
from tests.engine.game_checks import catalog


def _states(seed: int) -> list[ChocoState]:
    """Every state of a seeded random game on the real catalog (a step at a time)."""
    rng = random.Random(seed)
    setup = ENGINE.sample_setup(rng, catalog("choco"))
    state = ENGINE.new_game(setup.players, seed, {**setup.options, CATALOG_OPTION: catalog("choco")})
    found = [state]
    while current := ENGINE.current_players(state):
        seat = rng.choice(current)
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
        found.append(state)
    return found


def test_a_states_json_is_the_one_pydantic_writes() -> None:
    states = [s for seed in range(6) for s in _states(seed)]
    assert any(s.timed for s in states)
    assert any(s.actives for s in states)
    assert all(s.effects for s in states)
    for state in states:
        assert ENGINE.to_json(state) == state.model_dump_json()
        assert ENGINE.from_json(ENGINE.to_json(state)) == state


def test_the_states_of_a_game_share_their_effects_json() -> None:
    first, *rest = _states(1)
    assert all(s.effects is first.effects for s in rest)
    stored.state_json(first)
    kept = [text for effects, text in stored._kept if effects is first.effects]
    assert len(kept) == 1
    for state in rest:
        stored.state_json(state)
        assert [text for effects, text in stored._kept if effects is first.effects] == kept
        assert stored._kept[0][1] is kept[0]


def test_effects_made_anew_are_written_anew() -> None:
    state = _states(2)[-1]
    parsed = ENGINE.from_json(ENGINE.to_json(state))
    assert parsed.effects is not state.effects
    assert ENGINE.to_json(parsed) == parsed.model_dump_json() == state.model_dump_json()
    emptied = evolve(state, {"effects": {}})
    assert ENGINE.to_json(emptied) == emptied.model_dump_json()
    for seed in range(stored.KEPT_EFFECTS + 2):  # the kept set dropped whole on the way
        stored.state_json(evolve(state, {"effects": dict(state.effects), "turn": seed}))
    assert ENGINE.to_json(state) == state.model_dump_json()
