"""The AI plans with the leaders that act on lost rounds: a Bénédiction not yet spent turns a winning blow
into a draw, a Trésor de guerre funds the next round after a loss; both its evaluators see it."""

from __future__ import annotations

import pytest

from engine.pillz.ai import evaluate
from engine.pillz.search import exact_values
from engine.pillz.state import Fighter, PillzState, Play, RoundRecord
from tests.engine.pillz.helpers import fighter, plain_hand, state

Values = dict[Play, float]


def played(fighters: tuple[Fighter, ...]) -> tuple[Fighter, ...]:
    return tuple(f.model_copy(update={"used": True}) for f in fighters)


def last_round(h0: tuple[Fighter, ...], history: tuple[RoundRecord, ...] = ()) -> PillzState:
    """Round 4, led by seat 1 (seat 0 began): one character left each, 3 PV each, 3 damage each."""
    h1 = plain_hand("b")
    return state(
        (h0[0], *played(h0[1:])),
        (h1[0], *played(h1[1:])),
        round=4,
        life=(3, 3),
        pillz=(4, 4),
        history=history,
    )


def lost_by_seat_0() -> RoundRecord:
    return RoundRecord(
        round=1, leader=0, cards=("a1", "b1"), pillz=(0, 1), attacks=(0, 5), winner=1, damage=0,
        life=(12, 12), pillz_left=(12, 11),
    )  # fmt: skip


@pytest.mark.parametrize("values", [evaluate, exact_values], ids=["evaluate", "exact_values"])
def test_the_ai_counts_the_opponents_unspent_blessing(values) -> None:
    """Seat 1 wins with odds 1/2 and would KO seat 0, but seat 0's unspent Bénédiction (3) leaves it at 3 PV:
    a draw (worth 1/4) instead of a win. Once seat 0 has lost a round, the blessing is spent."""
    blessed = (fighter("a0", damage=3), fighter("boss", ability="blessing", value=3), *plain_hand("x")[2:])
    options: Values = dict(values(last_round(blessed), 1))
    assert options[Play(card="b0", pillz=4)] == pytest.approx(0.5 * 0.25)
    spent: Values = dict(values(last_round(blessed, (lost_by_seat_0(),)), 1))
    assert spent[Play(card="b0", pillz=4)] == pytest.approx(0.5)


def test_the_search_counts_a_war_chest_refund() -> None:
    """Round 3 with no pillz left: only a Trésor de guerre's refund after losing it funds round 4."""

    def with_leader(kind: str | None) -> float:
        h0 = (fighter("a0"), fighter("boss", ability=kind, value=2), *played(plain_hand("x")[2:]))
        h1 = (*plain_hand("b")[:2], *played(plain_hand("y")[2:]))
        s = state(h0, h1, round=3, life=(9, 9), pillz=(0, 2))
        options: Values = dict(exact_values(s, 0))
        return options[Play(card="a0", pillz=0)]

    assert with_leader("war_chest") > with_leader(None) + 0.05
