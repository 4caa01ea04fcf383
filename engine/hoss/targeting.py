"""Who a creature hits.

Preferences narrow the enemies in this order, each filter applied only when it leaves someone: the
class's favourite prey (Cavalier: Défenseurs; Lancier: Cavaliers, else Défenseurs), then the creatures
that fear the attacker's race. The target is drawn uniformly from what is left. A confused creature that
turns on its own side picks uniformly among its allies (never itself).

The narrowed pool only changes when the enemy side changes (a creature enters or dies), so it is cached
per attacker against the side's `version`.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.hoss.fighters import Fighter
from engine.hoss.rules import CAVALIER, LANCIER


def preferred(attacker: Fighter, enemies: list[Fighter]) -> list[Fighter]:
    """The enemies `attacker` aims at first, every one equally likely."""
    pool = enemies
    if attacker.cls == CAVALIER:
        pool = [f for f in pool if f.is_def] or pool
    elif attacker.cls == LANCIER:
        pool = [f for f in pool if f.cls == CAVALIER] or [f for f in pool if f.is_def] or pool
    bit = attacker.race_bit
    return [f for f in pool if f.fears_race & bit] or list(pool)


def pick_target(attacker: Fighter, rnd: Callable[[], float]) -> Fighter | None:
    foe = attacker.foe
    if not foe.fighters:
        return None
    if attacker.pool_version != foe.version:
        attacker.pool = preferred(attacker, foe.fighters)
        attacker.pool_version = foe.version
    pool = attacker.pool
    return pool[int(rnd() * len(pool))]


def pick_ally(attacker: Fighter, rnd: Callable[[], float]) -> Fighter | None:
    allies = [f for f in attacker.side.fighters if f is not attacker]
    return allies[int(rnd() * len(allies))] if allies else None
