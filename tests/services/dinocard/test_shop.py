"""Boosters: the odds the shop shows are the odds it draws (60,000 seeded cards), one purchase per click,
coins through the ledger."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import pytest

from core.errors import InsufficientFunds
from engine.dinocard import DinocardCatalog
from services.dinocard import DinocardServices
from services.dinocard.economy import DINO_GOLD, STARTING_GOLD
from services.dinocard.shop import BOOSTER_PRICE, CARDS_PER_BOOSTER, RARITY_ODDS_PM, by_rarity, open_boosters
from services.infra import ledger
from store.db import Database
from tests.services.dinocard.conftest import ALICE

DRAWS = 10_000  # boosters: 60,000 cards


def test_the_rarity_odds_shown_are_the_odds_drawn(catalog: DinocardCatalog) -> None:
    rarity: dict[str, str] = {c.id: c.rarity for c in catalog.cards}
    cards = [c for b in open_boosters(by_rarity(catalog), random.Random(7), DRAWS) for c in b]
    assert len(cards) == DRAWS * CARDS_PER_BOOSTER
    counts = Counter(rarity[c] for c in cards)
    for name, per_mille in RARITY_ODDS_PM.items():
        assert abs(counts[name] / len(cards) - per_mille / 1000) < 0.01, (name, counts)
    assert sum(RARITY_ODDS_PM.values()) == 1000


async def test_the_odds_page_and_a_purchase(dino: DinocardServices, db: Database) -> None:
    odds = await dino.shop.odds(ALICE)
    assert odds.balance == STARTING_GOLD
    assert [(r.tier, r.per_mille) for r in odds.tiers] == list(RARITY_ODDS_PM.items())
    bought = await dino.shop.buy(ALICE, 2, key="k")
    assert len(bought.packs) == 2
    assert all(len(b) == CARDS_PER_BOOSTER for b in bought.packs)
    assert bought.balance == STARTING_GOLD - 2 * BOOSTER_PRICE


async def test_a_double_click_buys_once(dino: DinocardServices, db: Database) -> None:
    results = await asyncio.gather(*(dino.shop.buy(ALICE, 1, key="same") for _ in range(20)))
    assert len({tuple(c.copy_id for c in r.packs[0]) for r in results}) == 1
    assert sum(not r.replayed for r in results) == 1
    assert await db.read(lambda conn: ledger.balance(conn, ALICE, DINO_GOLD)) == STARTING_GOLD - BOOSTER_PRICE


async def test_not_enough_coins_buys_nothing(dino: DinocardServices) -> None:
    await dino.shop.buy(ALICE, 3, key="a")
    with pytest.raises(InsufficientFunds):
        await dino.shop.buy(ALICE, 1, key="b")
