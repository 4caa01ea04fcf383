"""Pillz packs and the starter deck: what a pack gives, and which characters a new player starts with.

A pack holds three characters. Each is drawn on its own: first a number of stars from a fixed per-mille
table (the rule players are shown by `/pillz odds`), then a character uniformly among those of that many
stars; leaders are drawn like any character of their stars. The table is stated here, not derived from
the catalog, so adding characters never changes the odds players were promised.
The starter deck is eight distinct non-leader characters of one or two stars.
Everything is deterministic from the `random.Random` passed in. Decisions: docs/pillz/economy.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from engine.pillz.catalog import STARS, PillzCatalog

PACK_PRICE = 100  # coins per pack
CARDS_PER_PACK = 3
MAX_PACKS_PER_PURCHASE = 5
ODDS_TOTAL = 1000
STAR_ODDS_PM: Mapping[int, int] = {1: 400, 2: 300, 3: 180, 4: 90, 5: 30}
assert sum(STAR_ODDS_PM.values()) == ODDS_TOTAL
assert tuple(STAR_ODDS_PM) == STARS

STARTER_SIZE = 8
STARTER_STARS = frozenset({1, 2})


@dataclass(frozen=True)
class PackPool:
    """The catalog ids of each number of stars, sorted so a seeded draw is reproducible whatever the file
    order, and the ids a starter deck is drawn from."""

    by_stars: Mapping[int, tuple[str, ...]]
    starter: tuple[str, ...]

    @staticmethod
    def of(catalog: PillzCatalog) -> PackPool:
        by_stars = {s: tuple(sorted(c.id for c in catalog.cards if c.stars == s)) for s in STARS}
        empty = [str(s) for s, ids in by_stars.items() if not ids]
        if empty:
            raise ValueError(f"no character of {', '.join(empty)} stars: a pack could not be opened")
        starter = tuple(sorted(c.id for c in catalog.cards if c.stars in STARTER_STARS and not c.leader))
        if len(starter) < STARTER_SIZE:
            raise ValueError(f"only {len(starter)} non-leader characters of 1-2 stars: a starter needs 8")
        return PackPool(by_stars, starter)


def draw_stars(rng: random.Random) -> int:
    """A number of stars with the per-mille odds of `STAR_ODDS_PM` (one integer roll in [0, 1000))."""
    roll = rng.randrange(ODDS_TOTAL)
    for stars, weight in STAR_ODDS_PM.items():
        if roll < weight:
            return stars
        roll -= weight
    raise AssertionError("the odds table sums to ODDS_TOTAL")


def draw_character(pool: PackPool, rng: random.Random) -> str:
    return rng.choice(pool.by_stars[draw_stars(rng)])


def open_packs(pool: PackPool, rng: random.Random, count: int) -> list[list[str]]:
    """`count` packs of `CARDS_PER_PACK` catalog ids each, in opening order."""
    return [[draw_character(pool, rng) for _ in range(CARDS_PER_PACK)] for _ in range(count)]


def draw_starter(pool: PackPool, rng: random.Random) -> list[str]:
    """Eight distinct non-leader characters of 1-2 stars, each equally likely."""
    return rng.sample(pool.starter, STARTER_SIZE)
