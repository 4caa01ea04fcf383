"""The chance to win a round that the private controls show beside each amount of pillz (issue 35): the
rulebook's odds — « si votre personnage a une ATQ de 10 et que son adversaire a une ATQ de 5, alors il aura
10 chances sur 15 de gagner le combat » — averaged over what the player cannot know, each case alike: the
opponent's hidden bet (0 to its pillz left) and, when leading, its character (one of its unused ones)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.pillz.rules import round_chance, round_chances
from tests.engine.pillz.helpers import fighter


def test_the_rulebooks_example_when_the_bet_is_known() -> None:
    """ATQ 10 against ATQ 5: 10 chances in 15 (a bet range of one amount leaves nothing hidden)."""
    me, foe = fighter("me", power=5), fighter("foe", power=5)
    assert round_chance(me, [foe], 2, 0) == 1.0  # against 0 pillz, any attack wins
    assert round_chance(fighter("me", power=10), [fighter("foe", power=5)], 1, 0) == 1.0
    chance = round_chance(fighter("me", power=10), [fighter("foe", power=5)], 1, 1)
    assert Fraction(chance).limit_denominator(100) == (Fraction(1) + Fraction(10, 15)) / 2  # bets 0 and 1


def test_the_hidden_bet_is_each_amount_alike() -> None:
    me, foe = fighter("me", power=3), fighter("foe", power=4)
    expected = (
        sum(Fraction(1, 2) if 3 * 4 + 4 * bet == 0 else Fraction(3 * 4, 3 * 4 + 4 * bet) for bet in range(7))
        / 7
    )
    assert round_chance(me, [foe], 4, 6) == pytest.approx(float(expected))


def test_zero_pillz_against_zero_is_a_coin() -> None:
    assert round_chance(fighter("me"), [fighter("foe")], 0, 0) == 0.5


def test_leading_averages_over_the_unused_characters() -> None:
    me = fighter("me", power=4)
    strong, weak = fighter("strong", power=8), fighter("weak", power=2)
    both = round_chance(me, [strong, weak], 3, 5)
    assert both == pytest.approx((round_chance(me, [strong], 3, 5) + round_chance(me, [weak], 3, 5)) / 2)
    assert round_chance(me, [weak], 3, 5) > both > round_chance(me, [strong], 3, 5)


def test_more_pillz_never_lowers_the_chance() -> None:
    me, foe = fighter("me", power=5), fighter("foe", power=6)
    chances = [round_chance(me, [foe], pillz, 8) for pillz in range(13)]
    assert chances == sorted(chances)
    assert chances[0] < 0.1 < 0.6 < chances[12]


def test_abilities_that_change_power_count() -> None:
    """Furie (`power_bonus`) adds to the power the attack multiplies, as in the round itself."""
    furious = fighter("me", power=5, ability="power_bonus", value=2)
    plain = fighter("me", power=5)
    foe = fighter("foe", power=5)
    assert round_chance(furious, [foe], 4, 4) > round_chance(plain, [foe], 4, 4)


def test_no_opposing_character_is_refused() -> None:
    with pytest.raises(ValueError, match="no opposing character"):
        round_chance(fighter("me"), [], 3, 3)


def test_every_amount_at_once_is_each_amounts_chance() -> None:
    """What the controls show per amount, worked out in one pass: exactly `round_chance` of each amount,
    with a power bonus, against one revealed character or several unused ones."""
    furious = fighter("me", power=5, ability="power_bonus", value=2)
    foes = [
        fighter("a", power=8),
        fighter("b", power=2),
        fighter("c", power=5, ability="power_bonus", value=3),
    ]
    for me in (furious, fighter("me", power=4)):
        for against in (foes[:1], foes):
            for left, foe_left in ((12, 12), (0, 3), (5, 0)):
                expected = tuple(round_chance(me, against, pillz, foe_left) for pillz in range(left + 1))
                assert round_chances(me, against, left, foe_left) == expected
