"""Who gets hit: class prey first (Cavalier → Défenseurs; Lancier → Cavaliers, then Défenseurs), then
creatures that fear the attacker's race, then anyone; uniform within the preferred set."""

from __future__ import annotations

from collections import Counter

from engine.hoss.catalog import CreatureCard
from engine.hoss.targeting import pick_target
from tests.engine.hoss.helpers import arena, creature, get, within

TRIALS = 12000


def targets(attacker: CreatureCard, enemies: list[CreatureCard], trials: int = TRIALS) -> Counter[str]:
    b = arena([attacker], enemies)
    a = get(b, "a1")
    return Counter(pick_target(a, b.rnd).uid for _ in range(trials))  # type: ignore[union-attr]


HUMAN = creature("hum_1", "humain", "guerrier")  # fears Orc
SYLVAN = creature("syl_1", "sylvestre", "mage")  # fears Squelette
BONES = creature("sq_1", "squelette", "archer")  # fears Humain
WALL = creature("wall_1", "squelette", "defenseur")
WALL2 = creature("wall2_1", "sylvestre", "defenseur")
RIDER = creature("rider_1", "sylvestre", "cavalier")


def test_a_creature_that_fears_the_attackers_race_is_targeted_first() -> None:
    orc = creature("orc_1", "orc", "guerrier")
    assert targets(orc, [SYLVAN, HUMAN, BONES]) == Counter({"b2": TRIALS})


def test_without_preference_the_target_is_uniform() -> None:
    orc = creature("orc_1", "orc", "guerrier")
    found = targets(orc, [SYLVAN, BONES, creature("orc2_1", "orc", "mage")])
    assert set(found) == {"b1", "b2", "b3"}
    assert all(within(n, TRIALS, 1 / 3) for n in found.values())


def test_uniform_among_several_preferred_targets() -> None:
    orc = creature("orc_1", "orc", "guerrier")
    found = targets(orc, [HUMAN, SYLVAN, creature("hum2_1", "humain", "mage")])
    assert set(found) == {"b1", "b3"}
    assert within(found["b1"], TRIALS, 0.5)


def test_a_cavalier_targets_defenders_first() -> None:
    orc_rider = creature("orc_1", "orc", "cavalier")
    # The Humain fears Orcs, but the Cavalier goes for the Défenseur.
    assert targets(orc_rider, [HUMAN, WALL]) == Counter({"b2": TRIALS})
    # Among Défenseurs, the race preference still applies: none fears Orc here, so both are hit.
    found = targets(orc_rider, [HUMAN, WALL, WALL2])
    assert set(found) == {"b2", "b3"}
    assert within(found["b2"], TRIALS, 0.5)
    # A Squelette Cavalier prefers the Sylvestre Défenseur, who fears Squelettes.
    assert targets(creature("sq_rider_1", "squelette", "cavalier"), [HUMAN, WALL, WALL2]) == Counter(
        {"b3": TRIALS}
    )


def test_a_lancier_targets_cavaliers_then_defenders() -> None:
    lancer = creature("lance_1", "orc", "lancier")
    assert targets(lancer, [HUMAN, WALL, RIDER]) == Counter({"b3": TRIALS})
    assert targets(lancer, [HUMAN, WALL, SYLVAN]) == Counter({"b2": TRIALS})


def test_an_attacker_with_no_enemy_has_no_target() -> None:
    b = arena([creature("orc_1", "orc", "guerrier")], [])
    assert pick_target(get(b, "a1"), b.rnd) is None
