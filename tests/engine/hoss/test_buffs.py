"""The twelve buffs, each with its exact effect (docs/hoss/rules-notes.md), scaled by the buff's copy."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.hoss.catalog import BuffEffect
from engine.hoss.damage import strike
from engine.hoss.rules import STATUSES
from tests.engine.hoss.helpers import ALWAYS_MISS, arena, buff, creature, entries, get, heal_fully, within

TRIALS = 20000


def with_buff(
    effect: BuffEffect,
    power: float,
    *,
    rarity: str = "basique",
    stars: int = 0,
    mine: Any = None,
    foe: Any = None,
) -> Any:
    """Seat 0 has `mine` (a neutral Humain mage by default) and the buff; seat 1 a Humain mage."""
    mine = mine or creature("me_1", "humain", "mage", pv=100, atk=10, interval=2.0)
    foe = foe or creature("foe_1", "humain", "mage", pv=900, atk=1, interval=5.0)
    return arena([mine], [foe], buffs_a=[(buff(effect, power), rarity, stars)])  # type: ignore[list-item]


def land(b: Any, t: int = 1000) -> None:
    b.rnd = lambda: ALWAYS_MISS
    strike(b, get(b, "a1"), get(b, "b1"), get(b, "b1"), t)


def test_soins_heals_a_share_of_max_pv_at_round_end() -> None:
    b = with_buff("soins", 0.05)
    me = get(b, "a1")
    me.damage = 3000
    b.end_of_round()
    assert me.damage == 2500  # 5 % of 100 PV
    assert entries(b, "heal")[-1] == {
        "t": 5000,
        "k": "heal",
        "src": "soins",
        "tgt": "a1",
        "amt": 500,
        "hp": 7500,
    }
    me.damage = 200
    b.end_of_round()
    assert me.damage == 0  # never above max PV


def test_a_buff_is_stronger_with_its_copys_rarity() -> None:
    b = with_buff("soins", 0.05, rarity="divin", stars=5)
    me = get(b, "a1")
    me.damage = 3000
    b.end_of_round()
    assert me.damage == 3000 - 850  # 5 % x 1.7


def test_vitesse_joins_the_speed_total() -> None:
    assert get(with_buff("vitesse", 0.2), "a1").interval == 1800  # +20 %: 2 s x 0.9


def test_degat_is_one_more_additive_damage_bonus() -> None:
    b = with_buff("degat", 0.1)
    land(b)
    assert entries(b, "hit")[0]["dmg"] == 1100
    feared = with_buff("degat", 0.1, mine=creature("orc_1", "orc", "mage", atk=10))
    land(feared)  # Humains fear Orcs: 10 x (1 + 0.40 + 0.10) (Mage vs Mage: no class bonus)
    assert entries(feared, "hit")[0]["dmg"] == 1500


def test_pv_raises_max_pv() -> None:
    assert get(with_buff("pv", 0.1), "a1").max_hp == 11000


def test_chance_crit_adds_points() -> None:
    b = with_buff("chance_crit", 0.1, mine=creature("me_1", "humain", "mage", crit_chance=0.05))
    assert get(b, "a1").crit == pytest.approx(0.15)


def test_degat_crit_raises_the_multiplier() -> None:
    b = with_buff(
        "degat_crit", 0.4, mine=creature("me_1", "humain", "mage", crit_chance=1.0, crit_damage=0.1)
    )
    assert get(b, "a1").crit_mult == pytest.approx(2.0)
    land(b)
    assert entries(b, "hit")[0]["dmg"] == 2000


def test_marqueur_raises_the_cards_own_status_chances_only() -> None:
    b = with_buff("marqueur", 0.08, mine=creature("me_1", "humain", "mage", statuses={"poison": 0.2}))
    assert [(s, round(c, 6)) for s, c in get(b, "a1").statuses] == [(0, 0.28)]
    assert get(with_buff("marqueur", 0.08), "a1").statuses == ()


def test_marqueur_double_puts_two_stacks_a_quarter_of_the_time() -> None:
    b = with_buff("marqueur_double", 0.25, mine=creature("me_1", "humain", "mage", statuses={"poison": 1.0}))
    doubled = 0
    for _ in range(TRIALS):
        b.entries = []
        strike(b, get(b, "a1"), get(b, "b1"), get(b, "b1"), 1000)
        doubled += any(e["n"] == 2 for e in entries(b, "status"))
        heal_fully(get(b, "b1"))
    # 95 % of hits land (a mage dodges 5 % of mages).
    assert within(doubled, TRIALS, 0.95 * 0.25)
    land(b)
    assert get(b, "b1").poison in (300, 600)  # 30 % of a 10-PV hit, once or twice


def test_marqueur_aleatoire_puts_one_random_status_of_the_seven() -> None:
    b = with_buff("marqueur_aleatoire", 0.1)
    seen: Counter[str] = Counter()
    for _ in range(TRIALS * 2):
        b.entries = []
        strike(b, get(b, "a1"), get(b, "b1"), get(b, "b1"), 1000)
        seen.update(e["st"] for e in entries(b, "status"))
        heal_fully(get(b, "b1"))
    assert set(seen) == set(STATUSES)
    assert within(sum(seen.values()), TRIALS * 2, 0.95 * 0.10)
    assert all(within(n, sum(seen.values()), 1 / 7) for n in seen.values())


def test_revive_brings_each_creature_back_once() -> None:
    b = with_buff(
        "revive",
        0.15,
        mine=creature("me_1", "humain", "mage", pv=100),
        foe=creature("foe_1", "orc", "mage", pv=100),
    )
    me = get(b, "a1")
    me.poison = 700
    b.take(me, 10**6, 1000, "test")
    assert me.alive
    assert me.hp == 1500
    assert me.revived
    assert me.poison == 0  # statuses cleared
    assert entries(b, "revive") == [{"t": 1000, "k": "revive", "tgt": "a1", "hp": 1500}]
    assert me.attack_at == 2000  # its cycle runs on: the hit due at 2 s keeps its time
    b.take(me, 10**6, 2000, "test")
    assert not me.alive
    assert b.over
    assert b.winners == (1,)
    foe = get(b, "b1")
    assert not foe.revived  # the other deck has no Revive


def test_a_creature_revived_while_shocked_or_frozen_starts_a_new_cycle() -> None:
    for shocked in (True, False):
        b = with_buff("revive", 0.15)
        me = get(b, "a1")
        if shocked:
            me.shock_until, me.cycle_start, me.attack_at = 3000, 3000, 5000
        else:
            me.gel_bp, me.frozen, me.attack_at = 10000, True, -1
        b.take(me, 10**6, 1500, "test")
        assert me.alive
        assert not me.frozen
        assert me.shock_until == 0
        assert (me.cycle_start, me.attack_at) == (1500, 3500)


def test_shield_is_set_at_each_round_start_and_absorbs_first() -> None:
    b = with_buff("shield", 0.05, mine=creature("me_1", "humain", "mage", pv=100, interval=5.0))
    me = get(b, "a1")
    b.run_round()
    assert me.shield == 500
    absorbed = b.take(me, 300, 1000, "test")
    assert (absorbed, me.shield, me.damage) == (300, 200, 0)
    absorbed = b.take(me, 300, 1000, "test")
    assert (absorbed, me.shield, me.damage) == (200, 0, 100)
    me.shield = 400
    b.round += 1
    b.entries = []
    b.run_round()
    assert me.shield == 500  # refreshed, not stacked (a 5 s foe never hits: each round restarts its cycle)


def test_confusion_confuses_the_target_of_a_landed_hit() -> None:
    b = with_buff("confusion", 0.05)
    confused = 0
    for _ in range(TRIALS):
        b.entries = []
        strike(b, get(b, "a1"), get(b, "b1"), get(b, "b1"), 1000)
        confused += get(b, "b1").confused
        heal_fully(get(b, "b1"))
    assert within(confused, TRIALS, 0.95 * 0.05)


def test_two_buffs_of_one_effect_add_up() -> None:
    mine = creature("me_1", "humain", "mage", pv=100)
    b = arena(
        [mine],
        [creature("foe_1", "humain", "mage")],
        buffs_a=[(buff("pv", 0.1), "basique", 0), (buff("pv", 0.1), "argent", 5)],
    )
    assert get(b, "a1").max_hp == 10000 + 1000 + 1200


def test_buffs_act_on_defenders_too() -> None:
    b = with_buff("pv", 0.1, mine=creature("wall_1", "humain", "defenseur", pv=100))
    assert get(b, "a1").max_hp == 11000
