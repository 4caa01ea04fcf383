"""Dinocard for the engine-wide golden and property tests (tests/engine/game_checks.py)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from engine.dinocard.catalog import DinocardCatalog
from engine.dinocard.engine import MAX_STEPS
from engine.dinocard.state import Advance, DinocardState
from tests.engine.game_checks import GameChecks, Policy, Scenario


def policy(seed: int) -> Policy:
    """The watcher shows one step at a time, as a player clicking « next » would."""

    def choose(state: DinocardState, current: list[int]) -> tuple[int, Any]:
        return current[0], Advance(1)

    return choose


CHECKS = GameChecks(
    game="dinocard",
    catalog_model=DinocardCatalog,
    golden=(
        Scenario(
            "dinocard",
            "battle",
            seed=293,
            options={},
            policy=policy,
            why="a 25-phase battle watched step by step to a KO (Stratégie's two kept cards and a bonus card"
            " for seat 0): hidden eggs that hatch, combats with deaths and shifts, growth, regeneration, poison"
            " wounds, Arc, incantations with and without a target, enchantments, an object destroyed and the"
            " countdown's start",
        ),
    ),
    action_types=(Advance,),
    well_formed=st.builds(Advance, steps=st.integers(1, MAX_STEPS)),
)
