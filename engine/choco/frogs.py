"""Chocogrenouilles (chocolate frogs): what one frog gives, and the cards a league win gives.

A frog first draws a rarity from a fixed per-mille table, then a card uniformly among that rarity's
cards (all three types). "Rarer" must hold per card, not only per level: the rarer levels hold fewer
cards, so a level's odds must fall faster than its card count, or each single Or 2 card would come as
often as a single Bronze 1 card. `FrogPool.of` refuses a catalog for which any card of a rarer level
would not be strictly less likely than every card of a commoner level, so a catalog change that breaks
the promise fails at start-up instead of silently. The table is stated here (not derived from the
catalog) so that adding a card never changes the level odds players were shown (`/choco odds`).
Everything is deterministic from the `random.Random` passed in: the service owns the generator (seeded
in tests, SystemRandom in production). Decisions: docs/choco/economy.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

from engine.choco.catalog import RARITIES, ChocoCatalog, Rarity

FROG_PRICE = 25  # galleons per frog
MAX_FROGS_PER_PURCHASE = 10
ODDS_TOTAL = 1000
RARITY_ODDS_PM: Mapping[Rarity, int] = {
    "bronze_1": 420,
    "bronze_2": 245,
    "argent_1": 153,
    "argent_2": 93,
    "or_1": 55,
    "or_2": 34,
}
assert sum(RARITY_ODDS_PM.values()) == ODDS_TOTAL
assert tuple(RARITY_ODDS_PM) == RARITIES


@dataclass(frozen=True)
class FrogPool:
    """The catalog ids of each rarity, sorted so a seeded draw is reproducible whatever the file order."""

    by_rarity: Mapping[Rarity, tuple[str, ...]]

    @staticmethod
    def of(catalog: ChocoCatalog) -> FrogPool:
        by_rarity = {r: tuple(sorted(c.id for c in catalog.cards if c.rarity == r)) for r in RARITIES}
        empty = [r for r, ids in by_rarity.items() if not ids]
        if empty:
            raise ValueError(f"no card of rarity {', '.join(empty)}: a frog could not be opened")
        pool = FrogPool(by_rarity)
        per_card = card_odds(pool)
        for commoner, rarer in pairwise(RARITIES):
            if per_card[rarer] >= per_card[commoner]:
                raise ValueError(
                    f"a {rarer} card would not be rarer than a {commoner} card: adjust RARITY_ODDS_PM"
                )
        return pool


def card_odds(pool: FrogPool) -> dict[Rarity, Fraction]:
    """The exact chance that one frog gives one given card of each rarity: the level's odds shared
    equally among its cards."""
    return {r: Fraction(RARITY_ODDS_PM[r], ODDS_TOTAL * len(pool.by_rarity[r])) for r in RARITIES}


def draw_rarity(rng: random.Random) -> Rarity:
    """One rarity with the per-mille odds of `RARITY_ODDS_PM` (one integer roll in [0, 1000))."""
    roll = rng.randrange(ODDS_TOTAL)
    for rarity, weight in RARITY_ODDS_PM.items():
        if roll < weight:
            return rarity
        roll -= weight
    raise AssertionError("the odds table sums to ODDS_TOTAL")


def draw_frog(pool: FrogPool, rng: random.Random) -> str:
    """The catalog id one frog gives: a rarity by the table, then a card of it, uniformly."""
    return rng.choice(pool.by_rarity[draw_rarity(rng)])


def draw_frogs(pool: FrogPool, rng: random.Random, count: int) -> list[str]:
    return [draw_frog(pool, rng) for _ in range(count)]


def draw_among(pool: FrogPool, rng: random.Random, rarities: Iterable[Rarity]) -> str:
    """One card uniformly among every card of these rarities (a league's reward: any card of its colour,
    each equally likely, so the commoner level of the colour comes more often only by having more cards)."""
    ids = [card for rarity in RARITIES if rarity in set(rarities) for card in pool.by_rarity[rarity]]
    if not ids:
        raise ValueError("no rarity given")
    return rng.choice(ids)
