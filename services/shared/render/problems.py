"""A rule check's reasons as lines of a message (services/shared/collecting.py `Problem`): what a
refusal or a deck's page lists, with what the player typed quoted short."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.message_guard import echo
from engine.cards import CardBase
from services.infra.messages import Text
from services.shared.collecting import Problem

LISTED_LIMIT = 10  # how many bad items a refusal names before "and N more"


def listing(items: Sequence[Text], limit: int = LISTED_LIMIT) -> Text:
    """The first `limit` items one per line, then a line counting the rest: a refusal names a few bad
    items, not all of them."""
    shown = list(items[:limit])
    if len(items) > limit:
        shown.append(Text("error.more_items", {"count": len(items) - limit}))
    return Text.lines(shown)


PARAM_ECHO_LIMIT = 100  # a reason's parameter may be a name the player typed


def problem_lines(
    problems: Sequence[Problem], cards: Mapping[str, CardBase], locale: str, line_key: str
) -> Text:
    """The reasons, one per line (`line_key` has a `{reason}` placeholder), cards named in `locale`: the
    first few, the rest counted, and what the player typed quoted short, so a refusal fits in Discord."""
    return listing([Text(line_key, {"reason": _quoted(p).text(cards, locale)}) for p in problems])


def _quoted(problem: Problem) -> Problem:
    params = {k: echo(v, PARAM_ECHO_LIMIT) if isinstance(v, str) else v for k, v in problem.params.items()}
    return Problem(problem.key, params)
