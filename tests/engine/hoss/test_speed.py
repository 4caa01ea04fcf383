"""Rounds of 5 s, each creature at its own rhythm, attack speed, and how cycles carry over from one round to
the next on the continuous battle clock."""

from __future__ import annotations

from engine.hoss import flow
from engine.hoss.battle import Battle
from engine.hoss.bonus import attack_interval_ms, slowed_interval_ms
from engine.hoss.convert import from_state, to_state
from engine.hoss.rules import ROUND_MS
from engine.hoss.statuses import cycle, retime
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


def test_a_two_second_creature_hits_every_2_seconds_of_battle_time_across_rounds() -> None:
    b = arena([creature("fighter_1", "humain", "guerrier", interval=2.0)], [TARGET])
    assert hit_times(fight_round(b), "a1") == [2000, 4000]
    # Cycles carry over: the 6 s and 8 s hits are 1 s and 3 s into round 2, then 10, 12, 14 s.
    assert hit_times(fight_round(b), "a1") == [1000, 3000]
    assert hit_times(fight_round(b), "a1") == [0, 2000, 4000]


def test_rhythms_across_rounds() -> None:
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
    # An event at exactly 5 s belongs to the next round: it is its first event, at 0 s.
    assert hit_times(events, "a2") == [2500]
    assert hit_times(events, "a3") == []
    events = fight_round(b)
    assert hit_times(events, "a1") == [1000, 2500, 4000]  # 6 s, 7.5 s, 9 s
    assert hit_times(events, "a2") == [0, 2500]  # 5 s, 7.5 s: two hits every 5 s, not one
    assert hit_times(events, "a3") == [0]  # even the slowest card hits, once every 5 s


def test_damage_per_second_is_atk_over_interval_without_steps() -> None:
    """Over 20 rounds (100 s), a creature hits floor(100 s / interval) times: no step at 2.5 s or 5 s."""
    for interval, expected in ((2.47, 40), (2.5, 39), (2.6, 38), (3.12, 32), (4.99, 20), (5.0, 19)):
        b = arena([creature("fighter_1", "humain", "guerrier", interval=interval)], [TARGET])
        count = sum(len(hit_times(fight_round(b), "a1")) for _ in range(20))
        assert count == expected == (20 * ROUND_MS - 1) // round(interval * 1000), interval


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
    retime(b, f, 0)
    assert cycle(f) == 2439
    assert hit_times(fight_round(b), "a1") == [2439, 4878]
    # At the round's end Gel fades to 8 %: the hit due at 7.317 s comes at 4.878 + 2 / 0.92 = 7.051 s.
    assert hit_times(fight_round(b), "a1") == [2051, 4224]
    # The slowest pace is 4.99 s: a creature slowed to the cap still hits about once per round.
    capped = arena([creature("chilled_1", "humain", "guerrier", interval=2.0)], [TARGET])
    slow = get(capped, "a1")
    slow.gel_bp = 9000
    retime(capped, slow, 0)
    assert hit_times(fight_round(capped), "a1") == [4990]


def test_a_creature_entering_play_starts_its_cycle_at_the_round_start() -> None:
    b = arena(
        [creature("fighter_1", "humain", "guerrier", interval=2.0)],
        [TARGET],
        hand_a=[creature("late_1", "orc", "guerrier", interval=2.0)],
    )
    fight_round(b)  # a1 at 2 s and 4 s
    flow.put_in_play(b, b.sides[0], "a2", None)  # played at the pause: it enters at 5 s
    assert (get(b, "a2").cycle_start, get(b, "a2").attack_at) == (5000, 7000)
    events = fight_round(b)
    assert hit_times(events, "a2") == [2000, 4000]  # one interval after the round's start
    assert hit_times(events, "a1") == [1000, 3000]  # the old cycle runs on


def test_a_synergy_gained_at_a_pause_re_times_the_pending_hit() -> None:
    b = arena(
        [creature("fighter_1", "humain", "guerrier", interval=2.0)],
        [TARGET],
        hand_a=[creature("mate_1", "humain", "mage", interval=2.0)],
    )
    fight_round(b)  # hits at 2 s and 4 s; the next was due at 6 s
    flow.put_in_play(b, b.sides[0], "a2", None)  # two Humains: +3 % speed, 2 s → 1.97 s
    assert get(b, "a1").interval == 1970
    events = fight_round(b)
    # Re-timed from its last hit: 4 + 1.97 = 5.97 s, then 7.94 s and 9.91 s.
    assert hit_times(events, "a1") == [970, 2940, 4910]
    assert hit_times(events, "a2") == [1970, 3940]


def test_the_pending_hit_is_never_moved_before_now() -> None:
    b = arena([creature("fighter_1", "humain", "guerrier", interval=4.0)], [TARGET])
    f = get(b, "a1")
    f.interval = 1000  # as if a bonus had made it hit every second, 3 s into a cycle started at 0 s
    retime(b, f, 3000)
    assert f.attack_at == 3000  # due at 1 s, already past: it hits now


def test_the_cycle_survives_a_pause_and_a_round_trip_through_the_state() -> None:
    b = arena([creature("fighter_1", "humain", "guerrier", interval=2.6)], [TARGET])
    assert hit_times(fight_round(b), "a1") == [2600]
    assert hit_times(fight_round(b), "a1") == [200, 2800]  # 5.2 s and 7.8 s
    state = to_state(b)
    fs = state.seats[0].fighters[0]
    assert (fs.cycle_start, fs.next_hit) == (7800, 10400)
    restored = from_state(state, log=True, refresh=True)
    restored.rnd = b.rnd
    # Pauses take no battle time: the restored battle hits at 10.4 s and 13 s, 0.4 s and 3 s into round 3.
    assert hit_times(fight_round(restored), "a1") == [400, 3000]


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
