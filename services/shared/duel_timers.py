"""A duel game's lines of /cooldowns: the duels waiting for the player's choice, with their deadline
(services/shared/duels.py), and, in a game that reminds, the reminder before it.

A choice lasts 2 minutes unless a server sets up to an hour (`/setup <game>`): the public message already
calls the player, so a DM would only repeat it for short choices. In a game with a `reminder`, a server
whose choices last at least `REMIND_FROM` gets one `REMIND_BEFORE` the deadline, for players who turned
reminders on.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from services.infra.messages import Text
from services.infra.timers import Timer, TimerQuery, relative
from services.shared.choice_time import ChoiceTime
from services.shared.duels import Duel
from services.shared.matches import Matches
from store.connection import Connection

REMIND_FROM = timedelta(minutes=15)
REMIND_BEFORE = timedelta(minutes=5)


@dataclass(frozen=True)
class DuelTimers:
    """The game's `GameSpec.timers`: its duels, and its message keys."""

    duels: Matches[Any, Any]
    label: str  # {id}
    due: str  # {when}
    reminder: str | None = None  # {id}, {when}; None: the game sends no reminder
    choice_time: ChoiceTime | None = None  # the game's, read when it has a `reminder`

    def __call__(self, conn: Connection, query: TimerQuery) -> list[Timer]:
        found: list[Timer] = []
        for duel in self.duels.live_of(conn, query.player_id):
            due = duel.deadline_at
            if due is None or duel.seats.index(query.player_id) not in duel.to_act():
                continue
            remind_at, remind = None, None
            if self.reminder is not None and self._long(conn, duel):
                remind_at = due - REMIND_BEFORE
                remind = Text(self.reminder, {"id": duel.id, "when": relative(due)})
            label = Text(self.label, {"id": duel.id})
            status = Text(self.due, {"when": relative(due)})
            # keyed by its deadline: every choice re-arms it, and each deadline is reminded once
            key = f"duel:{duel.id}:{int(due.timestamp())}"
            found.append(Timer(key, label, status, due, remind_at, remind))
        return found

    def _long(self, conn: Connection, duel: Duel[Any]) -> bool:
        return self.choice_time is not None and self.choice_time.read(conn, duel.server) >= REMIND_FROM


__all__ = ["REMIND_BEFORE", "REMIND_FROM", "DuelTimers"]
