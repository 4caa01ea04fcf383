"""The step-wise protocol and the whole-turn submission accept the same play and give the same game."""

from __future__ import annotations

import random

from engine.choco.engine import ChocoEngine
from engine.choco.sample import sample_catalog
from engine.choco.state import ChocoAction, ChocoState, EndTurn, Prepare, Turn

ENGINE = ChocoEngine()


def _random_game(seed: int) -> tuple[ChocoState, list[tuple[ChocoState, int, list[ChocoAction]]]]:
    """Play step by step at random; collect (state at turn start, seat, steps) for every full turn."""
    rng = random.Random(seed)
    setup = ENGINE.sample_setup(rng, sample_catalog())
    s = ENGINE.new_game(setup.players, seed, setup.options)
    turns: list[tuple[ChocoState, int, list[ChocoAction]]] = []
    start = s
    steps: list[ChocoAction] = []
    while ENGINE.current_players(s):
        seat = rng.choice(ENGINE.current_players(s))
        action = rng.choice(ENGINE.legal_actions(s, seat))
        before = s
        s, _ = ENGINE.apply(s, seat, action)
        if isinstance(action, Prepare):
            start, steps = s, []
            continue
        if not steps:
            start = before
        if isinstance(action, EndTurn):
            turns.append((start, seat, steps))
            steps = []
        else:
            steps.append(action)
    return s, turns


def test_every_step_wise_turn_replays_as_one_submission() -> None:
    checked = 0
    for seed in range(15):
        _, turns = _random_game(seed)
        for start, seat, steps in turns:
            whole, _ = ENGINE.apply(start, seat, Turn(steps=tuple(steps)))
            stepped = start
            for step in [*steps, EndTurn()]:
                stepped, _ = ENGINE.apply(stepped, seat, step)
            assert whole == stepped
            checked += 1
    assert checked > 100


def test_legal_actions_are_exactly_the_steps_apply_accepts() -> None:
    from engine.choco.turn import candidates
    from engine.errors import IllegalAction

    _, turns = _random_game(3)
    for start, seat, _ in turns[:20]:
        legal = ENGINE.legal_actions(start, seat)
        for step in candidates(start, seat):
            try:
                ENGINE.apply(start, seat, step)
                accepted = True
            except IllegalAction:
                accepted = False
            assert accepted == (step in legal)
