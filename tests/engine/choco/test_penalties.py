"""The game effects of the inactivity penalties and forfeits (rulebook V.2 and IV.4)."""

from __future__ import annotations

import pytest

from engine.choco.penalties import fault_unowned_card, forfeit, inactivity_24h, inactivity_72h
from engine.choco.state import Card, ChocoState, Side, TurnProgress
from engine.errors import IllegalAction
from engine.rng import RngState


def cards(prefix: str, n: int) -> tuple[Card, ...]:
    return tuple(Card(uid=f"{prefix}{i}", card_id="bronze-1-0", pa=2, pv=5, max_pv=5) for i in range(n))


def state(me: Side, them: Side | None = None) -> ChocoState:
    return ChocoState(
        sides=(me, them or Side(pioche=cards("q", 5), front=cards("t", 1))),
        player_ids=(1, 2),
        rng=RngState(seed=9),
        turn=3,
        active=0,
        progress=TurnProgress(),
    )


def test_24h_destroys_a_random_pioche_card_else_a_hand_card() -> None:
    s, events = inactivity_24h(state(Side(pioche=cards("p", 3), hand=cards("h", 2), front=cards("f", 1))), 0)
    assert len(s.sides[0].pioche) == 2
    assert len(s.sides[0].graveyard) == 1
    assert s.rng.counter == 1
    assert events[0].data["from"] == "pioche"
    assert s.active == 0
    s, events = inactivity_24h(state(Side(pioche=(), hand=cards("h", 2), front=cards("f", 1))), 0)
    assert len(s.sides[0].hand) == 1
    assert events[0].data["from"] == "hand"
    with pytest.raises(IllegalAction):
        inactivity_24h(s, 1)


def test_72h_passes_the_turn_and_fills_an_empty_board_from_the_hand() -> None:
    s, events = inactivity_72h(state(Side(pioche=cards("p", 3), hand=cards("h", 2))), 0)
    assert len(s.sides[0].front) == 1
    assert s.sides[0].front[0].uid in {"h0", "h1"}
    assert s.active == 1
    assert s.passes == (1, 0)
    assert [e.kind for e in events][:2] == ["turn_passed", "penalty_placed"]


def test_72h_moves_a_reserve_card_to_an_empty_front() -> None:
    s, events = inactivity_72h(state(Side(pioche=cards("p", 3), reserve=cards("r", 2))), 0)
    assert len(s.sides[0].front) == 1
    assert len(s.sides[0].reserve) == 1
    assert events[1].kind == "penalty_moved"


def test_the_second_passed_turn_disqualifies() -> None:
    start = state(Side(pioche=cards("p", 3), front=cards("f", 1))).model_copy(update={"passes": (1, 0)})
    s, events = inactivity_72h(start, 0)
    assert s.finished
    assert s.winner == 1
    assert events[-1].kind == "disqualified"
    from engine.choco.engine import ChocoEngine

    outcome = ChocoEngine().outcome(s)
    assert outcome is not None
    assert outcome.reason == "choco.outcome.forfeit_absence"


def test_a_voluntary_forfeit_gives_the_win_to_the_opponent() -> None:
    s, _ = forfeit(state(Side(pioche=cards("p", 3), front=cards("f", 1))), 1)
    from engine.choco.engine import ChocoEngine

    outcome = ChocoEngine().outcome(s)
    assert outcome is not None
    assert outcome.winners == (0,)
    assert outcome.reason == "choco.outcome.forfeit_voluntary"
    with pytest.raises(IllegalAction):
        forfeit(s, 0)


def test_declaring_an_unowned_card_gives_the_opponent_one_more_card_at_their_next_draw() -> None:
    from engine.choco.engine import ChocoEngine
    from engine.choco.state import EndTurn

    start = state(
        Side(pioche=cards("p", 3), front=cards("f", 1)),
        Side(pioche=cards("q", 9), hand=cards("h", 5), front=cards("t", 1)),
    )
    s, events = fault_unowned_card(start, 0)
    assert s.bonus_draws == (0, 1)
    assert events[0].data["bonus_to"] == 1
    s, _ = ChocoEngine().apply(s, 0, EndTurn())
    assert len(s.sides[1].hand) == 7
    assert s.bonus_draws == (0, 0)
