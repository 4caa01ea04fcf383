"""Rarity, stars and holo: the bonus table, and which stats it scales (docs/hoss/rules-notes.md)."""

from __future__ import annotations

import pytest

from engine.hoss.bonus import buff_strength_bp, copy_bonus_pm
from engine.hoss.catalog import RARITIES
from tests.engine.hoss.helpers import Unit, arena, creature, get

RULEBOOK_PER_STAR = {"basique": 2, "argent": 4, "or": 6.5, "platine": 9, "diamant": 11.5, "divin": 14}


def test_bonus_per_star_is_the_rulebook_table() -> None:
    for rarity, percent in RULEBOOK_PER_STAR.items():
        for stars in range(6):
            assert copy_bonus_pm(rarity, stars, False) == round(percent * 10 * stars)  # type: ignore[arg-type]
    # The rulebook's "Bonus à 5★" row: 10 %, 20 %, 32.5 %, 45 %, 57.5 %, 70 %.
    assert [copy_bonus_pm(r, 5, False) for r in RARITIES] == [100, 200, 325, 450, 575, 700]


def test_the_stated_examples_are_exact() -> None:
    assert copy_bonus_pm("argent", 5, False) == 200  # +20 %
    assert copy_bonus_pm("divin", 5, False) == 700  # +70 %
    assert copy_bonus_pm("divin", 5, True) == 900  # holo: +20 % more
    assert copy_bonus_pm("argent", 5, True) == 400
    assert copy_bonus_pm("basique", 0, True) == 200
    assert copy_bonus_pm("basique", 0, False) == 0


ALL_STATS = creature(
    "all_1",
    "orc",
    "guerrier",
    pv=100,
    atk=10,
    interval=2.0,
    crit_chance=0.1,
    crit_damage=0.5,
    dodge_bonus=0.02,
    statuses={"poison": 0.25},
    heal_chance=0.1,
    deflect_chance=0.05,
)
WALL = creature("wall_1", "squelette", "defenseur", pv=200, block=0.2, damage_reduction=0.1)


@pytest.mark.parametrize(
    ("rarity", "stars", "holo", "factor"),
    [
        ("basique", 0, False, 1.0),
        ("divin", 5, False, 1.7),
        ("divin", 5, True, 1.9),
        ("argent", 5, False, 1.2),
    ],
)
def test_the_bonus_scales_every_stat(rarity: str, stars: int, holo: bool, factor: float) -> None:
    b = arena([Unit(ALL_STATS, rarity, stars, holo)], [Unit(WALL, rarity, stars, holo)])  # type: ignore[arg-type]
    f, wall = get(b, "a1"), get(b, "b1")
    assert f.max_hp == round(10000 * factor)  # PV (centi-PV)
    assert f.atk == pytest.approx(1000 * factor)  # ATK (centi-PV)
    assert f.crit == pytest.approx(0.1 * factor)
    assert f.crit_mult == pytest.approx(1.5 + 0.5 * factor)  # the x1.5 is a rule, the card's bonus scales
    assert [s for s, _ in f.statuses] == [0]  # Poison
    assert f.statuses[0][1] == pytest.approx(0.25 * factor)
    # Dodge: (class table + card bonus) x (1 + bonus): a Guerrier dodges a Guerrier 5 %, +2 points here.
    assert f.dodge[0] == pytest.approx(0.07 * factor)
    assert f.heal == pytest.approx(0.1 * factor)
    assert f.deflect == pytest.approx(0.05 * factor)
    assert wall.block == pytest.approx(0.2 * factor)
    assert wall.reduction == pytest.approx(0.1 * factor)
    assert wall.max_hp == round(20000 * factor)
    # Attack speed: the bonus joins the speed total, the interval drops by half of it (capped at +100 %).
    assert f.interval == round(2000 * (1 - min(factor - 1, 1.0) / 2))


def test_dodge_is_almost_doubled_for_a_divin_5_stars() -> None:
    assassin = creature("sneak_1", "orc", "assassin")
    b = arena([Unit(assassin, "divin", 5)], [creature("w_1", "humain", "guerrier")])
    # Assassin vs Guerrier: 17 % in the table, x1.7 = 28.9 %.
    assert get(b, "a1").dodge[0] == pytest.approx(0.289)


def test_chances_are_capped_at_one() -> None:
    sure = creature("sure_1", "orc", "guerrier", crit_chance=0.9, statuses={"bris": 0.8})
    b = arena([Unit(sure, "divin", 5, True)], [creature("w_1", "humain", "guerrier")])
    f = get(b, "a1")
    assert f.crit == 1.0
    assert f.statuses[0][1] == 1.0


def test_a_buff_is_scaled_by_its_copy() -> None:
    assert buff_strength_bp(2000, 0) == 2000  # +20 % speed at Basique 0★
    assert buff_strength_bp(2000, 700) == 3400  # Divin 5★: x1.7
    assert buff_strength_bp(500, 900) == 950  # Divin 5★ holo: x1.9
