"""Pillz's lines of /cooldowns (the duels waiting for the player's choice) and their reminders.

A choice lasts 2 minutes unless a server sets up to an hour (`/setup pillz`): the public message already
calls the player, so a DM would only repeat it for short choices. A server whose choices last at least
`REMIND_FROM` gets a reminder `REMIND_BEFORE` the deadline, for players who turned reminders on.
"""

from __future__ import annotations

import sqlite3
from datetime import timedelta

from services.infra.messages import Text
from services.infra.timers import Timer, TimerQuery, relative
from services.pillz.duel_match import CHOICE_TIME, DUELS

REMIND_FROM = timedelta(minutes=15)
REMIND_BEFORE = timedelta(minutes=5)


def timers(conn: sqlite3.Connection, query: TimerQuery) -> list[Timer]:
    found: list[Timer] = []
    for duel in DUELS.live_of(conn, query.player_id):
        due = duel.deadline_at
        if due is None or duel.seats.index(query.player_id) not in duel.to_act():
            continue
        remind_at, remind = None, None
        if CHOICE_TIME.read(conn, duel.server) >= REMIND_FROM:
            remind_at = due - REMIND_BEFORE
            remind = Text("pillz.timer.reminder", {"id": duel.id, "when": relative(due)})
        label = Text("pillz.timer.duel.label", {"id": duel.id})
        status = Text("pillz.timer.duel.due", {"when": relative(due)})
        # keyed by its deadline: every choice re-arms it, and each deadline is reminded once
        found.append(Timer(f"duel:{duel.id}:{int(due.timestamp())}", label, status, due, remind_at, remind))
    return found
