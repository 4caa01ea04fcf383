"""Chocogrenouilles: the per-mille odds table is the one promised, draws are reproducible from the seed,
every card of a rarity can come out, 120,000 frogs land within 4 σ of each rarity's odds, and rarer means
rarer per card: exactly (the computed odds) and as observed over a million seeded frogs."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from itertools import pairwise

import pytest

from engine.choco.catalog import RARITIES, ChocoCatalog
from engine.choco.frogs import (
    FROG_PRICE,
    MAX_FROGS_PER_PURCHASE,
    ODDS_TOTAL,
    RARITY_ODDS_PM,
    FrogPool,
    card_odds,
    draw_among,
    draw_frog,
    draw_frogs,
    draw_rarity,
)
from services.infra.catalogs import DATA_DIR, load_catalog

DRAWS = 120_000


@pytest.fixture(scope="module")
def catalog() -> ChocoCatalog:
    return load_catalog(DATA_DIR / "choco.json", ChocoCatalog)


@pytest.fixture(scope="module")
def pool(catalog: ChocoCatalog) -> FrogPool:
    return FrogPool.of(catalog)


def test_the_table_is_the_decided_one() -> None:
    assert dict(RARITY_ODDS_PM) == {
        "bronze_1": 420,
        "bronze_2": 245,
        "argent_1": 153,
        "argent_2": 93,
        "or_1": 55,
        "or_2": 34,
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

    expected = {0: "bronze_1", 419: "bronze_1", 420: "bronze_2", 664: "bronze_2", 665: "argent_1"}
    expected |= {817: "argent_1", 818: "argent_2", 910: "argent_2", 911: "or_1", 965: "or_1", 966: "or_2"}
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
    with pytest.raises(ValueError, match="no rarity given"):
        draw_among(pool, rng, ())


def test_a_rarity_without_cards_is_refused(catalog: ChocoCatalog) -> None:
    gold_less = catalog.model_copy(update={"cards": tuple(c for c in catalog.cards if c.rarity != "or_2")})
    with pytest.raises(ValueError, match="or_2"):
        FrogPool.of(gold_less)


def test_each_card_of_a_rarer_level_is_exactly_less_likely(catalog: ChocoCatalog, pool: FrogPool) -> None:
    per_card = card_odds(pool)
    counts = {r: sum(1 for c in catalog.cards if c.rarity == r) for r in RARITIES}
    assert counts == {"bronze_1": 44, "bronze_2": 32, "argent_1": 25, "argent_2": 19, "or_1": 14, "or_2": 11}
    assert per_card == {r: Fraction(RARITY_ODDS_PM[r], 1000 * counts[r]) for r in RARITIES}
    assert sum(per_card[r] * counts[r] for r in RARITIES) == 1
    for commoner, rarer in pairwise(RARITIES):
        assert per_card[rarer] < per_card[commoner], (rarer, commoner)
    # The old table (300/220/170/130/100/80) made a single Or 2 card likelier than a Bronze 1 card.
    assert Fraction(80, 11) > Fraction(300, 44)


@pytest.mark.slow
def test_a_million_frogs_give_each_rarer_card_strictly_less_often(pool: FrogPool) -> None:
    """Per card: the least drawn card of a level beats the most drawn card of the next rarer level, and
    each card's count is within 5 σ of its exact odds (the closest levels, Or 1 and Or 2, are 0.84 ‰
    apart per card: about 10 σ of a million draws)."""
    draws = 1_000_000
    rng = random.Random(20261201)
    counts = Counter(draw_frog(pool, rng) for _ in range(draws))
    per_card = card_odds(pool)
    for rarity in RARITIES:
        p = float(per_card[rarity])
        sigma = math.sqrt(draws * p * (1 - p))
        for card in pool.by_rarity[rarity]:
            assert abs(counts[card] - draws * p) <= 5 * sigma, (card, counts[card], draws * p)
    for commoner, rarer in pairwise(RARITIES):
        least = min(counts[card] for card in pool.by_rarity[commoner])
        most = max(counts[card] for card in pool.by_rarity[rarer])
        assert least > most, (commoner, least, rarer, most)


def test_a_table_that_makes_a_rarer_card_likelier_is_refused(
    catalog: ChocoCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = {"bronze_1": 300, "bronze_2": 220, "argent_1": 170, "argent_2": 130, "or_1": 100, "or_2": 80}
    monkeypatch.setattr("engine.choco.frogs.RARITY_ODDS_PM", old)
    with pytest.raises(ValueError, match="not be rarer"):
        FrogPool.of(catalog)
