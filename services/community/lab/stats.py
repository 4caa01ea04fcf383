"""The lab's statistics: pure functions of battle results (no I/O, no clock).

- The win rate's 95 % interval is Wilson's score interval: unlike the normal approximation it stays inside
  [0, 1] and keeps close to its coverage for the small counts and extreme rates the lab meets (a strong
  deck wins 100 of 111 battles against a low rank). A draw counts as a battle not won.
- A card's association with winning is the win rate of the battles where the card was in the opening hand
  (or line-up) minus the win rate of the battles where it was not, with both counts. It is a correlation,
  not a cause: a card dealt against weaker opponents, or alongside a strong card, looks good by company.
  A card present in fewer than `MIN_SHARE` of the battles, or missing from fewer, is left out (its
  difference is noise).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

Z95 = 1.959963984540054  # the standard normal's 97.5th percentile
MIN_SHARE = 0.05


@dataclass(frozen=True)
class Outcome:
    """One battle as the statistics see it: won / lost (neither: a draw), length, cards present."""

    won: bool
    lost: bool
    length: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


def wilson(wins: int, n: int, z: float = Z95) -> Interval:
    """Wilson's score interval of a proportion `wins / n`; (0, 1) for no battle at all."""
    if n <= 0:
        return Interval(0.0, 1.0)
    if not 0 <= wins <= n:
        raise ValueError(f"wins must be within 0..{n}, got {wins}")
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # At 0 or n wins the bound is exactly 0 or 1; the formula's rounding would leave 0.9999999999999999.
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == n else min(1.0, centre + half)
    return Interval(low, high)


@dataclass(frozen=True)
class Summary:
    """One opponent's figures."""

    battles: int
    wins: int
    losses: int
    draws: int
    mean_length: float
    interval: Interval

    @property
    def win_rate(self) -> float:
        return self.wins / self.battles if self.battles else 0.0


def summarize(outcomes: Sequence[Outcome]) -> Summary:
    n = len(outcomes)
    wins = sum(1 for o in outcomes if o.won)
    losses = sum(1 for o in outcomes if o.lost)
    length = sum(o.length for o in outcomes) / n if n else 0.0
    return Summary(n, wins, losses, n - wins - losses, length, wilson(wins, n))


@dataclass(frozen=True)
class CardEffect:
    """A card's win rate with it present (`wins_with` of `with_`) and without, and their difference."""

    card: str
    with_: int
    wins_with: int
    without: int
    wins_without: int

    @property
    def difference(self) -> float:
        return self.wins_with / self.with_ - self.wins_without / self.without


def card_effects(outcomes: Sequence[Outcome]) -> list[CardEffect]:
    """Every card present in, and missing from, at least `MIN_SHARE` of the battles, best first (ties by
    card id, so the order never depends on the order of the battles)."""
    n = len(outcomes)
    total_wins = sum(1 for o in outcomes if o.won)
    present = Counter(chain.from_iterable(map(frozenset, [o.cards for o in outcomes])))
    won = Counter(chain.from_iterable(map(frozenset, [o.cards for o in outcomes if o.won])))
    floor = max(1, math.ceil(MIN_SHARE * n))
    effects = [
        CardEffect(card, k, won[card], n - k, total_wins - won[card])
        for card, k in present.items()
        if k >= floor and n - k >= floor
    ]
    return sorted(effects, key=lambda e: (-e.difference, e.card))


def extremes(effects: Sequence[CardEffect], count: int) -> tuple[list[CardEffect], list[CardEffect]]:
    """The `count` cards that go most with winning, and the `count` that go least (none in both lists)."""
    best = list(effects[:count])
    rest = effects[count:]
    worst = list(reversed(rest[-count:])) if rest else []
    return best, worst
