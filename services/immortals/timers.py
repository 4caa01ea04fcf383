"""Immortal's War's lines of /cooldowns: the duels waiting for the player's choice, with their deadline.
No reminder: a choice lasts 2 minutes unless the server's `/setup immortals` changed it, and the duel's
message already shows the deadline to the player."""

from __future__ import annotations

import sqlite3

from services.immortals.duel_match import DUELS
from services.infra.messages import Text
from services.infra.timers import Timer, TimerQuery, relative


def timers(conn: sqlite3.Connection, query: TimerQuery) -> list[Timer]:
    found: list[Timer] = []
    for duel in DUELS.live_of(conn, query.player_id):
        due = duel.deadline_at
        if due is None or duel.seats.index(query.player_id) not in duel.to_act():
            continue
        label = Text("immortals.timer.duel", {"id": duel.id})
        status = Text("immortals.timer.due", {"when": relative(due)})
        found.append(Timer(f"duel:{duel.id}:{int(due.timestamp())}", label, status, due))
    return found
