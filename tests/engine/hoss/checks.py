"""HOSS for the engine-wide golden and property tests (tests/engine/game_checks.py)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from engine.hoss import ENGINE
from engine.hoss.actions import ChoosePath, Move, Pass, Place, Play
from engine.hoss.ai import simple_policy
from engine.hoss.catalog import HossCatalog
from engine.hoss.convert import from_state
from engine.hoss.engine import MOVE_PAUSES_OPTION
from engine.hoss.state import HossState
from tests.engine.game_checks import ID, GameChecks, Policy, Scenario


def policy(seed: int) -> Policy:
    """HOSS's simple AI for both seats (it works on the battle, rebuilt from the protocol's state)."""

    def choose(state: HossState, current: list[int]) -> tuple[int, Any]:
        seat = current[0]
        return seat, simple_policy(from_state(state), seat, ENGINE.legal_actions(state, seat))

    return choose


CHECKS = GameChecks(
    game="hoss",
    catalog_model=HossCatalog,
    golden=(
        Scenario(
            "hoss",
            "battle",
            seed=129,
            options={MOVE_PAUSES_OPTION: False},
            policy=policy,
            why="a battle to the end: Rang 2 paths chosen, evolutions, five statuses, shields, revives,"
            " immunity",
        ),
        Scenario(
            "hoss",
            "defenders",
            seed=196,
            options={MOVE_PAUSES_OPTION: True},
            policy=policy,
            why="a battle with all seven statuses, Défenseurs placed again, pauses for a possible move",
        ),
    ),
    action_types=(ChoosePath, Place, Move, Play, Pass),
    well_formed=st.one_of(
        st.builds(ChoosePath, creature=ID, card=ID),
        st.builds(Place, defender=ID, protege=ID),
        st.builds(Move, defender=ID, protege=ID),
        st.builds(Play, card=ID, protege=st.none() | ID),
        st.just(Pass()),
    ),
)
