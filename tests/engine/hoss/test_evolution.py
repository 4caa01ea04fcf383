"""Evolution at the end of a round: chance = the copy's bonus, next rank owned, paths, Maître, damage kept."""

from __future__ import annotations

from engine.hoss import flow
from engine.hoss.actions import ChoosePath, Pass
from tests.engine.hoss.helpers import ALWAYS_MISS, Unit, arena, creature, entries, get, within

R1 = creature("wolf_1", "orc", "guerrier", pv=100, atk=10)
R2A = creature("wolf_2a", "orc", "guerrier", rank=2, parent="wolf_1", pv=160, atk=16)
R2B = creature("wolf_2b", "orc", "guerrier", rank=2, parent="wolf_1", pv=180, atk=14, elements=("feu",))
R3A = creature("wolf_3a", "orc", "guerrier", rank=3, parent="wolf_2a", pv=240, atk=24)
R3B = creature("wolf_3b", "orc", "guerrier", rank=3, parent="wolf_2b", pv=260, atk=22)
FOE = creature("foe_1", "humain", "mage", pv=900)
TRIALS = 20000


def evolution_rate(unit: Unit, trials: int = TRIALS) -> float:
    b = arena([unit], [FOE])
    f = get(b, "a1")
    start_card, start_copy = f.card, f.copy
    evolved = 0
    for _ in range(trials):
        flow.try_evolve(b, f)
        if f.card is not start_card or f.path_options:
            evolved += 1
            f.set_card(start_card, start_copy)
            f.path_options = ()
            f.refresh()
    return evolved / trials


def test_the_chance_is_the_copys_bonus() -> None:
    rate = evolution_rate(Unit(R1, "argent", 5, later=[(R2A, "basique", 0)]))
    assert within(round(rate * TRIALS), TRIALS, 0.20)
    rate = evolution_rate(Unit(R1, "divin", 5, holo=True, later=[(R2A, "basique", 0)]))
    assert within(round(rate * TRIALS), TRIALS, 0.90)


def test_a_basique_0_star_never_evolves() -> None:
    assert evolution_rate(Unit(R1, "basique", 0, later=[(R2A, "divin", 5)]), trials=5000) == 0.0


def test_race_synergy_is_not_an_evolution_chance() -> None:
    b = arena([Unit(R1, later=[(R2A, "basique", 0)]), creature("orc2_1", "orc", "mage")], [FOE])
    f = get(b, "a1")
    assert b.sides[0].synergy[1] == 300
    for _ in range(5000):
        flow.try_evolve(b, f)
    assert f.card.id == "wolf_1"


def test_without_the_next_card_the_line_stops() -> None:
    assert evolution_rate(Unit(R1, "divin", 5), trials=2000) == 0.0
    b = arena([Unit(R1, "divin", 5, later=[(R2A, "divin", 5)])], [FOE])
    f = get(b, "a1")
    b.rnd = lambda: 0.0
    flow.try_evolve(b, f)
    assert f.card.id == "wolf_2a"
    flow.try_evolve(b, f)
    assert f.card.id == "wolf_2a"  # no Maître owned: the line stops at Rang 2


def test_one_path_evolves_at_once_and_the_maitre_follows_its_path_automatically() -> None:
    b = arena([Unit(R1, "or", 3, later=[(R2A, "argent", 1), (R3A, "platine", 2), (R3B, "divin", 5)])], [FOE])
    f = get(b, "a1")
    b.rnd = lambda: 0.0
    flow.try_evolve(b, f)
    assert (f.card.id, f.copy.rarity, f.copy.stars) == ("wolf_2a", "argent", 1)
    flow.try_evolve(b, f)
    assert (f.card.id, f.copy.rarity) == ("wolf_3a", "platine")
    assert [e["to"] for e in entries(b, "evolve")] == ["wolf_2a", "wolf_3a"]


def test_the_creature_keeps_the_damage_it_took() -> None:
    b = arena([Unit(R1, "or", 3, later=[(R2A, "basique", 0)])], [FOE])
    f = get(b, "a1")
    f.damage = 6000
    b.rnd = lambda: 0.0
    flow.try_evolve(b, f)
    assert f.damage == 6000
    assert f.max_hp == 16000
    assert f.hp == 10000


def test_two_paths_let_the_player_choose() -> None:
    b = arena([Unit(R1, "or", 3, later=[(R2A, "basique", 0), (R2B, "or", 1), (R3B, "basique", 0)])], [FOE])
    f = get(b, "a1")
    b.rnd = lambda: 0.0
    flow.try_evolve(b, f)
    assert f.card.id == "wolf_1"
    assert f.path_options == ("wolf_2a", "wolf_2b")
    assert entries(b, "evolve_choice")[0]["options"] == ["wolf_2a", "wolf_2b"]
    assert flow.plan_pause(b)
    assert b.legal_actions(0) == [ChoosePath("a1", "wolf_2a"), ChoosePath("a1", "wolf_2b")]
    b.answer(0, ChoosePath("a1", "wolf_2b"))
    assert b.legal_actions(0) == []
    flow.resolve(b)
    assert f.card.id == "wolf_2b"
    assert f.fire
    assert not f.path_options
    flow.try_evolve(b, f)
    assert f.card.id == "wolf_3b"  # then the Maître of the chosen path, automatically


def test_a_pending_choice_comes_before_the_cards_to_play() -> None:
    b = arena(
        [Unit(R1, "or", 3, later=[(R2A, "basique", 0), (R2B, "basique", 0)])],
        [FOE],
        hand_a=[creature("pup_1", "orc", "mage")],
    )
    b.rnd = lambda: 0.0
    flow.try_evolve(b, get(b, "a1"))
    flow.plan_pause(b)
    assert [s.kind for s in b.sides[0].steps] == ["path", "orders"]
    b.answer(0, ChoosePath("a1", "wolf_2a"))
    assert Pass() in b.legal_actions(0)


def test_an_evolved_creature_hits_at_the_new_cards_pace_from_the_next_rounds_start() -> None:
    fast = creature("hare_1", "orc", "guerrier", interval=2.0)
    slow = creature("hare_2a", "orc", "guerrier", rank=2, parent="hare_1", interval=3.0)
    b = arena([Unit(fast, "or", 3, later=[(slow, "basique", 0)])], [FOE])
    f = get(b, "a1")
    assert f.interval == 1805  # Or 3★: +19.5 % speed
    f.cycle_start, f.attack_at = 3610, 5415  # its last hit at 3.61 s
    b.rnd = lambda: 0.0
    flow.try_evolve(b, f)  # at the round's end (5 s)
    assert (f.card.id, f.interval) == ("hare_2a", 3000)
    b.round, b.entries = 1, []
    b.rnd = lambda: ALWAYS_MISS
    b.run_round()
    # Round 2 restarts its cycle at the new pace: one hit at 3 s (not 3.61 + 3 = 6.61 s, then 9.61 s).
    assert [e["t"] for e in entries(b, "hit") if e["src"] == "a1"] == [3000]
