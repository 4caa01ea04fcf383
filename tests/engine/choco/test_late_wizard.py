"""A wizard that reaches the hand after the summon phase is not owed a summon (docs/choco/rules-notes.md).

Found by the golden playthrough's policy (seed 22): a turn that starts with only a pure effect in hand,
whose recall brings a wizard back from the graveyard, left the player with no legal step at all.
"""

from __future__ import annotations

from engine.choco.engine import ChocoEngine
from engine.choco.state import Card, ChocoState, EndTurn, Move, PlayEffect, Side, TurnProgress
from engine.rng import RngState
from tests.engine.choco.helpers import effect, pure, wiz

ENGINE = ChocoEngine()
RECALL = effect("from_hand", {"kind": "recall", "count": 1})


def start(front: tuple[Card, ...], reserve: tuple[Card, ...]) -> ChocoState:
    """Seat 0 at the start of its turn: nothing but the recall in hand, a dead wizard in its graveyard."""
    mine = Side(
        pioche=(wiz("k0"),),
        hand=(pure("p0", "recall"),),
        front=front,
        reserve=reserve,
        graveyard=(wiz("dead"),),
    )
    theirs = Side(pioche=(wiz("q0"),), front=(wiz("e0"),))
    return ChocoState(
        sides=(mine, theirs),
        player_ids=(1, 2),
        rng=RngState.from_seed(7, "t"),
        turn=3,
        active=0,
        progress=TurnProgress(),
        effects={"recall": RECALL},
    )


def test_the_turn_goes_on_after_a_wizard_is_recalled_to_the_hand() -> None:
    state, _ = ENGINE.apply(start(front=(), reserve=(wiz("r0"),)), 0, PlayEffect(card="p0"))
    assert [c.uid for c in state.sides[0].hand] == ["dead"]
    legal = ENGINE.legal_actions(state, 0)
    assert Move(card="r0", line="front") in legal
    state, _ = ENGINE.apply(state, 0, Move(card="r0", line="front"))
    assert EndTurn() in ENGINE.legal_actions(state, 0)
    after, _ = ENGINE.apply(state, 0, EndTurn())
    assert after.active == 1
    assert any(c.uid == "dead" for c in after.sides[0].hand)


def test_the_summon_is_still_owed_in_the_summon_phase() -> None:
    state = start(front=(wiz("f0"),), reserve=())
    hand = (wiz("w0"), *state.sides[0].hand)
    state = state.model_copy(
        update={"sides": (state.sides[0].model_copy(update={"hand": hand}), state.sides[1])}
    )
    legal = ENGINE.legal_actions(state, 0)
    assert EndTurn() not in legal
    assert PlayEffect(card="p0") not in legal
