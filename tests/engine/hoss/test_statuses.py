"""The seven markers: stack values, ticks, stacking, fading, Gel and Choc timing, Confusion."""

from __future__ import annotations

from typing import Any

from engine.hoss.battle import Battle
from engine.hoss.damage import attack, strike
from engine.hoss.rules import CHOC, CONFUSION
from engine.hoss.statuses import apply_status, cycle, fade
from tests.engine.hoss.helpers import ALWAYS_MISS, arena, creature, entries, get, heal_fully, hold, within

TRIALS = 20000


def sure(status: str, atk: int = 20, **extra: Any) -> Any:
    """A Humain mage whose hits (20 ATK, no class or race bonus on a Humain mage) always carry `status`."""
    return creature("src_1", "humain", "mage", atk=atk, interval=5.0, statuses={status: 1.0}, **extra)


def target(interval: float = 5.0, **extra: Any) -> Any:
    return creature("t_1", "humain", "mage", pv=900, interval=interval, **extra)


def hit_once(b: Battle, t: int = 1000) -> None:
    b.rnd = lambda: ALWAYS_MISS
    strike(b, get(b, "a1"), get(b, "b1"), get(b, "b1"), t)


def next_round(b: Battle) -> list[dict[str, Any]]:
    b.entries = []
    b.run_round()
    if not b.over:
        b.end_of_round()
    b.close_round()
    return b.records[-1]["events"]


def ticks(events: list[dict[str, Any]], status: str) -> list[tuple[int, int]]:
    return [(e["t"], e["dmg"]) for e in events if e["k"] == "tick" and e["st"] == status]


def test_poison_is_30_percent_of_the_hit_ticks_at_round_end_and_never_expires() -> None:
    b = arena([sure("poison")], [target()])
    hold(b, "a1", "b1")  # only the hits below
    hit_once(b)
    hit_once(b)
    assert get(b, "b1").poison == 2 * 600  # two stacks of 30 % of a 20-PV hit add up
    assert ticks(next_round(b), "poison") == [(5000, 1200)]
    assert ticks(next_round(b), "poison") == [(5000, 1200)]


def test_bleeding_is_20_percent_every_2_5_seconds_across_rounds() -> None:
    b = arena([sure("saignement")], [target()])
    hold(b, "a1", "b1")
    hit_once(b, t=1000)
    assert get(b, "b1").bleed == 400
    assert ticks(next_round(b), "saignement") == [(3500, 400)]
    # The timer runs on the battle clock: 6 s and 8.5 s are 1 s and 3.5 s into round 2.
    assert ticks(next_round(b), "saignement") == [(1000, 400), (3500, 400)]


def test_burning_is_10_percent_every_second_and_can_crit() -> None:
    b = arena([sure("embrasement")], [target()])
    hit_once(b, t=500)
    assert get(b, "b1").burn == 200
    assert ticks(next_round(b)[:5], "embrasement") == [(1500, 200), (2500, 200), (3500, 200), (4500, 200)]
    hot = arena([sure("embrasement", crit_chance=1.0, crit_damage=0.5)], [target()])
    hit_once(hot, t=500)  # the hit crits: 20 x 2 = 40 PV, so 4 PV of burn; each tick crits x2
    assert get(hot, "b1").burn == 400
    hot.entries = []
    hot.run_round()
    assert {(e["dmg"], e.get("crit")) for e in entries(hot, "tick")} == {(800, True)}


def test_burning_goes_out_70_percent_of_the_time_at_round_end() -> None:
    b = arena([sure("embrasement")], [target()])
    victim = get(b, "b1")
    out = 0
    for _ in range(TRIALS):
        victim.burn, victim.burn_next = 200, 6000
        fade(b, victim, 5000)
        out += victim.burn == 0
    assert within(out, TRIALS, 0.70)


def test_armour_break_is_5_percent_of_the_hit_as_extra_damage_taken() -> None:
    b = arena([sure("bris", atk=18)], [target()])
    hit_once(b)
    assert get(b, "b1").bris_bp == 90  # a hit of 18 PV: +0.9 %
    hit_once(b)
    assert get(b, "b1").bris_bp == 90 + 90  # the second hit did 18.16 PV: 5 % of 1816 centi-PV is 90 bp
    assert entries(b, "hit")[1]["dmg"] == 1816


def test_gel_from_a_hit_of_18_is_minus_18_percent() -> None:
    b = arena([sure("gel", atk=18)], [target()])
    hit_once(b)
    victim = get(b, "b1")
    assert victim.gel_bp == 1800
    victim.interval = 2000
    assert cycle(victim) == 2439


def test_gel_adds_up_freezes_at_100_percent_until_the_round_ends() -> None:
    b = arena(
        [creature("ice_1", "humain", "mage", atk=60, interval=1.0, statuses={"gel": 1.0})],
        [creature("t_1", "humain", "mage", pv=5000, atk=1, interval=1.2)],
    )
    b.rnd = lambda: ALWAYS_MISS
    events = next_round(b)
    statuses = [e for e in events if e["k"] == "status"]
    assert [e["v"] for e in statuses] == [6000, 4000, 0, 0]  # 60 % + 60 % capped at 100 %
    assert statuses[1]["frozen"] is True
    # Gel 60 % at 1 s moves its hit due at 1.2 s to 1.2 / 0.4 = 3 s; frozen at 2 s, it does not hit.
    assert [e["t"] for e in events if e["k"] == "hit" and e["src"] == "b1"] == []
    victim = get(b, "b1")
    assert victim.gel_bp == 0
    assert not victim.frozen
    assert (victim.cycle_start, victim.attack_at) == (5000, 6200)  # ...its cycle restarts at the round start


def test_gel_loses_10_points_at_each_round_end() -> None:
    b = arena([sure("gel")], [target()])
    victim = get(b, "b1")
    victim.gel_bp = 2500
    fade(b, victim, 5000)
    assert victim.gel_bp == 1500
    victim.gel_bp = 600
    fade(b, victim, 5000)
    assert victim.gel_bp == 0


def test_a_fire_hit_thaws() -> None:
    b = arena([creature("torch_1", "humain", "mage", atk=5, elements=("feu",))], [target(interval=1.0)])
    victim = get(b, "b1")
    victim.gel_bp, victim.frozen, victim.attack_at = 10000, True, -1
    hit_once(b, t=1300)
    assert (victim.gel_bp, victim.frozen) == (0, False)
    assert entries(b, "thaw") == [{"t": 1300, "k": "thaw", "tgt": "b1", "by": "a1"}]
    assert victim.attack_at == 2300  # its attack cycle restarts from the thaw
    slowed = arena([creature("torch_1", "humain", "mage", atk=5, elements=("feu",))], [target(interval=2.0)])
    victim = get(slowed, "b1")
    victim.gel_bp = 5000  # a 2 s creature slowed to 4 s, its last hit at 0 s: next hit due at 4 s
    victim.attack_at = 4000
    hit_once(slowed, t=1300)
    assert victim.attack_at == 2000  # melted at 1.3 s: its own pace again, due at 0 + 2 s
    victim.gel_bp, victim.cycle_start, victim.attack_at = 5000, 0, 4000
    hit_once(slowed, t=3000)
    assert victim.attack_at == 3000  # 0 + 2 s is past: it hits at once, never earlier than now
    chilled = arena([creature("torch_1", "humain", "mage", atk=5)], [target()])
    get(chilled, "b1").gel_bp = 5000
    hit_once(chilled)
    assert get(chilled, "b1").gel_bp == 5000  # only Fire thaws


def test_a_shock_stops_attacks_for_2_5_seconds_then_the_cycle_restarts() -> None:
    b = arena(
        [creature("zap_1", "humain", "mage", atk=1, interval=4.0, statuses={"choc": 1.0})],
        [creature("t_1", "orc", "mage", pv=900, atk=1, interval=1.2)],
    )
    b.rnd = lambda: ALWAYS_MISS
    first = next_round(b)
    # Shocked at 4 s: its 4.8 s hit is cancelled; the shock lasts until 6.5 s (1.5 s into round 2).
    assert [e["t"] for e in first if e["k"] == "hit" and e["src"] == "b1"] == [1200, 2400, 3600]
    victim = get(b, "b1")
    assert (victim.cycle_start, victim.attack_at) == (6500, 7700)
    for _ in range(2):
        later = next_round(b)
        # Rounds 2 and 3: the shock ran across the round's end, so the new round's cycle starts at the
        # shock's end: 6.5 + 1.2 = 7.7 s, then 8.9 s. The shocker's own cycle restarts with the round and
        # shocks it again at 4 s into it (9 s, then 14 s), until 1.5 s into the next round.
        assert [e["t"] for e in later if e["k"] == "hit" and e["src"] == "b1"] == [2700, 3900]
        assert [e["t"] for e in later if e["k"] == "status" and e["st"] == "choc"] == [4000]
        assert victim.shock_until == b.round_start + 6500


def test_a_new_shock_restarts_its_timer_and_shocks_do_not_stack() -> None:
    b = arena([sure("choc")], [target()])
    victim = get(b, "b1")
    apply_status(b, get(b, "a1"), victim, CHOC, 1000, 1, 1000)
    apply_status(b, get(b, "a1"), victim, CHOC, 1000, 2, 2000)
    assert victim.shock_until == 4500


def test_confusion_sends_15_percent_of_hits_to_an_ally_for_good() -> None:
    b = arena(
        [creature("g_1", "orc", "guerrier", atk=1, pv=900), creature("mate_1", "humain", "guerrier", pv=900)],
        [creature("t_1", "sylvestre", "guerrier", pv=900)],
    )
    crazy = get(b, "a1")
    apply_status(b, get(b, "b1"), crazy, CONFUSION, 1000, 1, 1000)
    apply_status(b, get(b, "b1"), crazy, CONFUSION, 1000, 1, 1000)  # a second one changes nothing
    on_ally = 0
    for _ in range(TRIALS):
        b.entries = []
        attack(b, crazy, 1000)
        on_ally += any(e.get("confused") for e in entries(b, "hit"))
        for f in (get(b, "a2"), get(b, "b1")):
            heal_fully(f)
    assert crazy.confused
    assert within(on_ally, TRIALS, 0.15)


def test_a_card_status_chance_is_rolled_on_each_landed_hit() -> None:
    b = arena([creature("src_1", "humain", "mage", atk=1, statuses={"poison": 0.25})], [target()])
    landed = poisoned = 0
    for _ in range(TRIALS):
        b.entries = []
        strike(b, get(b, "a1"), get(b, "b1"), get(b, "b1"), 1000)
        landed += entries(b, "hit")[0]["res"] == "hit"
        poisoned += bool(entries(b, "status"))
        heal_fully(get(b, "b1"))
    # The target (a mage) dodges 5 % of mages: 95 % of hits land, 25 % of those poison.
    assert within(landed, TRIALS, 0.95)
    assert within(poisoned, TRIALS, 0.95 * 0.25)


def test_a_dodged_or_blocked_hit_applies_nothing() -> None:
    b = arena([sure("poison")], [creature("wall_1", "humain", "defenseur", pv=900, block=1.0)])
    hit_once(b)
    assert entries(b, "hit")[0]["res"] == "block"
    assert get(b, "b1").poison == 0


def test_ticks_are_raw_damage() -> None:
    b = arena([sure("saignement")], [creature("wall_1", "humain", "defenseur", pv=900, damage_reduction=0.5)])
    hit_once(b, t=1000)
    bleed = get(b, "b1").bleed
    assert bleed == 1100 * 20 // 100  # 20 ATK +10 % (Mage vs Défenseur), halved: 11 PV; its 20 % is 2.2 PV
    assert ticks(next_round(b), "saignement") == [(3500, bleed)]  # the tick itself is not reduced again


def test_a_frozen_creature_still_dodges() -> None:
    b = arena([creature("g_1", "orc", "guerrier", atk=1)], [creature("t_1", "humain", "assassin", pv=900)])
    victim = get(b, "b1")
    dodged = 0
    for _ in range(TRIALS):
        heal_fully(victim)
        victim.gel_bp, victim.frozen = 10000, True
        b.entries = []
        strike(b, get(b, "a1"), victim, victim, 1000)
        dodged += entries(b, "hit")[0]["res"] == "dodge"
    assert within(dodged, TRIALS, 0.17)  # an Assassin dodges 17 % of Guerriers, frozen or not


def test_a_change_of_pace_re_times_the_pending_hit_from_the_last_one() -> None:
    b = arena(
        [creature("ice_1", "humain", "mage", atk=40, interval=2.0, statuses={"gel": 1.0})],
        [creature("t_1", "humain", "mage", pv=5000, atk=1, interval=1.2)],
    )
    b.rnd = lambda: ALWAYS_MISS
    events = next_round(b)
    # Gel 40 % at 2 s: the hit due at 2.4 s moves to its last hit + 1.2 / 0.6 = 1.2 + 2 = 3.2 s. Gel 80 %
    # at 4 s: the next, due at 5.2 s, moves to 3.2 + 4.99 s (6 s, capped) = 8.19 s.
    assert [e["t"] for e in events if e["k"] == "hit" and e["src"] == "b1"] == [1200, 3200]
    # Gel fades to 70 % at the round's end; round 2 restarts the cycle at that pace: one hit, at 1.2 / 0.3 =
    # 4 s (not at 3.2 + 4 = 7.2 s, 2.2 s into round 2, as if the cycle carried over).
    assert get(b, "b1").gel_bp == 7000
    hold(b, "a1")
    assert [e["t"] for e in next_round(b) if e["k"] == "hit" and e["src"] == "b1"] == [4000]


def test_a_lethal_hit_applies_no_status() -> None:
    b = arena([sure("poison", atk=200)], [creature("t_1", "humain", "mage", pv=100)])
    victim = get(b, "b1")
    hit_once(b)
    assert not victim.alive
    assert entries(b, "status") == []


def test_a_confused_creature_alone_hits_its_enemies() -> None:
    b = arena(
        [creature("g_1", "orc", "guerrier", atk=1, pv=900)],
        [creature("t_1", "sylvestre", "guerrier", pv=900)],
    )
    crazy = get(b, "a1")
    crazy.confused = True
    for _ in range(2000):
        b.entries = []
        attack(b, crazy, 1000)
        assert entries(b, "hit")[0]["tgt"] == "b1"
        heal_fully(get(b, "b1"))
