"""What a booster holds: the rulebook's rarity and holo odds, the rank odds of each booster tier, and the
draw of one booster's six cards from an injected `random.Random`.

Every draw is an exact integer draw (`randrange` over a common denominator), so the odds are exactly the
rulebook's fractions, not floats close to them, and a seeded stream gives the same booster on every
machine. Nothing here remembers earlier boosters: the odds "ne changent jamais, quel que soit le nombre de
boosters déjà ouverts". Decisions (tier tables, draw order) are in docs/hoss/economy.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from engine.hoss.catalog import RARITIES, BuffCard, CreatureCard, HossCatalog, Race, Rarity

CREATURES_PER_BOOSTER = 5
CARDS_PER_BOOSTER = CREATURES_PER_BOOSTER + 1  # 5 creatures + 1 buff
TIERS = range(1, 10)  # one booster tier per battle rank

# The rulebook gives "X or better" odds (Argent ou mieux 1 sur 10, Or ou mieux 1 sur 100, ...); each rarity's
# own chance is the difference with the next one. All are exact multiples of 1 / RARITY_DENOMINATOR.
AT_LEAST: dict[Rarity, Fraction] = {
    "basique": Fraction(1),
    "argent": Fraction(1, 10),
    "or": Fraction(1, 100),
    "platine": Fraction(1, 800),
    "diamant": Fraction(1, 6500),
    "divin": Fraction(1, 25000),
}
RARITY_DENOMINATOR = 1_300_000  # lcm(10, 100, 800, 6500, 25000)
HOLO_ONE_IN = 50_000


def rarity_odds() -> dict[Rarity, Fraction]:
    """Each rarity's exact chance: P(or) = 1/100 - 1/800, P(divin) = 1/25000, Basique the rest."""
    odds: dict[Rarity, Fraction] = {}
    for index, rarity in enumerate(RARITIES):
        better = AT_LEAST[RARITIES[index + 1]] if index + 1 < len(RARITIES) else Fraction(0)
        odds[rarity] = AT_LEAST[rarity] - better
    return odds


# Draw u in [0, RARITY_DENOMINATOR): the rarest rarity whose "or better" threshold is above u.
_THRESHOLDS: tuple[tuple[int, Rarity], ...] = tuple(
    (int(AT_LEAST[r] * RARITY_DENOMINATOR), r) for r in reversed(RARITIES[1:])
)
assert all(AT_LEAST[r] * RARITY_DENOMINATOR == t for t, r in _THRESHOLDS), "thresholds must be exact"

# Rank odds of a booster tier, per 100,000 ("pcm"): +2.5 % Rang 2 and +0.625 % Rang 3 per tier above 1,
# so tier 1 is Rang 1 only and tier 9 gives 20 % Rang 2 and 5 % Rang 3 (docs/hoss/economy.md).
RANK_DENOMINATOR = 100_000
RANK2_PCM_PER_TIER = 2_500
RANK3_PCM_PER_TIER = 625


def rank_odds(tier: int) -> dict[int, Fraction]:
    """{1: P(Rang 1), 2: P(Rang 2), 3: P(Rang 3)} for a creature slot of a booster of this tier."""
    r2, r3 = _rank_pcm(tier)
    return {
        1: Fraction(RANK_DENOMINATOR - r2 - r3, RANK_DENOMINATOR),
        2: Fraction(r2, RANK_DENOMINATOR),
        3: Fraction(r3, RANK_DENOMINATOR),
    }


def _rank_pcm(tier: int) -> tuple[int, int]:
    if tier not in TIERS:
        raise ValueError(f"booster tier must be 1..9, got {tier}")
    return RANK2_PCM_PER_TIER * (tier - 1), RANK3_PCM_PER_TIER * (tier - 1)


# Worked out once, not per card: each tier's cuts of a rank draw (Rang 3 below the first, Rang 2 below the
# second) and each rarity's place in the opening order.
def _rank_cuts(tier: int) -> tuple[int, int]:
    r2, r3 = _rank_pcm(tier)
    return r3, r3 + r2


_RANK_CUTS: dict[int, tuple[int, int]] = {tier: _rank_cuts(tier) for tier in TIERS}
_RARITY_ORDER: dict[Rarity, int] = {rarity: index for index, rarity in enumerate(RARITIES)}


def draw_rarity(rng: random.Random) -> Rarity:
    u = rng.randrange(RARITY_DENOMINATOR)
    for threshold, rarity in _THRESHOLDS:  # rarest first
        if u < threshold:
            return rarity
    return "basique"


def draw_holo(rng: random.Random) -> bool:
    return rng.randrange(HOLO_ONE_IN) == 0


def draw_rank(rng: random.Random, tier: int) -> int:
    rank3, rank2 = _RANK_CUTS.get(tier) or _rank_cuts(tier)
    u = rng.randrange(RANK_DENOMINATOR)
    return 3 if u < rank3 else 2 if u < rank2 else 1


@dataclass(frozen=True)
class Path:
    """One evolution path of a line: a Rang 2 and its Maître."""

    rank2: str
    master: str


@dataclass(frozen=True)
class Line:
    id: str
    race: Race
    rank1: str
    paths: tuple[Path, ...]  # one or two, sorted by Rang 2 id


@dataclass(frozen=True)
class BoosterPool:
    """The catalog as boosters see it, in a fixed order (ids sorted) so a seed always draws the same."""

    lines: tuple[Line, ...]
    buffs: tuple[str, ...]
    # each race's lines, and every line under None: chosen once per catalog, not per booster
    by_race: dict[Race | None, tuple[Line, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        races = {line.race for line in self.lines}
        chosen = {race: tuple(line for line in self.lines if line.race == race) for race in races}
        object.__setattr__(self, "by_race", {None: self.lines, **chosen})

    @staticmethod
    def of(catalog: HossCatalog) -> BoosterPool:
        creatures = [c for c in catalog.cards if isinstance(c, CreatureCard)]
        lines: list[Line] = []
        for r1 in sorted((c for c in creatures if c.rank == 1), key=lambda c: c.id):
            seconds = sorted((c for c in creatures if c.parent == r1.id), key=lambda c: c.id)
            paths = tuple(Path(r2.id, next(c.id for c in creatures if c.parent == r2.id)) for r2 in seconds)
            lines.append(Line(r1.line, r1.race, r1.id, paths))
        buffs = tuple(sorted(c.id for c in catalog.cards if isinstance(c, BuffCard)))
        return BoosterPool(tuple(lines), buffs)

    def lines_of(self, race: Race | None) -> tuple[Line, ...]:
        return self.by_race.get(race, ())


@dataclass(frozen=True)
class DrawnCard:
    card: str  # catalog id
    kind: Literal["creature", "buff"]
    rarity: Rarity
    holo: bool


def draw_creature(pool: tuple[Line, ...], rng: random.Random, tier: int) -> DrawnCard:
    """A uniformly random line, then its rank by the tier's table (a uniformly chosen path for Rang 2 and
    Rang 3), then the copy's rarity and holo, each drawn on its own."""
    line = pool[rng.randrange(len(pool))]
    rank = draw_rank(rng, tier)
    if rank == 1:
        card = line.rank1
    else:
        path = line.paths[rng.randrange(len(line.paths))]
        card = path.rank2 if rank == 2 else path.master
    return DrawnCard(card, "creature", draw_rarity(rng), draw_holo(rng))


def draw_buff(buffs: tuple[str, ...], rng: random.Random) -> DrawnCard:
    card = buffs[rng.randrange(len(buffs))]
    return DrawnCard(card, "buff", draw_rarity(rng), draw_holo(rng))


def opening_order(cards: list[DrawnCard]) -> list[DrawnCard]:
    """Face-down order: Basique first up to Divin, holos last; equal cards keep their draw order (stable)."""
    return sorted(cards, key=lambda c: (c.holo, _RARITY_ORDER[c.rarity]))


def draw_booster(
    pool: BoosterPool, rng: random.Random, tier: int, race: Race | None = None
) -> list[DrawnCard]:
    """One booster's six cards in opening order: five creatures (of `race` only, for a race booster), then
    one buff; the service stores them at positions 0..5 in this order."""
    lines = pool.lines_of(race)
    if not lines:
        raise ValueError(f"no creature line of race {race!r}")
    cards = [draw_creature(lines, rng, tier) for _ in range(CREATURES_PER_BOOSTER)]
    cards.append(draw_buff(pool.buffs, rng))
    return opening_order(cards)
