"""The damage order, with exact numbers: every random draw is forced to "no" unless a chance is 100 %."""

from __future__ import annotations

from typing import Any

import pytest

from engine.hoss.catalog import CreatureCard
from engine.hoss.damage import strike
from tests.engine.hoss.helpers import ALWAYS_MISS, arena, creature, entries, get

# The rulebook's extra-damage table, restated: attacker row, target column (%).
TARGETS = ("guerrier", "cavalier", "lancier", "assassin", "archer", "mage", "defenseur")
EXTRA = {
    "guerrier": (0, 0, 0, 20, 10, 15, 0),
    "cavalier": (10, 0, 0, 10, 10, 10, 20),
    "lancier": (0, 100, 0, 0, 0, 0, 50),
    "assassin": (15, 0, 10, 0, 10, 15, 0),
    "archer": (15, 15, 10, 0, 0, 0, 0),
    "mage": (10, 10, 0, 15, 10, 0, 10),
}


def one_hit(attacker: CreatureCard, target: CreatureCard, **target_state: Any) -> dict[str, Any]:
    """The log entry of one hit of `attacker` on `target`, with no dodge, crit or block drawn."""
    b = arena([attacker], [target])
    a, t = get(b, "a1"), get(b, "b1")
    for name, value in target_state.items():
        setattr(t, name, value)
    b.rnd = lambda: ALWAYS_MISS
    strike(b, a, t, t, 1000)
    return entries(b, "hit")[-1]


def damage(attacker: CreatureCard, target: CreatureCard, **target_state: Any) -> int:
    return int(one_hit(attacker, target, **target_state)["dmg"])


def test_base_damage_is_the_attackers_atk() -> None:
    assert (
        damage(creature("a_1", "humain", "guerrier", atk=10), creature("t_1", "humain", "guerrier")) == 1000
    )


@pytest.mark.parametrize("attacker_cls", list(EXTRA))
def test_class_extra_damage_is_the_rulebook_table(attacker_cls: str) -> None:
    for target_cls, extra in zip(TARGETS, EXTRA[attacker_cls], strict=True):
        attacker = creature("a_1", "humain", attacker_cls, atk=10)
        target = creature("t_1", "humain", target_cls, pv=500)
        assert damage(attacker, target) == 1000 + 10 * extra, (attacker_cls, target_cls)


def test_a_feared_race_adds_40_percent() -> None:
    # Humain fears Orc.
    assert damage(creature("a_1", "orc", "guerrier"), creature("t_1", "humain", "guerrier")) == 1400


def test_a_feared_element_adds_15_percent() -> None:
    # Squelette fears Foudre; a Lancier to keep the Guerrier/Cavalier +10 % out of it.
    plain = creature("a_1", "orc", "lancier")
    charged = creature("a_1", "orc", "lancier", elements=("foudre",))
    target = creature("t_1", "squelette", "guerrier")
    assert damage(plain, target) == 1000
    assert damage(charged, target) == 1150


def test_each_resistance_takes_15_percent() -> None:
    # Orc resists Humain; Sylvestre resists the Poison element.
    assert damage(creature("a_1", "humain", "guerrier"), creature("t_1", "orc", "guerrier")) == 850
    poisoned = creature("a_1", "humain", "guerrier", elements=("poison",))
    assert damage(poisoned, creature("t_1", "sylvestre", "guerrier")) == 850
    # Both resistances of a Sylvestre against a poisonous Orc add up, and its fear of Feu does not apply.
    assert (
        damage(
            creature("a_1", "orc", "guerrier", elements=("poison",)), creature("t_1", "sylvestre", "guerrier")
        )
        == 700
    )


def test_a_squelette_takes_10_percent_more_from_guerriers_and_cavaliers() -> None:
    target = creature("t_1", "squelette", "lancier")
    assert damage(creature("a_1", "orc", "guerrier"), target) == 1100
    assert damage(creature("a_1", "orc", "cavalier"), target) == 1100
    assert damage(creature("a_1", "orc", "mage"), target) == 1000


def test_armour_break_adds_its_percentage() -> None:
    target = creature("t_1", "humain", "guerrier")
    assert damage(creature("a_1", "humain", "guerrier", atk=100), target, bris_bp=90, bris=0.009) == 10090


def test_bonuses_add_up_before_the_critical_multiplier() -> None:
    sure = creature("a_1", "orc", "guerrier", crit_chance=1.0)
    hit = one_hit(sure, creature("t_1", "humain", "guerrier"))
    assert hit["crit"] is True
    assert hit["dmg"] == 2100  # 10 x (1 + 0.40) x 1.5, not 10 x (1 + 0.40 + 0.50)
    heavy = creature("a_1", "humain", "guerrier", crit_chance=1.0, crit_damage=0.3)
    assert damage(heavy, creature("t_1", "humain", "guerrier")) == 1800  # x(1.5 + 0.3)


def test_a_defenders_reduction_comes_after_the_crit() -> None:
    sure = creature("a_1", "humain", "guerrier", crit_chance=1.0)
    wall = creature("t_1", "humain", "defenseur", damage_reduction=0.2)
    assert damage(sure, wall) == 1200  # 10 x 1.5 x 0.8


def test_a_resistance_never_cancels_a_hit() -> None:
    weak = creature("a_1", "humain", "guerrier", atk=1)
    wall = creature("t_1", "orc", "defenseur", damage_reduction=1.0)
    assert damage(weak, wall) == 100  # at least 1 PV


def test_an_immunity_stops_the_status_not_the_damage() -> None:
    torch = creature("a_1", "humain", "mage", elements=("feu",), statuses={"embrasement": 1.0})
    salamander = creature("t_1", "humain", "mage", elements=("feu",))
    b = arena([torch], [salamander])
    a, t = get(b, "a1"), get(b, "b1")
    b.rnd = lambda: ALWAYS_MISS
    strike(b, a, t, t, 1000)
    assert entries(b, "hit")[-1]["dmg"] == 1000
    assert t.burn == 0
    assert entries(b, "immune") == [{"t": 1000, "k": "immune", "src": "a1", "tgt": "b1", "st": "embrasement"}]
