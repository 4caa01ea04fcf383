"""Race synergy: +3 / 6 / 10 % to all stats with 2 / 4 / 6 creatures of one race alive on a side."""

from __future__ import annotations

import pytest

from engine.hoss.rules import synergy_bp
from tests.engine.hoss.helpers import arena, creature, get


def humans(n: int) -> list[object]:
    return [creature(f"h{i}_1", "humain", "guerrier", pv=100, atk=10) for i in range(n)]


def test_the_tiers() -> None:
    assert [synergy_bp(n) for n in range(8)] == [0, 0, 300, 300, 600, 600, 1000, 1000]


def test_synergy_raises_every_stat_of_that_race() -> None:
    for n, factor in ((1, 1.0), (2, 1.03), (3, 1.03), (4, 1.06), (6, 1.10)):
        b = arena(humans(n), [creature("t_1", "orc", "guerrier")])  # type: ignore[arg-type]
        f = get(b, "a1")
        assert f.max_hp == round(10000 * factor)
        assert round(f.atk) == round(1000 * factor)
        assert f.dodge[0] == pytest.approx(0.05 * factor)


def test_only_the_same_race_counts() -> None:
    b = arena(
        [creature("h_1", "humain", "guerrier"), creature("o_1", "orc", "guerrier")],
        [creature("t_1", "orc", "mage")],
    )
    assert get(b, "a1").max_hp == 10000
    assert get(b, "a2").max_hp == 10000
    assert get(b, "b1").max_hp == 10000  # the enemy Orc is not on the same side


def test_defenders_count_for_the_synergy() -> None:
    b = arena(
        [creature("h_1", "humain", "guerrier"), creature("w_1", "humain", "defenseur", pv=100)],
        [creature("t_1", "orc", "mage")],
    )
    assert get(b, "a1").max_hp == 10300
    assert get(b, "a2").max_hp == 10300


def test_a_death_ends_the_synergy_without_killing_anyone() -> None:
    b = arena(humans(2), [creature("t_1", "orc", "guerrier")])  # type: ignore[arg-type]
    survivor = get(b, "a2")
    survivor.damage = 10250  # 0.5 PV left of 103
    b.take(get(b, "a1"), 10**6, 1000, "test")
    assert survivor.max_hp == 10000
    assert survivor.alive
    assert survivor.hp == 1
    assert b.sides[0].synergy == [0, 0, 0, 0]


def test_a_synergy_lost_mid_round_re_times_the_pending_hit() -> None:
    b = arena(humans(2), [creature("t_1", "orc", "guerrier")])  # type: ignore[arg-type]
    survivor = get(b, "a2")
    assert (survivor.interval, survivor.cycle_start, survivor.attack_at) == (1970, 0, 1970)
    b.take(get(b, "a1"), 10**6, 1000, "test")
    assert (survivor.interval, survivor.attack_at) == (2000, 2000)  # its cycle's start + its new interval


def test_synergies_are_in_the_round_summary() -> None:
    b = arena(humans(2), [creature("t_1", "orc", "guerrier", pv=900)])  # type: ignore[arg-type]
    b.run_round()
    b.end_of_round()
    b.close_round()
    assert b.records[-1]["sides"][0]["synergy"] == {"humain": 300}
    assert b.records[-1]["sides"][1]["synergy"] == {}
