"""The five pack skills per point, experience per win from the level difference, the challenge window."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.dinocard.skills import (
    MAX_LEVEL,
    Skills,
    bonus_cards,
    can_challenge,
    daily_challenges,
    gain_xp,
    kept_on_top,
    perceived,
    start_life,
    xp_for_win,
    xp_to_next,
)


def test_each_skill_point_has_its_effect() -> None:
    assert daily_challenges(Skills()) == 2  # rulebook: at least two a day
    assert daily_challenges(Skills(daily=3)) == 5
    assert start_life(Skills()) == 20
    assert start_life(Skills(life=4)) == 28
    assert kept_on_top(Skills(strategy=3)) == 3
    assert kept_on_top(Skills(strategy=40)) == 10
    assert bonus_cards(Skills(bonus=2)) == 2
    assert bonus_cards(Skills(bonus=20)) == 10
    assert Skills(daily=1, life=2, strategy=3, bonus=4, perception=5).points == 15


def test_skills_refuse_negative_points_and_unknown_skills() -> None:
    with pytest.raises(ValidationError):
        Skills(life=-1)
    with pytest.raises(ValidationError):
        Skills.model_validate({"luck": 1})


KINDS = {"a": ("feu", "dinoz", "commune"), "b": ("eau", "objet", "rare")}


@pytest.mark.parametrize(
    ("points", "keys"),
    [
        (0, ["size"]),
        (1, ["size", "elements"]),
        (2, ["size", "elements", "types"]),
        (3, ["size", "elements", "types", "rarities"]),
        (4, ["size", "elements", "types", "rarities", "cards"]),
        (5, ["size", "elements", "types", "rarities", "cards", "counts"]),
    ],
)
def test_perception_reveals_more_of_a_pack_per_point(points: int, keys: list[str]) -> None:
    seen = perceived(Skills(perception=points), ["a", "a", "b"], KINDS)
    assert list(seen) == keys
    assert seen["size"] == 3
    if points >= 1:
        assert seen["elements"] == {"eau": 1, "feu": 2}
    if points >= 4:
        assert seen["cards"] == ["a", "b"]
    if points >= 5:
        assert seen["counts"] == {"a": 2, "b": 1}


def test_a_pack_may_challenge_up_to_5_levels_above_its_own() -> None:
    assert can_challenge(3, 8)
    assert not can_challenge(3, 9)
    assert can_challenge(10, 1)


@pytest.mark.parametrize(
    ("mine", "theirs", "xp"),
    [(5, 5, 10), (5, 6, 14), (5, 10, 30), (5, 11, 0), (5, 4, 6), (5, 3, 2), (5, 1, 2)],
)
def test_xp_per_win_grows_with_the_level_difference(mine: int, theirs: int, xp: int) -> None:
    assert xp_for_win(mine, theirs) == xp


def test_a_full_bar_gives_a_level_and_falls_back_to_zero() -> None:
    assert xp_to_next(1) == 30
    assert gain_xp(1, 20, 5) == (1, 25)
    assert gain_xp(1, 25, 14) == (2, 0)  # the rest is lost (rulebook: the bar falls back to zero)
    assert gain_xp(MAX_LEVEL, 0, 50) == (MAX_LEVEL, 0)
