"""Immortal's War for the engine-wide golden and property tests (tests/engine/game_checks.py)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from engine.immortals.ai import choose as ai_choose
from engine.immortals.ai import random_policy
from engine.immortals.catalog import ImmortalsCatalog
from engine.immortals.state import Choose, ImmortalsState
from engine.rng import derive
from tests.engine.game_checks import ID, GameChecks, Policy, Scenario


def policy(seed: int) -> Policy:
    """The AI for seat 0, the uniform random policy for seat 1 (it casts spells whose condition fails),
    each with its own seeded stream; the engine names the one seat to act (the engaging seat, then the
    counter)."""
    rngs = [random.Random(derive(seed, "golden", "immortals", seat)) for seat in (0, 1)]

    def choose(state: ImmortalsState, current: list[int]) -> tuple[int, Any]:
        (seat,) = current
        play = ai_choose if seat == 0 else random_policy
        return seat, play(state, seat, rngs[seat])

    return choose


CHECKS = GameChecks(
    game="immortals",
    catalog_model=ImmortalsCatalog,
    golden=(
        Scenario(
            "immortals",
            "duel",
            seed=38,
            options={},
            policy=policy,
            why="four fights decided on vitality, the last one drawn after 20 turns, with family bonuses,"
            " level-3+ card bonuses, favourite and malus terrains, and spells cast, some left without effect"
            " by their terrain or family condition",
        ),
        Scenario(
            "immortals",
            "draw",
            seed=168,
            options={},
            policy=policy,
            why="a drawn duel: equal vitality after four fights, one of them drawn",
        ),
        Scenario(
            "immortals",
            "ko",
            seed=9,
            options={},
            policy=policy,
            why="a sweep: seat 0 wins all four fights and kills the opponent in the last one",
        ),
        Scenario(
            "immortals",
            "counter",
            seed=2,
            options={},
            policy=policy,
            why="seat 1 engages (the higher total Attack) every round and the AI counters each attack"
            " knowing its unit and spell; decided on vitality (in the three above seat 0 engages)",
        ),
    ),
    action_types=(Choose,),
    well_formed=st.builds(Choose, unit=ID, spell=st.none() | ID),
)
