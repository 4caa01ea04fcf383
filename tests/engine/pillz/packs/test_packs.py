"""Pillz packs: the promised per-mille table of stars, then a character uniformly among those stars; the
starter's eight distinct non-leader 1-2 star characters."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from engine.pillz.catalog import PillzCatalog
from engine.pillz.packs import (
    CARDS_PER_PACK,
    ODDS_TOTAL,
    STAR_ODDS_PM,
    STARTER_SIZE,
    PackPool,
    draw_character,
    draw_stars,
    draw_starter,
    open_packs,
)
from tests.services.pillz.small_catalog import catalog_data, small_catalog

DRAWS = 200_000
SIGMAS = 4


def test_the_table_is_the_promised_one() -> None:
    assert dict(STAR_ODDS_PM) == {1: 400, 2: 300, 3: 180, 4: 90, 5: 30}
    assert sum(STAR_ODDS_PM.values()) == ODDS_TOTAL


def test_stars_follow_the_table_within_four_sigma() -> None:
    rng = random.Random(6)
    seen = Counter(draw_stars(rng) for _ in range(DRAWS))
    for stars, pm in STAR_ODDS_PM.items():
        p = pm / ODDS_TOTAL
        sigma = math.sqrt(DRAWS * p * (1 - p))
        assert abs(seen[stars] - DRAWS * p) <= SIGMAS * sigma, (stars, seen[stars])


def test_characters_are_uniform_within_their_stars_leaders_included() -> None:
    catalog = small_catalog()
    pool = PackPool.of(catalog)
    rng = random.Random(7)
    draws = 100_000
    seen = Counter(draw_character(pool, rng) for _ in range(draws))
    by_id = {c.id: c for c in catalog.cards}
    assert seen["ashigaru"] > 0
    assert seen["tengu"] > 0
    for card_id, card in by_id.items():
        p = STAR_ODDS_PM[card.stars] / ODDS_TOTAL / len(pool.by_stars[card.stars])
        sigma = math.sqrt(draws * p * (1 - p))
        assert abs(seen[card_id] - draws * p) <= SIGMAS * sigma, card_id


def test_packs_hold_three_and_a_seed_replays() -> None:
    pool = PackPool.of(small_catalog())
    packs = open_packs(pool, random.Random(1), 5)
    assert len(packs) == 5
    assert all(len(p) == CARDS_PER_PACK for p in packs)
    assert packs == open_packs(pool, random.Random(1), 5)


def test_starter_is_eight_distinct_non_leaders_of_one_or_two_stars() -> None:
    catalog = small_catalog()
    by_id = {c.id: c for c in catalog.cards}
    pool = PackPool.of(catalog)
    starters = [draw_starter(pool, random.Random(seed)) for seed in range(200)]
    for deck in starters:
        assert len(deck) == len(set(deck)) == STARTER_SIZE
        assert all(by_id[c].stars in (1, 2) and not by_id[c].leader for c in deck)
    assert len({tuple(sorted(d)) for d in starters}) > 100  # drawn, not fixed


def test_a_catalog_without_some_stars_or_starters_is_refused() -> None:
    data = catalog_data()
    data["cards"] = [c for c in data["cards"] if c["stars"] != 5]
    with pytest.raises(ValueError, match="5 stars"):
        PackPool.of(PillzCatalog.model_validate(data))
    data = catalog_data()
    data["cards"] = [c for c in data["cards"] if c["stars"] > 2 or c["id"].endswith("_1")]
    with pytest.raises(ValueError, match="starter"):
        PackPool.of(PillzCatalog.model_validate(data))
