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
from services.shared.challenges import ChallengeTexts
from services.shared.duels import Duel
from services.shared.matches import Matches, MatchRules, MatchTexts

RULES: MatchRules[ImmortalsState] = MatchRules(
    game="immortals",
    engine=ENGINE,
    texts=MatchTexts(
        stale="immortals.error.stale",
        stale_button="immortals.duel.play_button",
        not_found="immortals.error.no_duel",
        not_player="immortals.error.not_player",
        not_your_turn="immortals.error.not_your_turn",
    ),
)
CHALLENGE_TEXTS = ChallengeTexts(
    self_challenge="immortals.error.self_challenge",
    not_yours="immortals.error.not_your_challenge",
    answered="immortals.error.answered",
    own="immortals.error.own_challenge",
    own_button="immortals.challenge.decline",
)


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
