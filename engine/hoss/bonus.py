"""Rarity, stars and holo; attack speed, hits per round and Gel slowdown.

A copy's bonus is kept in per-mille (1 ‰ = 0.1 %) so Or's 6.5 % per star and Diamant's 11.5 % are exact
integers; it scales the copy's stats, the buffs' strength, and is the evolution chance. Intervals are
integer milliseconds: the same integers on every machine, so a replay never drifts by a rounding.
"""

from __future__ import annotations

from engine.hoss.catalog import Rarity
from engine.hoss.rules import BP, GEL_FULL_BP, GEL_MAX_INTERVAL_MS, ROUND_MS, SPEED_CAP_BP

# Bonus per star, in per-mille: the rulebook's table (2 %, 4 %, 6.5 %, 9 %, 11.5 %, 14 %).
PER_STAR_PM: dict[Rarity, int] = {
    "basique": 20,
    "argent": 40,
    "or": 65,
    "platine": 90,
    "diamant": 115,
    "divin": 140,
}
HOLO_PM = 200  # a holo copy gains +20 % more
MAX_STARS = 5


def copy_bonus_pm(rarity: Rarity, stars: int, holo: bool) -> int:
    """The copy's bonus in per-mille: Argent 5★ → 200 (+20 %), Divin 5★ → 700, holo adds 200."""
    return PER_STAR_PM[rarity] * stars + (HOLO_PM if holo else 0)


def attack_interval_ms(base_ms: int, speed_bp: int) -> int:
    """All speed bonuses add up; the interval drops by half the total, capped at +100 % (half the base)."""
    total = min(max(speed_bp, 0), SPEED_CAP_BP)
    return base_ms * (2 * BP - total) // (2 * BP)


def hits_per_round(interval_ms: int) -> int:
    """Every round restarts the attack cycle and a hit due at exactly 5 s belongs to the next round, so a
    creature hits at k x interval for k x interval < 5 s: ceil(5 s / interval) - 1 times (2 s: 2, 1.5 s: 3,
    2.5 s to 4.99 s: 1, 5 s or slower: never). What speed is worth, for the AI and the catalog's budget."""
    return (ROUND_MS - 1) // interval_ms if interval_ms > 0 else 0


def slowed_interval_ms(interval_ms: int, gel_bp: int) -> int:
    """Gel cuts the attack rate by its %: the interval is divided by (1 - gel), but Gel alone never pushes
    it past one hit every 4.99 s (a creature already slower than that keeps its own rhythm).

    A fully frozen creature (gel = 100 %) does not attack at all; callers handle that case.
    """
    if gel_bp <= 0:
        return interval_ms
    if gel_bp >= GEL_FULL_BP:
        return max(interval_ms, GEL_MAX_INTERVAL_MS)
    slowed = interval_ms * BP // (GEL_FULL_BP - gel_bp)
    return max(interval_ms, min(slowed, GEL_MAX_INTERVAL_MS))


def scaled(value_bp: int, bonus_bp: int) -> float:
    """A card's stat (bp) raised by the bonus (bp), as a fraction capped at 1: the chances' shape."""
    return min(1.0, value_bp * (BP + bonus_bp) / (BP * BP))


def buff_strength_bp(power_bp: int, bonus_pm: int) -> int:
    """A buff's base power raised by its copy's rarity, stars and holo: power x (1 + bonus)."""
    return power_bp * (1000 + bonus_pm) // 1000
