"""The recap's sections and what provides them.

A section provider reads one server's week and returns its section, or None when that server had nothing
of the kind that week: the recap is the sections found, in their `order`, and nothing is posted for a
week without any. The platform's providers are in `providers.py` (each game's best players, the rarest
pulls shown off, the drops won); a game adds its own with `GameSpec.recap_sections` (HOSS: the Arena's
podium); another platform feature adds its providers to the list `RecapService` is built with
(`services/infra/container.py`), which is where a tournaments section belongs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from services.infra.messages import StripCard, Text
from store.connection import Connection

if TYPE_CHECKING:  # the registry's module declares what a game adds to the recap: these types
    from services.infra.games import GameRegistry

# Where each kind of section stands in the recap (lower first); a new provider picks its own.
ORDER_PLAYERS = 10
ORDER_PODIUMS = 20  # a game's own podiums (the HOSS Arena's)
ORDER_TOURNAMENTS = 30
ORDER_PULLS = 40
ORDER_DROPS = 50


@dataclass(frozen=True)
class RecapWeek:
    """One server's week: from `since` (Monday 00:00, Paris; `monday` is that date) to `until` (the next
    Monday 00:00)."""

    guild_id: int
    monday: date
    since: datetime
    until: datetime
    registry: GameRegistry  # the games the recap speaks of
    catalogs: Mapping[str, Any] = field(default_factory=dict)  # each game's loaded catalog


@dataclass(frozen=True)
class Highlight:
    """A card the recap's picture may show: the rarest thing of the week comes first (`worth`)."""

    game: str
    card: StripCard
    worth: tuple[int, int]


@dataclass(frozen=True)
class RecapSection:
    title: Text
    body: Text
    order: int
    highlights: tuple[Highlight, ...] = ()


SectionProvider = Callable[[Connection, RecapWeek], RecapSection | None]
