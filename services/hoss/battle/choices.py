"""A legal action offered in a select of the decision controls, named by an opaque value.

Discord caps a select option's value at 100 characters, and an action's JSON can be longer (long card
ids), so a value never carries the action itself: it is `<index>:<fingerprint>`, the action's place in
the legal actions the player was shown and a short digest of its JSON. At the click the service computes
the legal actions of the stored battle again and takes the one at that place only if its digest matches:
a value built for a list that has moved on (another decision answered at the same pause) or a forged one
is refused and changes nothing. The digest is no secret (the action is the player's own to choose); it
only tells one list from another.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.errors import BadInput, NotAllowed
from engine.hoss import ENGINE, HossAction

FINGERPRINT_LENGTH = 8
_VALUE = re.compile(rf"(?P<index>\d{{1,3}}):(?P<digest>[0-9a-f]{{{FINGERPRINT_LENGTH}}})")


@dataclass(frozen=True)
class Choice:
    """The action at `index` of the legal actions shown, if its JSON still has digest `fingerprint`."""

    index: int
    fingerprint: str


def fingerprint(action: HossAction) -> str:
    raw = json.dumps(ENGINE.action_to_json(action), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(raw.encode()).hexdigest()[:FINGERPRINT_LENGTH]


def choice_value(index: int, action: HossAction) -> str:
    """The select option's value for `action`, shown at `index` of the legal actions."""
    return f"{index}:{fingerprint(action)}"


def parse_choice(value: str) -> Choice:
    """An option's value as a click sent it; anything not shaped like `choice_value` is bad input."""
    found = _VALUE.fullmatch(value)
    if found is None:
        raise BadInput()
    return Choice(int(found["index"]), found["digest"])


def chosen(legal: Sequence[HossAction], choice: Choice) -> HossAction:
    """The action `choice` names among the legal actions now (`hoss.error.ranked.choice_gone` if none)."""
    if choice.index >= len(legal) or fingerprint(legal[choice.index]) != choice.fingerprint:
        raise NotAllowed("hoss.error.ranked.choice_gone")
    return legal[choice.index]
