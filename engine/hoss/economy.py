"""Where HOSS gold goes and comes from outside battles: booster prices, what unlocks better boosters, sale
prices, and the floor of six different Rang 1 creatures a player must keep.

Pure rules on plain values; the services read the database and call these. Every number that is not the
rulebook's is a decision recorded in docs/hoss/economy.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.hoss.boosters import AT_LEAST, HOLO_ONE_IN, TIERS, rank_odds, rarity_odds
from engine.hoss.catalog import RARITIES, Rarity

# --- boosters ------------------------------------------------------------------------------------------------

MAX_BOOSTERS_PER_PURCHASE = 10  # "jusqu'à 10 boosters d'un coup"
BOOSTER_PRICE_PER_TIER = 100  # tier 1 costs 100, so the starting 300 gold buys 3 (the rulebook's example)
RACE_BOOSTER_PRICE_PER_TIER = 250  # choosing the race costs 2.5 times a normal booster of the same tier
RANK_UNLOCK_WINS = 10  # "Chaque rang se débloque après 10 victoires au rang précédent"
RACE_BOOSTER_UNLOCK_WINS = 10  # "Il se débloque après 10 victoires en combat Rang 1"


def booster_price(tier: int, *, race: bool = False) -> int:
    """A tier-t booster costs 100 x t gold (250 x t for a race booster): about 2.2 wins of the player's own
    rank at every rank (a win pays 45 x rank), so a better booster is never a cheaper one."""
    if tier not in TIERS:
        raise ValueError(f"booster tier must be 1..9, got {tier}")
    return (RACE_BOOSTER_PRICE_PER_TIER if race else BOOSTER_PRICE_PER_TIER) * tier


def highest_unlocked_rank(wins_by_rank: Mapping[int, int]) -> int:
    """Rang 1 is always open; rank r+1 opens after 10 wins at rank r. The chain stops at the first rank
    short of 10 wins, so wins recorded at a higher rank cannot skip a step."""
    rank = 1
    while rank < max(TIERS) and wins_by_rank.get(rank, 0) >= RANK_UNLOCK_WINS:
        rank += 1
    return rank


def unlocked_tiers(wins_by_rank: Mapping[int, int]) -> range:
    """« Chaque rang de combat débloque un booster plus puissant »: a rank adds its booster to the ones the
    player already had, it does not replace them, so a Rang 9 player may still buy a 100-gold Rang 1."""
    return range(1, highest_unlocked_rank(wins_by_rank) + 1)


def race_booster_unlocked(wins_by_rank: Mapping[int, int]) -> bool:
    return wins_by_rank.get(1, 0) >= RACE_BOOSTER_UNLOCK_WINS


@dataclass(frozen=True)
class RarityOdds:
    rarity: Rarity
    chance: Fraction  # this rarity exactly
    at_least: Fraction  # this rarity or better, as the rulebook writes it


@dataclass(frozen=True)
class TierOdds:
    tier: int
    ranks: tuple[Fraction, Fraction, Fraction]  # P(Rang 1), P(Rang 2), P(Rang 3) per creature
    price: int
    race_price: int


@dataclass(frozen=True)
class OddsTable:
    """Everything `/hoss odds` shows: rarity and holo odds (same for every booster) and each tier."""

    rarities: tuple[RarityOdds, ...]
    holo: Fraction
    tiers: tuple[TierOdds, ...]


def odds_table() -> OddsTable:
    exact = rarity_odds()
    rarities = tuple(RarityOdds(r, exact[r], AT_LEAST[r]) for r in RARITIES)
    tiers = []
    for tier in TIERS:
        ranks = rank_odds(tier)
        tiers.append(
            TierOdds(
                tier, (ranks[1], ranks[2], ranks[3]), booster_price(tier), booster_price(tier, race=True)
            )
        )
    return OddsTable(rarities, Fraction(1, HOLO_ONE_IN), tuple(tiers))


# --- selling ----------------------------------------------------------------------------------------------

SALE_BASE: dict[Rarity, int] = {
    "basique": 2,
    "argent": 20,
    "or": 200,
    "platine": 1_500,
    "diamant": 8_000,
    "divin": 25_000,
}
RANK_MULTIPLIER = {1: 1, 2: 2, 3: 4}  # "le double pour un Rang 2 et le quadruple pour un Rang 3"
HOLO_SALE_BONUS = 50_000
MIN_DISTINCT_RANK1 = 6  # "Tu dois toujours garder au moins 6 créatures de Rang 1 différentes"


def sale_price(rarity: Rarity, rank: int | None, holo: bool) -> int:
    """A copy's price: base by rarity, x2 for a Rang 2, x4 for a Maître (`rank` None for a buff, priced as a
    Rang 1), +50,000 for a holo. Stars do not count (the rulebook prices by rarity only)."""
    return SALE_BASE[rarity] * RANK_MULTIPLIER[rank or 1] + (HOLO_SALE_BONUS if holo else 0)


@dataclass(frozen=True)
class Selling:
    """A copy offered for sale, as the floor check sees it."""

    copy_id: int
    card: str
    rank1: bool  # a Rang 1 creature (buffs and Rang 2/3 never count towards the floor)
    price: int


def floor_refusals(rank1_held: Mapping[str, int], selling: Sequence[Selling]) -> set[int]:
    """The copies of `selling` that must stay so the player keeps six different Rang 1 creatures.

    `rank1_held` counts the Rang 1 copies the player owns per card id (locked and face-down copies
    included: they are owned). A sale may only make a Rang 1 card disappear while more than six different
    ones remain: it is refused when it would leave fewer than six *and* fewer than before (selling a
    duplicate never hurts, even below six). When too many cards would disappear, the player keeps those
    whose cheapest copy is cheapest (then by card id), and keeps exactly that copy: the refusal costs them
    the least gold.
    """
    offered: dict[str, list[Selling]] = {}
    for copy in selling:
        if copy.rank1:
            offered.setdefault(copy.card, []).append(copy)
    vanishing = [card for card, copies in offered.items() if len(copies) >= rank1_held.get(card, 0)]
    may_vanish = max(0, sum(1 for n in rank1_held.values() if n > 0) - MIN_DISTINCT_RANK1)
    if len(vanishing) <= may_vanish:
        return set()
    cheapest = {card: min(offered[card], key=lambda c: (c.price, c.copy_id)) for card in vanishing}
    kept = sorted(vanishing, key=lambda card: (cheapest[card].price, card))[: len(vanishing) - may_vanish]
    return {cheapest[card].copy_id for card in kept}
