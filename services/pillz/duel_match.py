"""A Pillz duel as a match of the shared blocks (services/shared/matches.py, duels.py): its row class, its
rules and what its move log tells (a repeated click).

Every change is a save guarded by the duel's version, so two clicks, or a click and the timeout, never
both apply to the same state: the later one finds a newer version and changes nothing (`StaleMatch`, with
Pillz's own message).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.pillz import ENGINE, PillzState
from services.shared.duels import Duel, choice_time, match_texts
from services.shared.matches import Matches, MatchRules
from store.connection import Connection

AI = 0  # the AI's player id in the engine (seat 1 of a practice duel)

RULES: MatchRules[PillzState] = MatchRules("pillz", ENGINE, match_texts("pillz"))


# The server's time for each choice (`/setup pillz`), 2 minutes unless changed.
CHOICE_TIME = choice_time("pillz")


@dataclass(frozen=True)
class DuelRow(Duel[PillzState]):
    """A Pillz duel: `data` holds the public notes (who the AI played for)."""


# The duel steps: stateless (rules and row class only), so one value serves every container.
DUELS: Matches[PillzState, DuelRow] = Matches(RULES, DuelRow)


@dataclass(frozen=True)
class Choice:
    """What the private controls show a seat: its unused characters and pillz left, the opposing character
    already revealed this round (when answering), and the duel's version the controls are built on."""

    duel_id: int
    version: int
    seat: int
    state: PillzState
    leading: bool
    foe_language: str | None = None  # the opponent's (None: the AI), its card names beside the seat's


def played_by(conn: Connection, duel_id: int, seat: int, card: str) -> tuple[int, str] | None:
    """The pillz and the author (`player`, `timeout`, `ai`) of the move in which `seat` played `card`, if
    it did: a character fights once per duel, so the card names the move."""
    for move in DUELS.moves(conn, duel_id, seat):
        if move.action.get("card") == card:
            return int(move.action["pillz"]), move.author
    return None
