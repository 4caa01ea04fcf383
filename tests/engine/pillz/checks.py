"""Pillz for the engine-wide golden and property tests (tests/engine/game_checks.py)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from engine.pillz.ai import choose as ai_choose
from engine.pillz.catalog import PillzCatalog
from engine.pillz.state import PillzState, Play
from engine.rng import derive
from tests.engine.game_checks import ID, GameChecks, Policy, Scenario


def policy(seed: int) -> Policy:
    """Pillz's AI for both seats, each with its own seeded stream."""
    rngs = [random.Random(derive(seed, "golden", "pillz", seat)) for seat in (0, 1)]

    def choose(state: PillzState, current: list[int]) -> tuple[int, Any]:
        seat = current[0]
        return seat, ai_choose(state, seat, rngs[seat])

    return choose


CHECKS = GameChecks(
    game="pillz",
    catalog_model=PillzCatalog,
    golden=(
        Scenario(
            "pillz",
            "duel",
            seed=129,
            options={},
            policy=policy,
            why="a four-round duel whose leaders act (Trésor de guerre's refund, Bénédiction) with a power"
            " bonus",
        ),
    ),
    action_types=(Play,),
    well_formed=st.builds(Play, card=ID, pillz=st.integers(0, 99)),
)
