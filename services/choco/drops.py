"""Chocobataille's drops (docs/drops.md): one Chocogrenouille, or a few galleons.

The frog is drawn by `engine.choco.draw_frogs`, the odds of a bought frog; its worth is a frog's price.
"""

from __future__ import annotations

import random
from fractions import Fraction

from engine.choco import FROG_PRICE, ChocoCatalog, FrogPool, draw_frogs
from services.choco.economy import CHOCO_GOLD
from services.choco.names import RARITY_KEYS
from services.community.card_images.spec import CardCopy
from services.community.drops.pool import DropPool, DropPrize
from services.infra.messages import Text

CARD_CHANCE = Fraction(4, 5)  # else a few galleons
GOLD_PRIZE = 20  # less than a frog


def draw(rng: random.Random, catalog: ChocoCatalog) -> DropPrize:
    if rng.randrange(CARD_CHANCE.denominator) >= CARD_CHANCE.numerator:
        return DropPrize(currency=CHOCO_GOLD, amount=GOLD_PRIZE)
    card = catalog.card(draw_frogs(FrogPool.of(catalog), rng, 1)[0])
    assert card is not None  # drawn from the catalog itself
    return DropPrize(
        card_id=card.id, copy=CardCopy(card.rarity, 0, False), rarity=Text(RARITY_KEYS[card.rarity])
    )


def expected_value(_catalog: ChocoCatalog) -> Fraction:
    return CARD_CHANCE * FROG_PRICE + (1 - CARD_CHANCE) * GOLD_PRIZE


DROPS = DropPool(draw, expected_value, CHOCO_GOLD, Fraction(FROG_PRICE))
