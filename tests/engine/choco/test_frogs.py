"""Chocogrenouilles: the per-mille odds table is the one promised, draws are reproducible from the seed,
every card of a rarity can come out, and 120,000 frogs land within 4 σ of each rarity's odds."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from engine.choco.catalog import RARITIES, ChocoCatalog
from engine.choco.frogs import (
    FROG_PRICE,
    MAX_FROGS_PER_PURCHASE,
    ODDS_TOTAL,
    RARITY_ODDS_PM,
    FrogPool,
    draw_among,
    draw_frog,
    draw_frogs,
    draw_rarity,
)
from services.catalogs import DATA_DIR, load_catalog

DRAWS = 120_000


@pytest.fixture(scope="module")
def catalog() -> ChocoCatalog:
    return load_catalog(DATA_DIR / "choco.json", ChocoCatalog)


@pytest.fixture(scope="module")
def pool(catalog: ChocoCatalog) -> FrogPool:
    return FrogPool.of(catalog)


def test_the_table_is_the_decided_one() -> None:
    assert dict(RARITY_ODDS_PM) == {
        "bronze_1": 300,
        "bronze_2": 220,
        "argent_1": 170,
        "argent_2": 130,
        "or_1": 100,
        "or_2": 80,
    }
    assert sum(RARITY_ODDS_PM.values()) == ODDS_TOTAL == 1000
    assert (FROG_PRICE, MAX_FROGS_PER_PURCHASE) == (25, 10)


def test_pool_holds_every_card_once_by_rarity(catalog: ChocoCatalog, pool: FrogPool) -> None:
    ids = [card for r in RARITIES for card in pool.by_rarity[r]]
    assert sorted(ids) == sorted(c.id for c in catalog.cards)
    by_id = {c.id: c for c in catalog.cards}
    assert all(by_id[card].rarity == r for r in RARITIES for card in pool.by_rarity[r])


def test_same_seed_same_frogs(pool: FrogPool) -> None:
    assert draw_frogs(pool, random.Random(7), 50) == draw_frogs(pool, random.Random(7), 50)
    assert draw_frogs(pool, random.Random(7), 50) != draw_frogs(pool, random.Random(8), 50)


def test_rarity_boundaries_follow_the_table() -> None:
    class Fixed(random.Random):
        def __init__(self, roll: int) -> None:
            super().__init__(0)
            self.roll = roll

        def randrange(self, *args: object, **kwargs: object) -> int:
            return self.roll

    expected = {0: "bronze_1", 299: "bronze_1", 300: "bronze_2", 519: "bronze_2", 520: "argent_1"}
    expected |= {689: "argent_1", 690: "argent_2", 819: "argent_2", 820: "or_1", 919: "or_1", 920: "or_2"}
    expected |= {999: "or_2"}
    for roll, rarity in expected.items():
        assert draw_rarity(Fixed(roll)) == rarity, roll


def test_many_frogs_match_the_odds_within_4_sigma(pool: FrogPool) -> None:
    rng = random.Random(20261130)
    by_id = {card: r for r in RARITIES for card in pool.by_rarity[r]}
    counts = Counter(by_id[draw_frog(pool, rng)] for _ in range(DRAWS))
    for rarity, pm in RARITY_ODDS_PM.items():
        p = pm / ODDS_TOTAL
        sigma = math.sqrt(DRAWS * p * (1 - p))
        assert abs(counts[rarity] - DRAWS * p) <= 4 * sigma, (rarity, counts[rarity], DRAWS * p)


def test_every_card_of_a_rarity_can_come_out(pool: FrogPool) -> None:
    rng = random.Random(3)
    seen = {draw_frog(pool, rng) for _ in range(20_000)}
    assert seen == {card for r in RARITIES for card in pool.by_rarity[r]}


def test_draw_among_is_uniform_over_the_colour(pool: FrogPool) -> None:
    rng = random.Random(11)
    bronze = set(pool.by_rarity["bronze_1"]) | set(pool.by_rarity["bronze_2"])
    draws = Counter(draw_among(pool, rng, ("bronze_1", "bronze_2")) for _ in range(40_000))
    assert set(draws) == bronze
    share_1 = sum(n for card, n in draws.items() if card in pool.by_rarity["bronze_1"]) / 40_000
    p = len(pool.by_rarity["bronze_1"]) / len(bronze)
    assert abs(share_1 - p) <= 4 * math.sqrt(p * (1 - p) / 40_000)
    with pytest.raises(ValueError):
        draw_among(pool, rng, ())


def test_a_rarity_without_cards_is_refused(catalog: ChocoCatalog) -> None:
    gold_less = catalog.model_copy(update={"cards": tuple(c for c in catalog.cards if c.rarity != "or_2")})
    with pytest.raises(ValueError, match="or_2"):
        FrogPool.of(gold_less)
