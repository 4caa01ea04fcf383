"""The step-wise protocol and the whole-turn submission accept the same play and give the same game."""

from __future__ import annotations

import random

from engine.choco.engine import ChocoEngine
from engine.choco.sample import sample_catalog
from engine.choco.state import EFFECTS, ChocoAction, ChocoState, EndTurn, PlayEffect, Prepare, Summon, Turn
from engine.choco.turn import candidates, check
from engine.errors import IllegalAction
from tests.engine.game_checks import catalog as checked_catalog

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


def _checked(state: ChocoState, seat: int) -> list[ChocoAction]:
    """The plain definition of the listed steps: every candidate that `check` accepts, in order."""
    listed: list[ChocoAction] = []
    for step in candidates(state, seat):
        try:
            check(state, seat, step)
        except IllegalAction:
            continue
        listed.append(step)
    return listed


def test_the_listed_steps_are_the_candidates_check_accepts() -> None:
    """`legal_actions` asks the rules that look at a step's kind once per kind, not once per candidate
    (turn.legal_steps), and `is_legal` checks a step alone (turn.listed): over random games of the real
    catalog, for both seats at every state, the list is exactly the candidates `check` accepts, in the
    same order (extra summons after effects included), and `is_legal` answers `in` that list for every
    candidate of either seat, those candidates with a `recall`, a summon with targets and a preparation."""
    catalog = checked_catalog("choco")
    compared = extra = 0
    for seed in range(40):
        rng = random.Random(seed)
        setup = ENGINE.sample_setup(rng, catalog)
        state = ENGINE.new_game(setup.players, seed, setup.options)
        while current := ENGINE.current_players(state):
            asked: list[ChocoAction] = [*candidates(state, 0), *candidates(state, 1)]
            # `check` reads no `recall`: these pass it like their candidate, yet are never listed.
            asked += [
                a.model_copy(update={"recall": ("c0",)}) for a in asked if isinstance(a, Summon | PlayEffect)
            ]
            card = state.sides[0].hand[0].uid if state.sides[0].hand else "c0"
            asked += [Summon(card=card, line="front", targets=(card,)), Prepare(card=card, line="front")]
            for seat in (0, 1):
                legal = ENGINE.legal_actions(state, seat)
                if state.turn != 0:
                    assert legal == _checked(state, seat)
                    compared += 1
                assert [ENGINE.is_legal(state, seat, a) for a in asked] == [a in legal for a in asked]
            extra += state.progress.extra_summons > 0 and state.progress.phase == EFFECTS
            seat = rng.choice(current)
            state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    assert compared > 2000
    assert extra > 0
