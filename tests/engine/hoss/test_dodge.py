"""Dodge: the rulebook's class table (row dodges column), raised by the card's bonus, never when shocked."""

from __future__ import annotations

import pytest

from engine.hoss.rules import DODGE_BP
from tests.engine.hoss.helpers import Unit, arena, creature, hits, within

ATTACKERS = ("guerrier", "cavalier", "lancier", "assassin", "archer", "mage")
# The rulebook's table, restated (%).
DODGE = {
    "guerrier": (5, 5, 5, 3, 5, 5),
    "cavalier": (12, 8, 2, 15, 8, 5),
    "lancier": (8, 25, 8, 3, 5, 5),
    "assassin": (17, 15, 17, 8, 8, 8),
    "archer": (8, 5, 8, 3, 5, 5),
    "mage": (8, 5, 8, 3, 5, 5),
    "defenseur": (5, 0, 0, 0, 2, 2),
}
TRIALS = 20000


def test_the_table_is_the_rulebooks() -> None:
    assert [tuple(bp // 100 for bp in row) for row in DODGE_BP] == list(DODGE.values())


@pytest.mark.parametrize(
    ("target_cls", "attacker_cls"),
    [
        ("lancier", "cavalier"),
        ("assassin", "guerrier"),
        ("cavalier", "lancier"),
        ("defenseur", "guerrier"),
        ("mage", "mage"),
    ],
)
def test_dodge_rates_match_the_table(target_cls: str, attacker_cls: str) -> None:
    expected = DODGE[target_cls][ATTACKERS.index(attacker_cls)] / 100
    b = arena(
        [creature("a_1", "humain", attacker_cls, atk=1)], [creature("t_1", "humain", target_cls, pv=900)]
    )
    found = hits(b, "a1", TRIALS, target="b1")
    dodged = sum(1 for e in found if e["res"] == "dodge")
    assert within(dodged, TRIALS, expected), (dodged, expected)


def test_the_cards_bonus_raises_dodge() -> None:
    # Lancier vs Cavalier: 25 %; Divin 5★: 25 % x 1.7 = 42.5 %; + a 5-point card bonus: 30 % x 1.7 = 51 %.
    for card, expected in (
        (creature("t_1", "humain", "lancier", pv=900), 0.425),
        (creature("t_1", "humain", "lancier", pv=900, dodge_bonus=0.05), 0.51),
    ):
        b = arena([creature("a_1", "humain", "cavalier", atk=1)], [Unit(card, "divin", 5)])
        dodged = sum(1 for e in hits(b, "a1", TRIALS, target="b1") if e["res"] == "dodge")
        assert within(dodged, TRIALS, expected), (dodged, expected)


def test_a_shocked_target_cannot_dodge() -> None:
    b = arena([creature("a_1", "humain", "guerrier", atk=1)], [creature("t_1", "humain", "assassin", pv=900)])
    target = b.sides[1].fighters[0]
    found = []
    for _ in range(3000):
        target.shock_until = 10**9  # shocked for the whole test (healing between hits clears it)
        found += hits(b, "a1", 1, target="b1")
    assert found
    assert not any(e["res"] == "dodge" for e in found)
