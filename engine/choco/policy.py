"""A simple fixed policy for tests and benchmarks (not an AI): it plays through the engine, so it sits above it.

`sample.py` stays below the engine, which draws its sample decks from it.
"""

from __future__ import annotations

from engine.choco.engine import ChocoEngine
from engine.choco.state import Attack, ChocoState, DeckAttack, Move, Step, Summon


def greedy_steps(state: ChocoState, seat: int) -> list[Step]:
    """A simple fixed policy (for tests and benchmarks, not an AI): summon the strongest wizard to the
    front (or move one forward when none can be summoned there and the front is empty), then each front
    wizard hits the weakest enemy front wizard, or the pioche (the free attack) once the enemy board is
    empty. Every step is legal in turn, and the turn can always end after them."""
    engine = ChocoEngine()
    steps: list[Step] = []
    summons = [a for a in engine.legal_actions(state, seat) if isinstance(a, Summon) and a.line == "front"]
    if summons:
        hand = {c.uid: c for c in state.sides[seat].hand}
        best = max(summons, key=lambda a: (hand[a.card].pa, hand[a.card].pv, a.card))
        steps.append(best)
        state, _ = engine.apply(state, seat, best)
    if not state.sides[seat].front:  # nothing to summon on the front: a reserve wizard must go forward
        forward = [a for a in engine.legal_actions(state, seat) if isinstance(a, Move) and a.line == "front"]
        if forward:
            steps.append(forward[0])
            state, _ = engine.apply(state, seat, forward[0])
    for attacker in state.sides[seat].front:
        if state.finished:
            break
        legal = engine.legal_actions(state, seat)
        attacks = [a for a in legal if isinstance(a, Attack) and a.attacker == attacker.uid]
        decks = [a for a in legal if isinstance(a, DeckAttack) and a.attacker == attacker.uid]
        choice: Step
        if attacks:
            pv = {c.uid: c.pv for c in state.sides[1 - seat].front}
            choice = min(attacks, key=lambda a: (pv.get(a.target, 99), a.target))
        elif decks and state.progress.deck_attacks == 0:
            choice = decks[0]
        else:
            continue
        steps.append(choice)
        state, _ = engine.apply(state, seat, choice)
    return steps
