"""A fight: initiative, strikes and counter-strikes, 20 turns, KO, drawn fights, damage to the player."""

from __future__ import annotations

import random

from engine.immortals.catalog import Effect
from engine.immortals.rules import Side, fight, initiative, numbers
from engine.immortals.state import START_VITALITY, TURNS
from tests.engine.immortals.helpers import ENGINE, line_up, spell, state, stats, unit


def test_the_higher_attack_strikes_first() -> None:
    sides = (Side(unit("u0-0", attack=3), None), Side(unit("u1-0", attack=5), None))
    fighters = (numbers(0, sides, "plaine", 0), numbers(1, sides, "plaine", 0))
    assert initiative(fighters, engager=0) == 1


def test_equal_attacks_give_the_initiative_to_the_engager() -> None:
    sides = (Side(unit("u0-0", attack=4), None), Side(unit("u1-0", attack=4), None))
    fighters = (numbers(0, sides, "plaine", 0), numbers(1, sides, "plaine", 0))
    assert initiative(fighters, engager=0) == 0
    assert initiative(fighters, engager=1) == 1


def test_the_initiative_compares_attacks_with_terrain_and_spells() -> None:
    """3 Attack on its favourite terrain (4) with +1 beats a plain 4 Attack without the engager's tie."""
    sides = (
        Side(unit("u0-0", attack=3, terrain="plaine"), spell("s0-0", Effect(stat="attack", value=1))),
        Side(unit("u1-0", attack=4, terrain="foret"), None),
    )
    fighters = (numbers(0, sides, "plaine", 0), numbers(1, sides, "plaine", 0))
    assert initiative(fighters, engager=1) == 0


def test_a_lone_initiative_spell_strikes_first_whatever_the_attacks() -> None:
    swift = spell("s0-0", Effect(stat="initiative", value=1))
    sides = (Side(unit("u0-0", attack=1), swift), Side(unit("u1-0", attack=9), None))
    fighters = (numbers(0, sides, "plaine", 0), numbers(1, sides, "plaine", 0))
    assert initiative(fighters, engager=1) == 0
    both = (
        Side(sides[0].unit, swift),
        Side(sides[1].unit, spell("s1-0", Effect(stat="initiative", value=1))),
    )
    assert (
        initiative((numbers(0, both, "plaine", 0), numbers(1, both, "plaine", 0)), engager=0)
        == 1  # both: the usual rule
    )  # both cast: the usual rule


def test_the_first_striker_can_kill_before_the_counter_strike() -> None:
    """12 Attack against 0 Defense wounds 12 to 24 per strike. Seat 1 (30 HP) strikes first: its two
    strikes of turns 1 and 2 kill seat 0 (20 HP) before seat 0's second strike, which could have killed."""
    for seed in range(200):
        winner, trace = fight(random.Random(seed), (stats(12, 0), stats(12, 0, hp=30)), first=1)
        assert winner == 1
        assert trace[-1][0] == 0
        assert len(trace) <= 2


def test_the_attacked_unit_strikes_back_in_the_same_turn() -> None:
    """With 1 Attack against 0 Defense each strike wounds 1 or 2: after one turn both have been hit."""
    _, trace = fight(random.Random(3), (stats(1, 0), stats(1, 0)), first=0)
    assert all(hp < 20 for hp in trace[0])


def test_twenty_turns_then_equal_hp_is_a_drawn_fight() -> None:
    """No unit can wound (0 Attack): 20 turns, both at 20 HP, a draw."""
    winner, trace = fight(random.Random(1), (stats(0, 3), stats(0, 3)), first=0)
    assert winner is None
    assert len(trace) == TURNS
    assert trace[-1] == (20, 20)


def test_after_twenty_turns_more_hp_wins() -> None:
    """Seat 0 (1 Attack) never wounds seat 1 (2 Defense: rolls 2 to 4); seat 1 (1 Attack) wounds seat 0
    (0 Defense) 1 or 2 a turn, 20 to 40 in all: seat 0, from 45 HP, ends with 5 to 25. All 20 turns are
    played and the higher HP wins (or, at 20 each, neither)."""
    results = set()
    for seed in range(100):
        winner, trace = fight(random.Random(seed), (stats(1, 0, hp=45), stats(1, 2)), first=0)
        assert len(trace) == TURNS
        final = trace[-1]
        assert final[1] == 20
        assert winner == (0 if final[0] > 20 else 1 if final[0] < 20 else None)
        results.add(winner)
    assert results >= {0, 1}


def test_regeneration_never_exceeds_the_start_and_poison_never_kills() -> None:
    winner, trace = fight(random.Random(5), (stats(0, 0, regen=-3), stats(0, 0, regen=2)), first=0)
    assert trace[-1] == (1, 20)
    assert winner == 1


def test_the_round_winner_deals_its_attack_power_to_the_losing_player() -> None:
    """A won fight takes the winner's power (Attack + damage bonuses, no terrain) from the loser."""
    strong = tuple(unit(f"u0-{i}", attack=6, defense=12, damage=2) for i in range(4))
    s = state(strong, line_up(1, attack=1, defense=1))
    s, _ = ENGINE.apply(s, 0, ENGINE.legal_actions(s, 0)[0])
    s, events = ENGINE.apply(s, 1, ENGINE.legal_actions(s, 1)[0])
    record = s.history[0]
    assert (record.winner, record.damage) == (0, 8)
    assert s.vitality == (START_VITALITY, START_VITALITY - 8)
    assert [e.kind for e in events] == ["fight"]


def test_a_drawn_fight_deals_no_damage() -> None:
    idle = tuple(unit(f"u0-{i}", attack=0, defense=3) for i in range(4))
    s = state(idle, tuple(unit(f"u1-{i}", attack=0, defense=3) for i in range(4)))
    for seat in (0, 1):
        s, _ = ENGINE.apply(s, seat, ENGINE.legal_actions(s, seat)[0])
    assert (s.history[0].winner, s.history[0].damage, s.vitality) == (None, 0, (30, 30))


def test_a_spell_changes_the_fight_and_the_damage() -> None:
    """+3 Attack and +2 damage from a spell raise the damage dealt; a foe's -2 Attack lowers the foe's."""
    pact = spell("s0-0", Effect(stat="attack", value=3), Effect(stat="damage", value=2))
    curse = spell("s0-1", Effect(stat="attack", value=-2, target="foe"))
    u, foe = unit("u0-0", attack=4), unit("u1-0", attack=5)
    with_pact = numbers(0, (Side(u, pact), Side(foe, None)), "plaine", 0)
    cursed = numbers(1, (Side(u, curse), Side(foe, None)), "plaine", 0)
    assert (with_pact.attack, with_pact.power) == (7, 9)
    assert (cursed.attack, cursed.power) == (3, 3)


def test_healing_restores_vitality_up_to_the_start_only() -> None:
    heal = spell("s0-0", Effect(stat="vitality", value=8))
    idle = tuple(unit(f"u0-{i}", attack=0, defense=3) for i in range(4))
    s = state(
        idle, tuple(unit(f"u1-{i}", attack=0, defense=3) for i in range(4)), s0=(heal,), vitality=(25, 30)
    )
    s, _ = ENGINE.apply(s, 0, ENGINE.legal_actions(s, 0)[1])
    s, _ = ENGINE.apply(s, 1, ENGINE.legal_actions(s, 1)[0])
    assert s.history[0].fighters[0].healed == 5
    assert s.vitality == (30, 30)
