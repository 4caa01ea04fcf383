"""Rounds of 5 s, each creature at its own rhythm, attack speed, and every round restarting each attack
cycle (hits per round = ceil(5 s / interval) - 1)."""

from __future__ import annotations

from engine.hoss import flow
from engine.hoss.battle import Battle
from engine.hoss.bonus import attack_interval_ms, hits_per_round, slowed_interval_ms
from engine.hoss.convert import from_state, to_state
from engine.hoss.rules import ROUND_MS
from engine.hoss.statuses import cycle, retime
from tests.engine.hoss.helpers import ALWAYS_MISS, Unit, arena, buff, creature, get, hold

TARGET = creature("dummy_1", "orc", "defenseur", pv=5000)


def fight_round(b: Battle) -> list[dict[str, object]]:
    """Run one round (and its end) and return its log events."""
    b.entries = []
    b.run_round()
    if not b.over:
        b.end_of_round()
    b.close_round()
    return b.records[-1]["events"]


def hit_times(events: list[dict[str, object]], uid: str) -> list[object]:
    return [e["t"] for e in events if e["k"] == "hit" and e["src"] == uid]


def test_speed_bonus_halves_into_the_interval_and_caps_at_100_percent() -> None:
    assert attack_interval_ms(2000, 0) == 2000
    assert attack_interval_ms(2000, 5000) == 1500  # +50 % → 1.5 s
    assert attack_interval_ms(2000, 10000) == 1000  # +100 % → 1 s
    assert attack_interval_ms(2000, 25000) == 1000  # never below half the base


def test_a_two_second_creature_hits_at_2_and_4_seconds_of_every_round() -> None:
    """« une créature qui frappe toutes les 2 secondes attaque à 2 s puis à 4 s »: in every round, since each
    round restarts the cycle (the hit due at 6 s never spills into round 2 as a hit at 1 s)."""
    b = arena([creature("fighter_1", "humain", "guerrier", interval=2.0)], [TARGET])
    for _ in range(3):
        assert hit_times(fight_round(b), "a1") == [2000, 4000]


def test_hits_per_round_are_ceil_of_5_seconds_over_the_interval_minus_one() -> None:
    expected = {1000: 4, 1249: 4, 1250: 3, 1500: 3, 1666: 3, 1667: 2, 2000: 2, 2499: 2, 2500: 1, 4990: 1}
    assert {ms: hits_per_round(ms) for ms in expected} == expected
    assert hits_per_round(5000) == hits_per_round(6000) == 0


def test_rhythms_restart_in_every_round() -> None:
    b = arena(
        [
            creature("quick_1", "humain", "archer", interval=1.5),
            creature("slow_1", "orc", "guerrier", interval=2.5),
            creature("slowest_1", "sylvestre", "mage", interval=5.0),
        ],
        [TARGET],
    )
    for _ in range(3):
        events = fight_round(b)
        assert hit_times(events, "a1") == [1500, 3000, 4500]  # 1.5 s: 3 hits per round
        # An event at exactly 5 s belongs to the next round, which restarts the cycle: it never happens.
        assert hit_times(events, "a2") == [2500]  # 2.5 s: one hit per round
        assert hit_times(events, "a3") == []  # 5 s: never


def test_over_20_rounds_a_creature_hits_20_times_its_hits_per_round() -> None:
    """Speed is a step function of the interval: 2.47 s hits twice per round, 2.5 s to 4.99 s once."""
    for interval, per_round in ((1.25, 3), (1.249, 4), (2.47, 2), (2.5, 1), (3.12, 1), (4.99, 1), (5.0, 0)):
        b = arena([creature("fighter_1", "humain", "guerrier", interval=interval)], [TARGET])
        count = sum(len(hit_times(fight_round(b), "a1")) for _ in range(20))
        assert count == 20 * per_round == 20 * hits_per_round(round(interval * 1000)), interval


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
    # At the round's end Gel fades to 8 %: round 2's new cycle runs at 2 s / 0.92 = 2.173 s.
    assert hit_times(fight_round(b), "a1") == [2173, 4346]


def test_a_creature_slowed_to_the_gel_cap_hits_once_in_every_round() -> None:
    """The 4.99 s cap keeps a slowed creature at one hit per round, because each round restarts its cycle
    (its next hit is never 4.99 s after the last one, 4.98 s into the next round)."""
    b = arena([creature("chilled_1", "humain", "guerrier", interval=2.0)], [TARGET])
    slow = get(b, "a1")
    slow.gel_bp = 9000
    for gel in (9000, 8000, 7000):  # 2 s / 0.1, / 0.2, / 0.3: all past the cap
        assert slow.gel_bp == gel
        assert hit_times(fight_round(b), "a1") == [4990]


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
    assert hit_times(events, "a1") == [2000, 4000]  # and a1's cycle restarts with the round


def test_a_synergy_gained_at_a_pause_sets_the_next_rounds_pace() -> None:
    b = arena(
        [creature("fighter_1", "humain", "guerrier", interval=2.0)],
        [TARGET],
        hand_a=[creature("mate_1", "humain", "mage", interval=2.0)],
    )
    fight_round(b)  # hits at 2 s and 4 s
    flow.put_in_play(b, b.sides[0], "a2", None)  # two Humains: +3 % speed, 2 s → 1.97 s
    assert get(b, "a1").interval == 1970
    events = fight_round(b)
    assert hit_times(events, "a1") == [1970, 3940]
    assert hit_times(events, "a2") == [1970, 3940]


def test_the_pending_hit_is_never_moved_before_now() -> None:
    b = arena([creature("fighter_1", "humain", "guerrier", interval=4.0)], [TARGET])
    f = get(b, "a1")
    f.interval = 1000  # as if a bonus had made it hit every second, 3 s into a cycle started at 0 s
    retime(b, f, 3000)
    assert f.attack_at == 3000  # due at 1 s, already past: it hits now


def test_a_battle_saved_at_a_pause_goes_on_exactly() -> None:
    """Restored from its state between two rounds, a battle restarts the same cycles: a 2.6 s creature still
    hits once per round, and a shock that runs across the round's end still ends on the battle clock."""
    shocker = creature("shocker_1", "humain", "mage", atk=1, interval=4.0, statuses={"choc": 1.0})
    b = arena([creature("fighter_1", "humain", "guerrier", interval=2.6)], [TARGET, shocker])
    b.rnd = lambda: ALWAYS_MISS
    hold(b, "b2")
    assert hit_times(fight_round(b), "a1") == [2600]
    get(b, "b2").interval = 4000  # round 2: the shocker hits at 9 s, a1 is shocked until 11.5 s
    events = fight_round(b)
    assert hit_times(events, "a1") == [2600]
    assert hit_times(events, "b2") == [4000]
    hold(b, "b2")
    state = to_state(b)
    assert state.seats[0].fighters[0].shock_until == 11500
    restored = from_state(state, log=True, refresh=True)
    hold(restored, "b2")
    for battle in (b, restored):
        battle.rnd = lambda: ALWAYS_MISS
        # Round 3 (10 s to 15 s): the cycle restarts at the shock's end, 11.5 s: one hit at 14.1 s.
        assert hit_times(fight_round(battle), "a1") == [4100]
        assert hit_times(fight_round(battle), "a1") == [2600]  # round 4: from its start again


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
