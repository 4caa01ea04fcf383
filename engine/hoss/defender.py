"""The Défenseur: it never strikes; it stands on one of its side's attackers and takes hits for it.

- Interception: each enemy hit aimed at its protégé is taken by the Défenseur 70 % of the time, 100 %
  when the Défenseur resists the attacker's race and the protégé fears it. Two Défenseurs on one
  protégé try in play order. Statuses (Choc, Gel) do not stop an interception; a confused creature's
  hit on its own ally is never intercepted.
- Block (in `damage.py`): the card's block, raised by the bonus, lowered by Gel by the same %; 80 %
  flat against an Archer hit aimed directly at it (Gel does not lower that); halved against a Lancier;
  none while shocked.
- Placement: only on an attacker of its side (a Défenseur guarding a Défenseur protects nothing). When
  its protégé dies it guards nobody until the end of the round, then is re-placed: automatically when a
  single attacker is left, by its owner's choice when there are several, and it waits unplaced when
  there is none (it is placed on the next attacker to enter).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.hoss.fighters import Fighter, Side
from engine.hoss.rules import BP, INTERCEPT_BP

INTERCEPT = INTERCEPT_BP / BP


def interceptor(attacker: Fighter, target: Fighter, rnd: Callable[[], float]) -> Fighter | None:
    """The Défenseur that takes this hit instead of `target`, if any."""
    bit = attacker.race_bit
    for defender in target.side.defenders:
        if defender.protege is target and (
            (defender.resists_race & bit and target.fears_race & bit) or rnd() < INTERCEPT
        ):
            return defender
    return None


def candidates(side: Side) -> list[Fighter]:
    """Creatures a Défenseur of `side` may stand on, in play order."""
    return [f for f in side.fighters if not f.is_def]
