"""The engine's shortcuts for a turn's copies and checks behave as the long way (issue 39): `evolve`
(engine/choco/state.py) is `model_copy(update=...)` for the engine's values (the same fields, fields set,
extra and private attributes, for every kind of value a turn copies), and the end check after each step
(`settle`) asks whether each side still has a wizard instead of counting them. A whole game played with
them stores the same JSON as its pinned digest (tests/engine/choco/golden)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from engine.choco.cycle import settle
from engine.choco.effects import prune
from engine.choco.state import Active, ChocoState, Side, Timed, TurnProgress, evolve
from engine.rng import RngState
from tests.engine.choco.helpers import pure, wiz


def _attributes(model: BaseModel) -> tuple[Any, ...]:
    return (
        type(model),
        model.__dict__,
        model.__pydantic_fields_set__,
        model.__pydantic_extra__,
        model.__pydantic_private__,
    )


def _state() -> ChocoState:
    sides = (Side(pioche=(wiz("a"),), hand=(pure("b"),)), Side(pioche=(wiz("c"),), front=(wiz("d"),)))
    return ChocoState(sides=sides, player_ids=(1, 2), rng=RngState.from_seed(3), turn=2, active=0)


VALUES: list[tuple[BaseModel, dict[str, Any]]] = [
    (wiz("u1"), {"pv": 1}),
    (pure("u2"), {"pa": 0, "max_pv": 0}),
    (Side(pioche=(wiz("x"),)), {"hand": (wiz("y"),), "graveyard": ()}),
    (TurnProgress(), {"phase": 3, "attacked": ("u1",)}),
    (Timed(owner=0, uid="u1", kind="stun", left=2, turn=1), {"left": 1}),
    (Active(owner=1, uid="u1", card_id="n", left=None, turn=4, card=wiz("u1")), {"left": 3}),
    (_state(), {"turn": 3, "active": 1}),
    (_state(), {}),
]


@pytest.mark.parametrize(("value", "update"), VALUES)
def test_evolve_makes_what_model_copy_makes(value: BaseModel, update: dict[str, Any]) -> None:
    copied = evolve(value, update)
    assert _attributes(copied) == _attributes(value.model_copy(update=update))
    assert copied == value.model_copy(update=update)
    assert copied.model_dump_json() == value.model_copy(update=update).model_dump_json()


def test_evolve_leaves_the_original_as_it_was() -> None:
    card = wiz("u1", pv=5)
    before = _attributes(card)
    fields_set = set(card.__pydantic_fields_set__)
    hurt = evolve(card, {"pv": 2})
    assert (hurt.pv, card.pv) == (2, 5)
    assert _attributes(card) == before
    assert card.__pydantic_fields_set__ == fields_set
    assert hurt.__dict__ is not card.__dict__
    assert hurt.__pydantic_fields_set__ is not card.__pydantic_fields_set__


def test_an_evolved_value_stays_frozen() -> None:
    hurt = evolve(wiz("u1"), {"pv": 2})
    with pytest.raises(ValidationError, match="frozen"):
        hurt.pv = 3  # type: ignore[misc]


# --- the end check's shortcuts (engine/choco/cycle.py `settle`) ----------------------------------------


SIDES = [
    Side(pioche=()),
    Side(pioche=(pure("p0"),), hand=(pure("p1"),)),
    Side(pioche=(pure("p0"), wiz("w0"))),
    Side(pioche=(), hand=(pure("p1"), wiz("w1"))),
    Side(pioche=(pure("p0"),), front=(wiz("w2"),)),
    Side(pioche=(), reserve=(wiz("w3"),), graveyard=(wiz("w4"),)),
    Side(pioche=(), graveyard=(wiz("w4"), pure("p2"))),
]


@pytest.mark.parametrize("side", SIDES)
def test_has_wizard_is_a_count_above_zero(side: Side) -> None:
    assert side.has_wizard() == (side.alive() > 0)


@pytest.mark.parametrize("first", SIDES)
@pytest.mark.parametrize("second", SIDES)
def test_the_end_check_ends_and_names_the_winner_as_the_counts_do(first: Side, second: Side) -> None:
    state = evolve(_state(), {"sides": (first, second)})
    settled = settle(state)
    counts = (first.alive(), second.alive())
    if min(counts) > 0:
        assert settled is state
    else:
        assert settled.finished
        assert settled.winner == (None if max(counts) == 0 else (0 if counts[0] else 1))


def test_prune_keeps_a_state_without_effects_as_it_is() -> None:
    state = _state()
    assert not state.timed
    assert not state.actives
    assert prune(state) is state
