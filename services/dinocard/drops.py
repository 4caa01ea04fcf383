"""Dinocard's drops (docs/drops.md): one card of a booster, or a few coins.

The card is drawn by the booster's own draw (`services.dinocard.shop.draw_card`: rarity 70/25/5 %, then
a card of it); its worth is its share of a booster's price (100 coins / 6).
"""

from __future__ import annotations

import random
from fractions import Fraction

from engine.dinocard import DinocardCatalog
from services.community.card_images.spec import CardCopy
from services.community.drops.pool import DropPool, DropPrize
from services.dinocard.economy import DINO_GOLD
from services.dinocard.keys import RARITY_KEYS
from services.dinocard.shop import BOOSTER_PRICE, CARDS_PER_BOOSTER, by_rarity, draw_card
from services.infra.messages import Text

CARD_CHANCE = Fraction(4, 5)  # else a few coins
GOLD_PRIZE = 15


def draw(rng: random.Random, catalog: DinocardCatalog) -> DropPrize:
    if rng.randrange(CARD_CHANCE.denominator) >= CARD_CHANCE.numerator:
        return DropPrize(currency=DINO_GOLD, amount=GOLD_PRIZE)
    card = catalog.card(draw_card(by_rarity(catalog), rng))
    assert card is not None  # drawn from the catalog itself
    return DropPrize(
        card_id=card.id, copy=CardCopy(card.rarity, 0, False), rarity=Text(RARITY_KEYS[card.rarity])
    )


CARD_WORTH = Fraction(BOOSTER_PRICE, CARDS_PER_BOOSTER)


def expected_value(_catalog: DinocardCatalog) -> Fraction:
    return CARD_CHANCE * CARD_WORTH + (1 - CARD_CHANCE) * GOLD_PRIZE


DROPS = DropPool(draw, expected_value, DINO_GOLD, CARD_WORTH)
