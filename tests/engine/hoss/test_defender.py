"""The Défenseur: interception, block (arrows, Lancier, Gel, Choc), deflection, placement and moves."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.hoss import flow
from engine.hoss.actions import Move, Pass, Place, Play
from engine.hoss.battle import Battle
from engine.hoss.catalog import CreatureCard
from engine.hoss.damage import attack, strike
from tests.engine.hoss.helpers import (
    ALWAYS_MISS,
    arena,
    creature,
    entries,
    get,
    heal_fully,
    hits,
    hold,
    scripted,
    within,
)

TRIALS = 20000


def interception_rate(attacker: CreatureCard, protege: CreatureCard, defender: CreatureCard) -> float:
    """Share of the hits aimed at the protégé that its Défenseur takes."""
    b = arena([attacker], [protege, defender])
    assert get(b, "b2").protege is get(b, "b1")
    found = [e for e in hits(b, "a1", TRIALS) if e.get("aimed", e["tgt"]) == "b1"]
    assert len(found) > TRIALS // 3
    return sum(1 for e in found if e.get("aimed") == "b1") / len(found)


def test_a_defender_intercepts_70_percent_of_the_hits_aimed_at_its_protege() -> None:
    orc = creature("orc_1", "orc", "guerrier", atk=1)
    rate = interception_rate(
        orc,
        creature("hum_1", "humain", "guerrier", pv=900),
        creature("wall_1", "squelette", "defenseur", pv=900),
    )
    assert abs(rate - 0.70) < 0.02


def test_it_intercepts_every_hit_when_it_resists_the_attacker_and_its_protege_fears_it() -> None:
    # The rulebook's example: a Humain Défenseur on a Sylvestre, against Squelettes.
    bones = creature("sq_1", "squelette", "guerrier", atk=1)
    rate = interception_rate(
        bones,
        creature("syl_1", "sylvestre", "guerrier", pv=900),
        creature("wall_1", "humain", "defenseur", pv=900),
    )
    assert rate == 1.0
    # Both conditions are needed: an Orc protégé does not fear Squelettes.
    rate = interception_rate(
        bones, creature("orc_1", "orc", "guerrier", pv=900), creature("wall_1", "humain", "defenseur", pv=900)
    )
    assert abs(rate - 0.70) < 0.02


def test_two_defenders_on_one_protege_try_in_play_order() -> None:
    b = arena(
        [creature("orc_1", "orc", "guerrier", atk=1)],
        [
            creature("hum_1", "humain", "guerrier", pv=900),
            creature("wall_1", "squelette", "defenseur", pv=900),
            creature("wall2_1", "squelette", "defenseur", pv=900),
        ],
    )
    found = hits(b, "a1", TRIALS)
    assert within(sum(1 for e in found if e["tgt"] == "b2"), TRIALS, 0.70)
    assert within(sum(1 for e in found if e["tgt"] == "b3"), TRIALS, 0.30 * 0.70)


def block_rate(b: Battle, attacker: str, target: str, trials: int = TRIALS, **state: object) -> float:
    a, t = get(b, attacker), get(b, target)
    blocked = landed = 0
    for _ in range(trials):
        heal_fully(t)
        for name, value in state.items():
            setattr(t, name, value)
        b.entries = []
        strike(b, a, t, t, 1000)
        res = entries(b, "hit")[0]["res"]
        blocked += res == "block"
        landed += res in ("block", "hit")
    return blocked / landed


def test_it_blocks_80_percent_of_arrows_aimed_at_it_whatever_gel_says() -> None:
    b = arena(
        [creature("bow_1", "orc", "archer", atk=1)],
        [creature("wall_1", "humain", "defenseur", pv=900, block=0.1)],
    )
    assert abs(block_rate(b, "a1", "b1") - 0.80) < 0.015
    assert abs(block_rate(b, "a1", "b1", gel_bp=5000) - 0.80) < 0.015


def test_intercepted_arrows_meet_the_cards_block() -> None:
    b = arena(
        [creature("bow_1", "orc", "archer", atk=1)],
        [
            creature("hum_1", "humain", "guerrier", pv=900),
            creature("wall_1", "squelette", "defenseur", pv=900, block=0.3),
        ],
    )
    found = [e for e in hits(b, "a1", TRIALS) if e.get("aimed") == "b1" and e["res"] in ("hit", "block")]
    assert abs(sum(1 for e in found if e["res"] == "block") / len(found) - 0.30) < 0.02


def test_a_lancier_halves_the_block_chance() -> None:
    wall = creature("wall_1", "humain", "defenseur", pv=900, block=0.4)
    assert (
        abs(block_rate(arena([creature("l_1", "orc", "lancier", atk=1)], [wall]), "a1", "b1") - 0.20) < 0.015
    )
    assert (
        abs(block_rate(arena([creature("g_1", "orc", "guerrier", atk=1)], [wall]), "a1", "b1") - 0.40) < 0.015
    )


def test_gel_lowers_the_block_chance_by_the_same_percentage() -> None:
    b = arena(
        [creature("g_1", "orc", "guerrier", atk=1)],
        [creature("wall_1", "humain", "defenseur", pv=900, block=0.5)],
    )
    assert abs(block_rate(b, "a1", "b1", gel_bp=4000) - 0.30) < 0.015


def test_a_shocked_defender_cannot_block() -> None:
    b = arena(
        [creature("bow_1", "orc", "archer", atk=1)],
        [creature("wall_1", "humain", "defenseur", pv=900, block=0.5)],
    )
    assert block_rate(b, "a1", "b1", trials=3000, shock_until=10**9) == 0.0


def test_a_sylvestre_defender_deflects_a_blocked_hit_to_an_enemy_0_4_s_later() -> None:
    b = arena(
        [creature("g_1", "orc", "guerrier", atk=10, interval=1.0)],
        [
            creature(
                "wall_1",
                "sylvestre",
                "defenseur",
                pv=900,
                block=1.0,
                deflect_chance=1.0,
                damage_reduction=0.2,
            )
        ],
    )
    b.rnd = lambda: ALWAYS_MISS  # every chance below 100 % fails: no dodge, no crit
    b.run_round()
    first_hit = entries(b, "hit")[0]
    assert (first_hit["t"], first_hit["res"], first_hit["deflected"]) == (1000, "block", True)
    landed = entries(b, "deflected")[0]
    # 10 ATK, a Sylvestre resists Orcs: -15 %; x0.8 reduction: 6.8 PV, back on the Orc at 1.4 s.
    assert landed == {"t": 1400, "k": "deflected", "src": "b1", "tgt": "a1", "dmg": 680, "hp": 10000 - 680}
    assert get(b, "b1").damage == 0


def test_a_sylvestre_guerrier_deflects_a_hit_that_touches_it() -> None:
    b = arena(
        [creature("g_1", "orc", "guerrier", atk=10, interval=1.0)],
        [creature("tree_1", "sylvestre", "guerrier", pv=900, deflect_chance=1.0)],
    )
    b.rnd = lambda: ALWAYS_MISS
    b.run_round()
    assert entries(b, "hit")[0]["res"] == "deflect"
    assert get(b, "b1").damage == 0
    assert [e["t"] for e in entries(b, "deflected")] == [1400, 2400, 3400, 4400]


def test_a_deflected_hit_lands_on_a_random_enemy() -> None:
    b = arena(
        [
            creature("g_1", "orc", "guerrier", atk=1, pv=900),
            creature("g2_1", "squelette", "mage", atk=1, pv=900),
        ],
        [creature("tree_1", "sylvestre", "guerrier", pv=900, deflect_chance=1.0)],
    )
    landings = []
    for _ in range(4000):
        b.entries = []
        strike(b, get(b, "a1"), get(b, "b1"), get(b, "b1"), 1000)
        b.heap = []
        flight = b.deflections[0] if b.deflections else None
        if flight is not None:
            from engine.hoss.damage import land

            land(b, flight, flight.time)
            landings += [e["tgt"] for e in entries(b, "deflected")]
        for f in b.fighters():
            heal_fully(f)
    assert within(landings.count("a1"), len(landings), 0.5)


def test_a_confused_creatures_hit_on_its_ally_is_never_intercepted() -> None:
    b = arena(
        [
            creature("g_1", "orc", "guerrier", atk=1, pv=900),
            creature("mate_1", "humain", "guerrier", pv=900),
            creature("wall_1", "humain", "defenseur", pv=900),
        ],
        [creature("t_1", "humain", "guerrier", pv=900)],
    )
    get(b, "a3").protege = get(b, "a2")
    confused = []
    for _ in range(5000):
        get(b, "a1").confused = True
        b.entries = []
        attack(b, get(b, "a1"), 1000)
        confused += [e for e in entries(b, "hit") if e.get("confused")]
        for f in b.fighters():
            heal_fully(f)
    assert confused
    assert all(e["tgt"] in ("a2", "a3") and "aimed" not in e for e in confused)


def test_a_defender_never_strikes() -> None:
    b = arena(
        [creature("wall_1", "humain", "defenseur", pv=900)], [creature("t_1", "orc", "guerrier", pv=900)]
    )
    b.run_round()
    assert not [e for e in entries(b, "hit") if e["src"] == "a1"]


def _three_attackers_and_a_defender() -> Battle:
    return arena(
        [
            creature("p1_1", "humain", "guerrier", pv=900),
            creature("p2_1", "orc", "guerrier", pv=900),
            creature("p3_1", "squelette", "guerrier", pv=900),
            creature("wall_1", "humain", "defenseur", pv=900),
        ],
        [creature("t_1", "sylvestre", "guerrier", pv=900)],
    )


def test_when_its_protege_dies_it_guards_nobody_until_the_round_ends() -> None:
    b = _three_attackers_and_a_defender()
    wall = get(b, "a4")
    assert wall.protege is get(b, "a1")
    b.take(get(b, "a1"), 10**6, 1000, "test")
    assert wall.protege is None
    b.take(get(b, "a3"), 10**6, 1000, "test")
    b.end_of_round()
    assert wall.protege is get(b, "a2")  # a single attacker left: placed automatically


def test_with_several_attackers_left_its_owner_chooses_during_the_pause() -> None:
    b = _three_attackers_and_a_defender()
    b.take(get(b, "a1"), 10**6, 1000, "test")
    b.end_of_round()
    assert get(b, "a4").protege is None
    assert flow.plan_pause(b)
    assert b.legal_actions(0) == [Place("a4", "a2"), Place("a4", "a3")]
    b.answer(0, Place("a4", "a3"))
    flow.resolve(b)
    assert get(b, "a4").protege is get(b, "a3")


def test_with_no_attacker_left_it_waits_for_the_next_one() -> None:
    b = arena(
        [creature("p1_1", "humain", "guerrier", pv=900), creature("wall_1", "humain", "defenseur", pv=900)],
        [creature("t_1", "sylvestre", "guerrier", pv=900)],
        hand_a=[creature("p2_1", "orc", "guerrier")],
    )
    b.take(get(b, "a1"), 10**6, 1000, "test")
    assert not b.over  # an attacker card is still in hand
    b.end_of_round()
    assert get(b, "a2").protege is None
    assert flow.plan_pause(b)
    assert b.legal_actions(0) == [Play("a3"), Pass()]  # no protégé: no Défenseur move
    b.answer(0, Play("a3"))
    flow.resolve(b)
    assert get(b, "a2").protege is get(b, "a3")


def test_a_defender_can_be_moved_during_a_pause() -> None:
    b = arena(
        [
            creature("p1_1", "humain", "guerrier", pv=900),
            creature("p2_1", "orc", "guerrier", pv=900),
            creature("wall_1", "humain", "defenseur", pv=900),
        ],
        [creature("t_1", "sylvestre", "guerrier", pv=900)],
        hand_a=[creature("p3_1", "squelette", "guerrier")],
    )
    assert get(b, "a3").protege is get(b, "a1")
    assert flow.plan_pause(b)
    assert b.legal_actions(0) == [Play("a4"), Move("a3", "a2"), Pass()]
    b.answer(0, Move("a3", "a2"))
    assert b.legal_actions(0) == [Play("a4"), Pass()]  # once per pause
    b.answer(0, Pass())
    flow.resolve(b)
    assert get(b, "a3").protege is get(b, "a2")


def test_a_possible_move_alone_pauses_only_with_the_move_pauses_option() -> None:
    cards = [
        creature("p1_1", "humain", "guerrier", pv=900),
        creature("p2_1", "orc", "guerrier", pv=900),
        creature("wall_1", "humain", "defenseur", pv=900),
    ]
    b = arena(cards, [creature("t_1", "sylvestre", "guerrier", pv=900)])
    assert not flow.plan_pause(b)
    b.move_pauses = True
    assert flow.plan_pause(b)
    assert b.legal_actions(0) == [Move("a3", "a2"), Pass()]
    assert b.legal_actions(1) == []


def test_a_defender_card_is_played_onto_an_attacker_only() -> None:
    b = arena(
        [creature("p1_1", "humain", "guerrier", pv=900), creature("wall0_1", "humain", "defenseur", pv=900)],
        [creature("t_1", "sylvestre", "guerrier", pv=900)],
        hand_a=[creature("wall_1", "orc", "defenseur", pv=900)],
    )
    assert flow.plan_pause(b)
    assert b.legal_actions(0) == [Play("a3", "a1"), Pass()]


def _guarded_pair_and_a_waiting_defender() -> Battle:
    """Seat 0: a Humain and a Sylvestre attacker, a Humain Défenseur on the Humain, and a second one whose
    protégé just died (so the pause first asks where to place it); seat 1: a Squelette, who aims at the
    Sylvestre (it fears Squelettes) and whose hits a Humain Défenseur on it always intercepts."""
    b = arena(
        [
            creature("hum_1", "humain", "guerrier", pv=900),
            creature("syl_1", "sylvestre", "guerrier", pv=900),
            creature("wall_1", "humain", "defenseur", pv=900),
            creature("wall2_1", "humain", "defenseur", pv=900),
        ],
        [creature("sq_1", "squelette", "guerrier", pv=900, atk=1)],
    )
    hold(b, "a1", "a2")
    get(b, "a4").protege = None
    return b


def test_a_defender_moves_at_any_step_of_a_pause_and_guards_its_new_protege_from_the_next_hit() -> None:
    b = _guarded_pair_and_a_waiting_defender()
    assert get(b, "a3").protege is get(b, "a1")
    assert flow.plan_pause(b)
    # « Tu peux aussi le déplacer quand tu veux »: offered while the placement is still owed, too.
    assert b.legal_actions(0) == [Place("a4", "a1"), Place("a4", "a2"), Move("a3", "a2")]
    b.answer(0, Move("a3", "a2"))
    assert b.legal_actions(0) == [Place("a4", "a1"), Place("a4", "a2")]  # once per pause
    b.answer(0, Place("a4", "a1"))
    assert b.legal_actions(0) == [Pass()]
    b.answer(0, Pass())
    b.rnd = scripted()
    b.entries = []
    flow.resolve(b)
    assert get(b, "a3").protege is get(b, "a2")
    attack(b, get(b, "b1"), 2000)
    first = entries(b, "hit")[0]
    assert (first["src"], first.get("aimed"), first["tgt"]) == ("b1", "a2", "a3")


def test_an_illegal_defender_move_is_refused_and_changes_nothing() -> None:
    b = _guarded_pair_and_a_waiting_defender()
    assert flow.plan_pause(b)
    for move in (
        Move("a3", "a1"),  # where it stands already
        Move("a3", "a4"),  # onto a Défenseur
        Move("a3", "b1"),  # onto an enemy
        Move("a4", "a2"),  # a Défenseur without protégé is placed, not moved
        Move("a9", "a2"),  # no such creature
        Move("a1", "a2"),  # an attacker is no Défenseur
    ):
        with pytest.raises(IllegalAction):
            b.answer(0, move)
    with pytest.raises(IllegalAction):
        b.answer(1, Move("a3", "a2"))  # not the other seat's Défenseur
    b.answer(0, Move("a3", "a2"))
    with pytest.raises(IllegalAction):
        b.answer(0, Move("a3", "a1"))  # a second move at the same pause
    assert b.sides[0].answers == [("move", "a3", "a2")]
    assert get(b, "a3").protege is get(b, "a1")  # answers apply only once every seat is done
