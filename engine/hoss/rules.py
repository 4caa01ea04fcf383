"""The rulebook's numbers, as integer-indexed tables for the battle's hot loop.

Everything the rulebook (`../shared/rules/hoss-tcg.txt`) fixes lives here: class dodge and extra-damage
tables, race fears and resistances, status values, timings. Numbers printed on cards live in the catalog.
Races, classes, elements and statuses are small integers (their index in the tuples below) so the hot
loop compares ints and indexes lists instead of hashing strings. Chances are basis points (1 bp = 0.01 %)
and times are integer milliseconds; PV amounts are hundredths of a PV ("centi-PV").
"""

from __future__ import annotations

from functools import cache, lru_cache

from engine.hoss.catalog import CLASSES, ELEMENT_STATUS, RACES, Element, Race, Status

ELEMENTS: tuple[Element, ...] = ("feu", "glace", "foudre", "poison")
STATUSES: tuple[Status, ...] = ("poison", "saignement", "embrasement", "bris", "gel", "choc", "confusion")

RACE: dict[str, int] = {name: i for i, name in enumerate(RACES)}
CLASS: dict[str, int] = {name: i for i, name in enumerate(CLASSES)}
ELEMENT: dict[str, int] = {name: i for i, name in enumerate(ELEMENTS)}
STATUS: dict[str, int] = {name: i for i, name in enumerate(STATUSES)}

SQUELETTE, ORC, SYLVESTRE, HUMAIN = (RACE[r] for r in ("squelette", "orc", "sylvestre", "humain"))
GUERRIER, CAVALIER, LANCIER, ASSASSIN, ARCHER, MAGE, DEFENSEUR = range(7)
FEU, GLACE, FOUDRE, POISON_ELEMENT = range(4)
POISON, SAIGNEMENT, EMBRASEMENT, BRIS, GEL, CHOC, CONFUSION = range(7)

# --- time -----------------------------------------------------------------------------------------------

ROUND_MS = 5000  # a round covers battle times [start, start + 5000)
MAX_ROUNDS = 60
START_HAND = 3

# --- percentages and chances (basis points: 10000 = 100 %) ------------------------------------------------

BP = 10000
INTERCEPT_BP = 7000  # a Défenseur takes 70 % of the hits aimed at its protégé
ARROW_BLOCK_BP = 8000  # ... and blocks 80 % of the arrows aimed at itself, whatever Gel says
SQUELETTE_AVOID_BP = 2000  # a Squelette is missed entirely by 20 % of Lancier and Archer hits
FEAR_RACE_BP = 4000  # +40 % when the target fears the attacker's race
FEAR_ELEMENT_BP = 1500  # +15 % per attacker element the target fears
RESIST_BP = 1500  # -15 % per race or element resistance
SQUELETTE_EXTRA_BP = 1000  # a Squelette takes +10 % from Guerriers and Cavaliers
CRIT_BASE_BP = 15000  # a critical hit is x1.5, plus the card's crit-damage bonus
HEAL_MISSING_PCT = 10  # a Sylvestre heal gives back 10 % of an ally's missing PV
MIN_HIT = 100  # a landed hit always does at least 1 PV: a resistance never cancels damage

# --- statuses --------------------------------------------------------------------------------------------

POISON_PCT = 30  # stack value, % of the hit that applied it; ticks once at the end of each round
BLEED_PCT = 20  # ticks every 2.5 s
BLEED_PERIOD_MS = 2500
BURN_PCT = 10  # ticks every second, can crit, 70 % chance to go out at each round end
BURN_PERIOD_MS = 1000
BURN_OUT_BP = 7000
BRIS_PCT = 5  # the target takes this % more damage, for the rest of the battle
GEL_FULL_BP = BP  # "% = dégâts du coup": a hit of 18 PV (1800 centi-PV) adds 1800 bp = 18 %
GEL_DECAY_BP = 1000  # -10 points at each round end
GEL_MAX_INTERVAL_MS = 4990  # Gel never slows a creature below one hit every 4.99 s
SHOCK_MS = 2500
CONFUSION_BP = 1500  # a confused creature hits an ally 15 % of the time
DEFLECT_DELAY_MS = 400

# --- stats scaling ---------------------------------------------------------------------------------------

SPEED_CAP_BP = BP  # attack-speed bonuses stop counting at +100 % (the interval halves)


def synergy_bp(count: int) -> int:
    """+3 / 6 / 10 % to all stats with 2 / 4 / 6 creatures of one race alive on a side."""
    return 1000 if count >= 6 else 600 if count >= 4 else 300 if count >= 2 else 0


# --- classes ---------------------------------------------------------------------------------------------

# Chance (bp) that the row's class dodges a hit from the column's class (Défenseurs never strike, no column).
#            guerrier cavalier lancier assassin archer mage
DODGE_BP: tuple[tuple[int, ...], ...] = (
    (500, 500, 500, 300, 500, 500),  # guerrier
    (1200, 800, 200, 1500, 800, 500),  # cavalier
    (800, 2500, 800, 300, 500, 500),  # lancier
    (1700, 1500, 1700, 800, 800, 800),  # assassin
    (800, 500, 800, 300, 500, 500),  # archer
    (800, 500, 800, 300, 500, 500),  # mage
    (500, 0, 0, 0, 200, 200),  # défenseur
)

# Extra damage (bp) the row's class deals to the column's class.
#            guerrier cavalier lancier assassin archer mage défenseur
EXTRA_BP: tuple[tuple[int, ...], ...] = (
    (0, 0, 0, 2000, 1000, 1500, 0),  # guerrier
    (1000, 0, 0, 1000, 1000, 1000, 2000),  # cavalier
    (0, 10000, 0, 0, 0, 0, 5000),  # lancier
    (1500, 0, 1000, 0, 1000, 1500, 0),  # assassin
    (1500, 1500, 1000, 0, 0, 0, 0),  # archer
    (1000, 1000, 0, 1500, 1000, 0, 1000),  # mage
)

# --- races -----------------------------------------------------------------------------------------------

_RESISTS_RACE: dict[Race, tuple[Race, ...]] = {
    "squelette": ("sylvestre",),
    "orc": ("humain",),
    "sylvestre": ("orc",),
    "humain": ("squelette",),
}
_RESISTS_ELEMENT: dict[Race, tuple[Element, ...]] = {"sylvestre": ("poison",)}
_FEARS_RACE: dict[Race, tuple[Race, ...]] = {
    "squelette": ("humain",),
    "orc": ("sylvestre",),
    "sylvestre": ("squelette",),
    "humain": ("orc",),
}
_FEARS_ELEMENT: dict[Race, tuple[Element, ...]] = {
    "squelette": ("foudre",),
    "orc": ("glace",),
    "sylvestre": ("feu",),
    "humain": ("poison",),
}
_RACE_IMMUNE: dict[Race, tuple[Status, ...]] = {"squelette": ("poison", "saignement")}


def _mask(names: tuple[str, ...], index: dict[str, int]) -> int:
    bits = 0
    for name in names:
        bits |= 1 << index[name]
    return bits


# Bit masks indexed by race: bit i set when the race resists / fears race (or element) i.
RESISTS_RACE = tuple(_mask(_RESISTS_RACE.get(r, ()), RACE) for r in RACES)
RESISTS_ELEMENT = tuple(_mask(_RESISTS_ELEMENT.get(r, ()), ELEMENT) for r in RACES)
FEARS_RACE = tuple(_mask(_FEARS_RACE.get(r, ()), RACE) for r in RACES)
FEARS_ELEMENT = tuple(_mask(_FEARS_ELEMENT.get(r, ()), ELEMENT) for r in RACES)
RACE_IMMUNE = tuple(_mask(_RACE_IMMUNE.get(r, ()), STATUS) for r in RACES)
ELEMENT_IMMUNE = tuple(1 << STATUS[ELEMENT_STATUS[e]] for e in ELEMENTS)


def extra_damage_bp(
    attacker_race: int, attacker_cls: int, elements: int, target_race: int, target_cls: int
) -> int:
    """Step 4 of the damage order, the part fixed by who hits whom: fears, resistances and class tables.

    `elements` is the attacker's element bit mask. The target's armour break and the Dégât buff are added
    by the caller since they change during the battle.
    """
    bonus = EXTRA_BP[attacker_cls][target_cls]
    if FEARS_RACE[target_race] >> attacker_race & 1:
        bonus += FEAR_RACE_BP
    if RESISTS_RACE[target_race] >> attacker_race & 1:
        bonus -= RESIST_BP
    for element in range(len(ELEMENTS)):
        if elements >> element & 1:
            if FEARS_ELEMENT[target_race] >> element & 1:
                bonus += FEAR_ELEMENT_BP
            if RESISTS_ELEMENT[target_race] >> element & 1:
                bonus -= RESIST_BP
    if target_race == SQUELETTE and attacker_cls in (GUERRIER, CAVALIER):
        bonus += SQUELETTE_EXTRA_BP
    return bonus


@lru_cache(maxsize=4096)
def damage_row(attacker_race: int, attacker_cls: int, elements: int, degat_bp: int) -> tuple[float, ...]:
    """Step 4's fixed part against every target (index race * 7 + class), as fractions, plus the Dégât buff.

    Its integer part depends only on who strikes (`_extra_row`, cached: a battle only ever meets a few
    dozen attacker profiles); the Dégât buff's strength varies with the buff copy's rarity and stars, so
    it is added to the same integers before the same division, and the rows kept in a bounded cache.
    """
    return tuple([(extra + degat_bp) / BP for extra in _extra_row(attacker_race, attacker_cls, elements)])


@cache
def _extra_row(attacker_race: int, attacker_cls: int, elements: int) -> tuple[int, ...]:
    return tuple(
        extra_damage_bp(attacker_race, attacker_cls, elements, race, cls)
        for race in range(len(RACES))
        for cls in range(len(CLASSES))
    )
