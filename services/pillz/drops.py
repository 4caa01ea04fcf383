"""Pillz duel's drops (docs/drops.md): one character of a pack, or a few coins.

The character is a pack's first draw by `engine.pillz.open_packs` (each of a pack's characters is drawn
on its own with the pack's star odds); its worth is its share of a pack's price (100 coins / 3).
"""

from __future__ import annotations

import random
from fractions import Fraction

from engine.pillz import CARDS_PER_PACK, PACK_PRICE, PackPool, PillzCatalog, open_packs
from services.community.card_images.spec import CardCopy
from services.community.drops.pool import DropPool, DropPrize
from services.infra.messages import Text
from services.pillz.economy import PILLZ_GOLD
from services.pillz.names import stars_text

CARD_CHANCE = Fraction(3, 4)  # else a few coins
GOLD_PRIZE = 10


def draw(rng: random.Random, catalog: PillzCatalog) -> DropPrize:
    if rng.randrange(CARD_CHANCE.denominator) >= CARD_CHANCE.numerator:
        return DropPrize(currency=PILLZ_GOLD, amount=GOLD_PRIZE)
    card = catalog.card(open_packs(PackPool.of(catalog), rng, 1)[0][0])
    assert card is not None  # drawn from the catalog itself
    return DropPrize(
        card_id=card.id, copy=CardCopy(None, card.stars, False), rarity=Text.raw(stars_text(card.stars))
    )


CARD_WORTH = Fraction(PACK_PRICE, CARDS_PER_PACK)


def expected_value(_catalog: PillzCatalog) -> Fraction:
    return CARD_CHANCE * CARD_WORTH + (1 - CARD_CHANCE) * GOLD_PRIZE


DROPS = DropPool(draw, expected_value, PILLZ_GOLD, CARD_WORTH)
