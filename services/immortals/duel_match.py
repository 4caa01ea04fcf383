"""An Immortal's War duel as a match of the shared blocks (services/shared/matches.py, duels.py): its
rules, its row class, and what the private controls of a seat show.

A seat's controls carry the round they were drawn for, not the match's version (a timeout note moves
the version without making them stale); every save is still guarded by the version read in the unit, so
two clicks, or a click and the timeout, never both apply.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.immortals import ENGINE, ImmortalsState, ImmortalsView
from services.infra.messages import Text
from services.shared.duels import Duel, match_texts
from services.shared.matches import Matches, MatchRules

RULES: MatchRules[ImmortalsState] = MatchRules("immortals", ENGINE, match_texts("immortals"))


@dataclass(frozen=True)
class DuelRow(Duel[ImmortalsState]):
    """An Immortal's War duel: `setup` holds each seat's deck (copy ids, catalog ids, XP) and known
    spells."""

    def copies(self, seat: int) -> list[int]:
        """The copy ids of the seat's deck, aligned with the engine's deck positions (none for the AI)."""
        return [int(c) for c in self.setup[seat].get("copies", [])]


DUELS: Matches[ImmortalsState, DuelRow] = Matches(RULES, DuelRow)


@dataclass(frozen=True)
class Choice:
    """What a seat's private controls show: the engine's view of that seat (its own spells and choice, no
    one else's, and the attack it counters when it is the second to choose), for one round; `engager`
    names the engaging seat as the channel reads it."""

    duel_id: int
    view: ImmortalsView
    engager: Text
    foe_language: str | None = None  # the opponent's (None: the AI), its unit names beside the seat's
