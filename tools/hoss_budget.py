"""The HOSS balance budget (docs/hoss/balance.md), shared by the catalog generator and the catalog test,
so the numbers the cards were fitted to and the numbers they are checked against are one set."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import lru_cache

from engine.hoss.bonus import copy_bonus_pm
from engine.hoss.catalog import CLASSES
from engine.hoss.ranks import RANKS
from engine.hoss.rules import DODGE_BP, ROUND_MS

# Mean dodge of each class against the six attacking classes (rows of the rulebook's dodge table).
CLASS_DODGE = {cls: sum(row) / (len(row) * 10_000) for cls, row in zip(CLASSES, DODGE_BP, strict=True)}
# What one application of a status is worth, in hits of the card that applied it.
STATUS_WEIGHT = {
    "saignement": 0.6,
    "poison": 0.5,
    "embrasement": 0.45,
    "bris": 0.6,
    "gel": 0.5,
    "choc": 0.8,
    "confusion": 0.6,
}
HEAL_WEIGHT = 0.3  # a heal (10 % of an ally's missing PV) is worth about 0.3 of a hit
T1 = 850.0  # power budget of a Rang 1 attacker (DPS_eff x EHP)
D1 = 360.0  # protection budget of a Rang 1 Défenseur (EHP_def)
RANK_SCALE = {1: 1.0, 2: 1.6, 3: 2.4}  # per dimension (PV and DPS); power scales with its square
CLASS_FACTOR = {"lancier": 0.92, "archer": 1.05}
RACE_FACTOR = {"squelette": 0.93}

# --- speed: hits per round ------------------------------------------------------------------------------
#
# Every round restarts each attack cycle, so a creature lands ceil(5 s / interval) - 1 hits per round: a
# step function of its interval. Within a band of equal hits, an interval only sets how much speed bonus it
# takes to gain a hit (and how much Gel to lose one). The budget prices that as the hits per round expected
# over the speed totals a copy actually carries: its copy bonus as the ranked ladder deals them (each of the
# nine ranks weighted alike; rarity uniform among the rank's, stars uniform in its range: engine/hoss/ranks.py)
# plus a team bonus (race synergy 0-10 %, the Vitesse buff in some decks) uniform over 0-20 %.

ROUND_S = ROUND_MS / 1000
TEAM_BONUS = 0.20  # width of the uniform team bonus added to the copy bonus


def _ladder_bonuses() -> tuple[tuple[float, float], ...]:
    """(copy bonus as a fraction, weight) over the nine ranks' opponent copies, the weights summing to 1."""
    weights: dict[int, Fraction] = defaultdict(Fraction)
    for spec in RANKS:
        stars = range(spec.stars[0], spec.stars[1] + 1)
        share = Fraction(1, len(RANKS) * len(spec.rarities) * len(stars))
        for rarity in spec.rarities:
            for star in stars:
                weights[copy_bonus_pm(rarity, star, False)] += share
    return tuple((pm / 1000, float(w)) for pm, w in sorted(weights.items()))


SPEED_BONUSES = _ladder_bonuses()


@lru_cache(maxsize=4096)
def hits_per_round(interval: float) -> float:
    """Expected hits per round of a card whose base interval is `interval` seconds (see above).

    With a speed total S the interval is interval x (1 - S / 2), S capped at 100 %; it lands at least k hits
    when S > 2 (1 - 5 s / (k x interval)). The expectation is the sum over k of the chance of that."""
    total = 0.0
    k = 1
    while True:
        needed = 2 * (1 - ROUND_S / (k * interval))  # speed total beyond which the k-th hit lands
        if needed >= 1:  # past the +100 % cap: never
            return total
        for bonus, weight in SPEED_BONUSES:
            total += weight * min(1.0, max(0.0, (bonus + TEAM_BONUS - needed) / TEAM_BONUS))
        k += 1


def dps(atk: float, interval: float) -> float:
    """Damage per second: ATK x hits per round / 5 s (the budget's expected hits per round)."""
    return atk * hits_per_round(interval) / ROUND_S
