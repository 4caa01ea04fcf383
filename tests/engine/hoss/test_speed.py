"""Rounds of 5 s, each creature at its own rhythm, attack speed, and how cycles meet round boundaries."""

from __future__ import annotations

from engine.hoss.battle import Battle
from engine.hoss.bonus import attack_interval_ms, slowed_interval_ms
from engine.hoss.rules import ROUND_MS
from engine.hoss.statuses import cycle
from tests.engine.hoss.helpers import Unit, arena, buff, creature, get

TARGET = creature("dummy_1", "orc", "defenseur", pv=5000)


def fight_round(b: Battle) -> list[dict[str, object]]:
    """Run one round (and its end) and return its log events."""
    b.entries = []
    b.run_round()
    if not b.over:
        b.end_of_round()
    b.close_round()
    return b.records[-1]["events"]  # type: ignore[no-any-return]


def hit_times(events: list[dict[str, object]], uid: str) -> list[object]:
    return [e["t"] for e in events if e["k"] == "hit" and e["src"] == uid]


def test_speed_bonus_halves_into_the_interval_and_caps_at_100_percent() -> None:
    assert attack_interval_ms(2000, 0) == 2000
    assert attack_interval_ms(2000, 5000) == 1500  # +50 % → 1.5 s
    assert attack_interval_ms(2000, 10000) == 1000  # +100 % → 1 s
    assert attack_interval_ms(2000, 25000) == 1000  # never below half the base


def test_a_two_second_creature_hits_at_2_and_4_seconds_of_every_round() -> None:
    b = arena([creature("fighter_1", "humain", "guerrier", interval=2.0)], [TARGET])
    assert hit_times(fight_round(b), "a1") == [2000, 4000]
    # Cycles restart with each round (the 6 s hit does not spill into round 2 as a 1 s hit).
    assert hit_times(fight_round(b), "a1") == [2000, 4000]


def test_rhythms_within_a_round() -> None:
    b = arena(
        [
            creature("quick_1", "humain", "archer", interval=1.5),
            creature("slow_1", "orc", "guerrier", interval=2.5),
            creature("slowest_1", "sylvestre", "mage", interval=5.0),
        ],
        [TARGET],
    )
    events = fight_round(b)
    assert hit_times(events, "a1") == [1500, 3000, 4500]
    # An event at exactly 5 s belongs to the next round, where cycles restart: a 2.5 s creature hits once
    # per round, a 5 s creature never.
    assert hit_times(events, "a2") == [2500]
    assert hit_times(events, "a3") == []


def test_all_speed_bonuses_add_up_card_synergy_and_buffs() -> None:
    runner = creature("runner_1", "humain", "guerrier", interval=2.0)
    mate = creature("mate_1", "humain", "mage", interval=2.0)
    speed = buff("vitesse", 0.2)
    b = arena([Unit(runner, "divin", 5), mate], [TARGET], buffs_a=[(speed, "basique", 0)])
    # +70 % (Divin 5★) + 3 % (two Humains) + 20 % (buff) = +93 % → 2 s x (1 - 0.465) = 1.07 s
    assert get(b, "a1").interval == 1070
    # The partner: 3 % + 20 % = +23 % → 1.77 s
    assert get(b, "a2").interval == 1770
    fast = arena([Unit(runner, "divin", 5, True), mate], [TARGET], buffs_a=[(speed, "divin", 5)])
    assert get(fast, "a1").interval == 1000  # +90 + 3 + 34 = +127 %: capped at +100 %


def test_gel_slows_the_rate_but_never_past_one_hit_every_4_99_seconds() -> None:
    assert slowed_interval_ms(2000, 1800) == 2439  # -18 % attack rate: 2 s / 0.82
    assert slowed_interval_ms(2000, 7000) == 4990  # 6.67 s, capped
    assert slowed_interval_ms(5000, 1000) == 5000  # Gel never makes a creature faster
    b = arena([creature("chilled_1", "humain", "guerrier", interval=2.0)], [TARGET])
    f = get(b, "a1")
    f.gel_bp = 1800
    assert cycle(f) == 2439
    assert hit_times(fight_round(b), "a1") == [2439, 4878]


def test_a_round_lasts_five_seconds_and_the_battle_clock_runs_on() -> None:
    b = arena([creature("fighter_1", "humain", "guerrier")], [TARGET])
    fight_round(b)
    assert (b.round, b.round_start, b.round_end) == (1, 0, ROUND_MS)
    fight_round(b)
    assert (b.round, b.round_start, b.round_end) == (2, ROUND_MS, 2 * ROUND_MS)


def test_simultaneous_hits_come_in_a_random_order() -> None:
    firsts = []
    for seed in range(400):
        b = arena(
            [creature("x_1", "humain", "guerrier", interval=2.0)],
            [
                creature("y_1", "squelette", "defenseur", pv=900),
                creature("z_1", "orc", "guerrier", interval=2.0),
            ],
            seed=seed,
        )
        b.run_round()
        firsts.append(next(e["src"] for e in b.entries or [] if e["k"] == "hit" and e["t"] == 2000))
    assert 150 < firsts.count("a1") < 250  # neither seat always strikes first
