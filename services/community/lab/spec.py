"""What a game declares to have a lab (`GameSpec.lab`): how a player's request becomes a batch to play.

The batch runs in another process (services/community/lab/pool.py), so what it carries is picklable: a
module-level function of the game's (`play`), the game's loaded catalog and the player's deck as plain
values, and one opaque, picklable spec per opponent. `play(catalog, deck, opponent, seeds)` plays one
battle per seed with the game's own engine and AI and returns `Outcome`s (services/community/lab/stats.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from services.community.lab.stats import Outcome
from services.infra.messages import Text

Play = Callable[[Any, Any, Any, Sequence[int]], list[Outcome]]


@dataclass(frozen=True)
class Opponent:
    """One column of the lab's answer: what the worker is handed (`spec`) and how the answer names it
    (`label`, a full name, and `short`, the chart's axis label)."""

    spec: Any
    label: Text
    short: Text


@dataclass(frozen=True)
class LabRequest:
    """A player's request as the cog parsed it: which deck (a HOSS slot, a Dinocard pack's number or name;
    None: the game's default, the active deck), which opponent (None: each of them); both untrusted,
    checked by the game."""

    player_id: int
    deck: int | str | None = None
    opponent: str | None = None


@dataclass(frozen=True)
class LabJob:
    play: Play
    catalog: Any
    deck: Any
    opponents: tuple[Opponent, ...]
    subject: Text  # the deck as the answer names it
    card_names: dict[str, Text]  # how the answer names the cards its statistics list
    length_unit: str  # message key of a battle's length: rounds or phases, a plural block of `count`
    presence: str  # message key saying when a card counts as present (the opening hand, the line-up)


# The game's side: (its built services, the request) -> the job, after its checks (owner, a playable deck,
# an opponent that exists); a refusal is a DomainError with a localized message.
Prepare = Callable[[Any, LabRequest], Awaitable[LabJob]]


@dataclass(frozen=True)
class LabGame:
    prepare: Prepare
