"""Immortal's War's drops (docs/drops.md): a few gold pieces, never a unit or a soul fragment.

Decision, from the rulebook: the only things it hands out are what a duel pays, « vos gains de fin du
combat que sont les Pièces d'Or et les Fragments d'âme ». No rule hands out a unit (recruiting is the bot's
own purchase, 150 gold), so a drop never does; soul fragments stay the reward of fighting, as the daily
decided (docs/daily.md). A drop is 10, 15 or 20 gold, each equally likely.
"""

from __future__ import annotations

import random
from fractions import Fraction

from engine.immortals import ImmortalsCatalog
from services.community.drops.pool import DropPool, DropPrize
from services.immortals.economy import GOLD

GOLD_PRIZES = (10, 15, 20)


def draw(rng: random.Random, _catalog: ImmortalsCatalog) -> DropPrize:
    return DropPrize(currency=GOLD, amount=rng.choice(GOLD_PRIZES))


def expected_value(_catalog: ImmortalsCatalog) -> Fraction:
    return Fraction(sum(GOLD_PRIZES), len(GOLD_PRIZES))


DROPS = DropPool(draw, expected_value, GOLD)
