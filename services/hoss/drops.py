"""HOSS's drops (docs/drops.md): one card of a Rang 1 booster, or a little gold.

A card is one of the six cards of a Rang 1 booster drawn whole by `engine.hoss.draw_booster`, chosen
uniformly among them: the same odds as a card of the cheapest booster (rarity, holo, the buff slot
included), never better. Its worth is its share of the booster's price (100 gold / 6 cards).
"""

from __future__ import annotations

import random
from fractions import Fraction

from engine.hoss import CARDS_PER_BOOSTER, BoosterPool, HossCatalog, booster_price, draw_booster
from services.community.card_images.spec import CardCopy
from services.community.drops.pool import DropPool, DropPrize
from services.hoss.gold import GOLD
from services.hoss.keys import RARITY_KEYS
from services.infra.messages import Text

TIER = 1  # the Rang 1 booster, the one every player may buy
CARD_CHANCE = Fraction(4, 5)  # else a little gold
GOLD_PRIZE = 25  # a quarter of a Rang 1 booster


class _Pools:
    """The booster pool of each catalog drops draw from, built once per catalog (about 1 ms): a process
    holds one or two catalogs, each kept here with its pool so that its id names it."""

    def __init__(self) -> None:
        self._pools: dict[int, tuple[HossCatalog, BoosterPool]] = {}

    def of(self, catalog: HossCatalog) -> BoosterPool:
        found = self._pools.get(id(catalog))
        if found is None or found[0] is not catalog:
            found = (catalog, BoosterPool.of(catalog))
            self._pools[id(catalog)] = found
        return found[1]


POOLS = _Pools()


def draw(rng: random.Random, catalog: HossCatalog) -> DropPrize:
    if rng.randrange(CARD_CHANCE.denominator) >= CARD_CHANCE.numerator:
        return DropPrize(currency=GOLD, amount=GOLD_PRIZE)
    cards = draw_booster(POOLS.of(catalog), rng, TIER)
    card = cards[rng.randrange(len(cards))]
    return DropPrize(
        card_id=card.card,
        attrs={"rarity": card.rarity, "stars": 0, "holo": card.holo},
        copy=CardCopy(card.rarity, 0, card.holo),
        rarity=Text(RARITY_KEYS[card.rarity]),
    )


CARD_WORTH = Fraction(booster_price(TIER), CARDS_PER_BOOSTER)


def expected_value(_catalog: HossCatalog) -> Fraction:
    return CARD_CHANCE * CARD_WORTH + (1 - CARD_CHANCE) * GOLD_PRIZE


DROPS = DropPool(draw, expected_value, GOLD, CARD_WORTH)
