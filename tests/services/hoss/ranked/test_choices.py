"""The value of an option in the decision controls' select: an index into the legal actions shown and a
digest of the action, never the action's JSON (Discord keeps 100 characters of a value)."""

from __future__ import annotations

import pytest

from core.errors import BadInput, NotAllowed
from engine.hoss.actions import MAX_ID, ChoosePath, HossAction, Move, Pass, Play
from services.hoss.battle.choices import choice_value, chosen, parse_choice

LONG = "x" * MAX_ID  # the longest id an action may carry
LEGAL: tuple[HossAction, ...] = (Play(LONG, "y" * MAX_ID), ChoosePath("a1", LONG), Move("a5", "a1"), Pass())


def test_an_action_longer_than_a_select_value_is_named_whole() -> None:
    for index, action in enumerate(LEGAL):
        value = choice_value(index, action)
        assert len(value) <= 100
        assert chosen(LEGAL, parse_choice(value)) == action


@pytest.mark.parametrize(
    "value",
    [
        choice_value(len(LEGAL), Pass()),  # past the end of the list
        choice_value(0, LEGAL[1]),  # an index that holds another action
        "3:00000000",  # a made-up digest
    ],
)
def test_a_forged_choice_is_no_longer_possible(value: str) -> None:
    with pytest.raises(NotAllowed) as refused:
        chosen(LEGAL, parse_choice(value))
    assert refused.value.key == "hoss.error.ranked.choice_gone"


def test_a_choice_for_a_list_that_moved_on_is_refused() -> None:
    """The legal actions once the move at index 2 is made: index 2 is now Pass, not the move shown."""
    before = choice_value(2, LEGAL[2])
    with pytest.raises(NotAllowed):
        chosen((*LEGAL[:2], Pass()), parse_choice(before))


@pytest.mark.parametrize("value", ['{"kind":"pass"}', "", "1", "-1:00000000", "1:0000000G", "1:000000000"])
def test_a_value_not_shaped_like_a_choice_is_bad_input(value: str) -> None:
    with pytest.raises(BadInput):
        parse_choice(value)
