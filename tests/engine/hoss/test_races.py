"""The races table: resistances, fears, and the Squelette's particularities; element immunities."""

from __future__ import annotations

import pytest

from engine.hoss.catalog import ELEMENT_STATUS
from engine.hoss.damage import strike
from engine.hoss.rules import (
    ELEMENT,
    FEARS_ELEMENT,
    FEARS_RACE,
    RACE,
    RESISTS_ELEMENT,
    RESISTS_RACE,
    STATUSES,
)
from tests.engine.hoss.helpers import ALWAYS_MISS, arena, creature, get, hits, within

# The rulebook's table, restated: race -> (resists, fears), races and elements mixed as it writes them.
TABLE = {
    "squelette": ({"sylvestre"}, {"humain", "foudre"}),
    "orc": ({"humain"}, {"sylvestre", "glace"}),
    "sylvestre": ({"orc", "poison"}, {"squelette", "feu"}),
    "humain": ({"squelette"}, {"orc", "poison"}),
}
TRIALS = 20000


def _names(race_mask: int, element_mask: int) -> set[str]:
    races = {name for name, i in RACE.items() if race_mask >> i & 1}
    return races | {name for name, i in ELEMENT.items() if element_mask >> i & 1}


def test_resistances_and_fears_are_the_rulebooks() -> None:
    for race, (resists, fears) in TABLE.items():
        i = RACE[race]
        assert _names(RESISTS_RACE[i], RESISTS_ELEMENT[i]) == resists
        assert _names(FEARS_RACE[i], FEARS_ELEMENT[i]) == fears


@pytest.mark.parametrize("attacker_cls", ["lancier", "archer"])
def test_a_squelette_is_missed_by_20_percent_of_lanciers_and_archers(attacker_cls: str) -> None:
    b = arena(
        [creature("a_1", "orc", attacker_cls, atk=1)], [creature("t_1", "squelette", "guerrier", pv=900)]
    )
    found = hits(b, "a1", TRIALS, target="b1")
    avoided = sum(1 for e in found if e["res"] == "avoid")
    dodged = sum(1 for e in found if e["res"] == "dodge")
    assert within(avoided, TRIALS, 0.20)
    # Avoidance comes first: the Guerrier's 5 % dodge only applies to the 80 % left.
    assert within(dodged, TRIALS, 0.80 * 0.05)


def test_other_classes_never_miss_a_squelette_that_way() -> None:
    b = arena([creature("a_1", "orc", "assassin", atk=1)], [creature("t_1", "squelette", "guerrier", pv=900)])
    assert not any(e["res"] == "avoid" for e in hits(b, "a1", 5000, target="b1"))
    b = arena([creature("a_1", "orc", "archer", atk=1)], [creature("t_1", "orc", "guerrier", pv=900)])
    assert not any(e["res"] == "avoid" for e in hits(b, "a1", 5000, target="b1"))


def _statuses_after_a_sure_hit(attacker_extra: dict[str, object], target: object) -> dict[str, bool]:
    everything = {s: 1.0 for s in STATUSES if s != "confusion"}
    a = creature("a_1", "humain", "mage", atk=20, statuses=everything, **attacker_extra)  # type: ignore[arg-type]
    b = arena([a], [target])  # type: ignore[list-item]
    b.rnd = lambda: ALWAYS_MISS
    t = get(b, "b1")
    strike(b, get(b, "a1"), t, t, 1000)
    immune = {e["st"] for e in b.entries or [] if e["k"] == "immune"}
    return {s: s not in immune for s in everything}


def test_a_squelette_is_immune_to_poison_and_bleeding() -> None:
    landed = _statuses_after_a_sure_hit({}, creature("t_1", "squelette", "mage", pv=900))
    assert landed == {s: s not in ("poison", "saignement") for s in landed}


@pytest.mark.parametrize("element", ["feu", "glace", "foudre", "poison"])
def test_a_card_is_immune_to_its_elements_status(element: str) -> None:
    target = creature("t_1", "orc", "mage", pv=900, elements=(element,))
    landed = _statuses_after_a_sure_hit({}, target)
    assert [s for s, ok in landed.items() if not ok] == [ELEMENT_STATUS[element]]  # type: ignore[index]


def test_a_sylvestre_heal_gives_10_percent_of_the_most_wounded_allys_missing_pv() -> None:
    healer = creature("h_1", "sylvestre", "archer", atk=1, heal_chance=1.0)
    b = arena(
        [
            healer,
            creature("hurt_1", "orc", "guerrier", pv=100),
            creature("scratched_1", "humain", "guerrier", pv=100),
        ],
        [creature("t_1", "orc", "mage", pv=900)],
    )
    get(b, "a2").damage, get(b, "a3").damage = 5000, 1000
    b.rnd = lambda: ALWAYS_MISS
    strike(b, get(b, "a1"), get(b, "b1"), get(b, "b1"), 1000)
    assert get(b, "a2").damage == 4500
    assert get(b, "a3").damage == 1000
    assert [e["tgt"] for e in b.entries or [] if e["k"] == "heal"] == ["a2"]


def test_a_sylvestre_defender_heals_on_its_blocks() -> None:
    wall = creature("w_1", "sylvestre", "defenseur", pv=200, block=1.0, heal_chance=1.0)
    b = arena([creature("g_1", "orc", "guerrier", pv=100)], [creature("p_1", "humain", "mage", pv=100), wall])
    get(b, "b1").damage = 2000
    b.rnd = lambda: ALWAYS_MISS
    strike(b, get(b, "a1"), get(b, "b2"), get(b, "b2"), 1000)
    assert [e["res"] for e in b.entries or [] if e["k"] == "hit"] == ["block"]
    assert get(b, "b1").damage == 1800
